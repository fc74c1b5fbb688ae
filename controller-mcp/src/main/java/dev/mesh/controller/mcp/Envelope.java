package dev.mesh.controller.mcp;

import java.util.Objects;
import java.util.Optional;

/**
 * What a transport knows of a message besides its bytes: who sends it, as the transport authenticated
 * it, and, when the transport carries one, the request's id (over the broker, the message's
 * {@code message_id}). The dispatcher makes a mutating {@code tools/call} idempotent by that id; without
 * one, by {@code params._meta["dev.mesh/request-id"]} (docs/mcp.md, "Idempotency").
 *
 * <p>An immutable value; thread-safe.
 */
public final class Envelope {

    private final String principal;
    /** The transport's request id, {@code ""} for none. */
    private final String requestId;

    private Envelope(String principal, String requestId) {
        this.principal = Objects.requireNonNull(principal, "principal");
        this.requestId = Objects.requireNonNull(requestId, "requestId");
    }

    /**
     * @param principal who sends the message
     * @return an envelope with no request id: a request id can only come from {@code _meta}
     * @throws NullPointerException when {@code principal} is null
     */
    public static Envelope of(String principal) {
        return new Envelope(principal, "");
    }

    /**
     * @param principal who sends the message
     * @param requestId the request's id as the transport carries it; the dispatcher refuses one that is
     *     not 1 to 200 characters with {@code invalid params}
     * @return an envelope with that request id
     * @throws NullPointerException when an argument is null
     * @throws IllegalArgumentException when {@code requestId} is empty: use {@link #of(String)} for none
     */
    public static Envelope of(String principal, String requestId) {
        if (requestId.isEmpty()) {
            throw new IllegalArgumentException("an envelope's request id may not be empty; use Envelope.of(principal) "
                    + "for a message without one");
        }
        return new Envelope(principal, requestId);
    }

    /** @return who sends the message */
    public String principal() {
        return principal;
    }

    /** @return the transport's request id, when it carries one */
    public Optional<String> requestId() {
        return requestId.isEmpty() ? Optional.empty() : Optional.of(requestId);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Envelope that && principal.equals(that.principal) && requestId.equals(that.requestId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(principal, requestId);
    }

    @Override
    public String toString() {
        return "Envelope[principal=" + principal + (requestId.isEmpty() ? "" : ", requestId=" + requestId) + "]";
    }
}
