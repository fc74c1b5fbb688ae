package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.util.Objects;

/**
 * Where NATS is and who the controller is on it. Checked once, here; {@code toString()} never shows
 * the password or token.
 *
 * @param url the server, {@code nats://host:port} or {@code tls://host:port}; or the servers of a cluster
 *     separated by commas, {@code nats://nats-1:4222,nats://nats-2:4222}: the client connects to one and moves
 *     to another when it goes
 * @param user the user the controller connects as, or {@code ""} for none
 * @param password that user's password; without a user, the token; {@link Secret#NONE} for neither
 * @param subjectPrefix put before every subject: {@code ""} in production, one of its own per test
 *     (ending with {@code .})
 */
public record NatsSettings(String url, String user, Secret password, String subjectPrefix) {

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the URL is not {@code nats://…} or {@code tls://…}, a user
     *     has no password, or a non-empty prefix does not end with {@code .} or holds a space or a wildcard
     */
    public NatsSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(subjectPrefix, "subjectPrefix");
        for (String server : url.split(",", -1)) {
            if (!server.startsWith("nats://") && !server.startsWith("tls://")) {
                throw new IllegalArgumentException("the NATS URL must be nats://host:port or tls://host:port, or "
                        + "several separated by commas, not \"" + url + "\"");
            }
        }
        if (!user.isEmpty() && password.isEmpty()) {
            throw new IllegalArgumentException("the NATS user " + user + " has no password; give it one, or no user");
        }
        if (!subjectPrefix.isEmpty() && (!subjectPrefix.endsWith(".") || subjectPrefix.matches(".*[\\s*>].*"))) {
            throw new IllegalArgumentException("a NATS subject prefix is empty or ends with \".\" and holds no space,"
                    + " * or >; not \"" + subjectPrefix + "\"");
        }
    }

    /**
     * @param url the server, {@code nats://host:port}
     * @return settings without credentials and without a subject prefix
     * @throws IllegalArgumentException as the constructor
     */
    public static NatsSettings of(String url) {
        return new NatsSettings(url, "", Secret.NONE, "");
    }

    /**
     * @param prefix the subject prefix, e.g. {@code it-3f2a.}
     * @return these settings with that prefix
     * @throws IllegalArgumentException as the constructor
     */
    public NatsSettings withSubjectPrefix(String prefix) {
        return new NatsSettings(url, user, password, prefix);
    }
}
