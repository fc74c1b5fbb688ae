package dev.mesh.controller.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * A password, a token or any other value that must never reach a log, an error message, a plan or
 * a declaration. It prints as {@code ***} whatever it holds,
 * so a record that has one as a component prints safely; the value is read only through
 * {@link #reveal()}, at the one place that hands it to a driver or a client.
 *
 * <p>Immutable and thread-safe. Two secrets are equal when they hold the same value (compared in
 * time that does not depend on where they differ); the hash code is the same for every secret, so
 * a hash table never sorts them by value.
 */
public final class Secret {

    /** No secret: an empty value, for a credential that has none (a trust-authenticated database). */
    public static final Secret NONE = new Secret("");

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    /**
     * @param value the secret value, possibly empty
     * @return the secret
     * @throws NullPointerException when {@code value} is null
     */
    public static Secret of(String value) {
        Objects.requireNonNull(value, "value");
        return value.isEmpty() ? NONE : new Secret(value);
    }

    /** @return the value itself: hand it to what needs it, never to a log or a message */
    public String reveal() {
        return value;
    }

    /** @return whether the value is empty */
    public boolean isEmpty() {
        return value.isEmpty();
    }

    /** @return {@code ***}, never the value */
    @Override
    public String toString() {
        return "***";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret secret && MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8),
                secret.value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int hashCode() {
        return Secret.class.hashCode();
    }
}
