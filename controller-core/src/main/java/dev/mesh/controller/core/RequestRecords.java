package dev.mesh.controller.core;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What each mutating request returned, by request id (docs/design.md section 10): a repeated request —
 * a client's retry, or a message the broker delivers again after a handover — gets the recorded
 * answer and changes nothing. A port: the store keeps them in the {@code inventory} database,
 * {@code MemoryRequestRecords} in memory.
 *
 * <p>Implementations are thread-safe.
 */
public interface RequestRecords {

    /** Keeps nothing: every request runs. */
    RequestRecords NONE = new RequestRecords() {
        @Override
        public Optional<Recorded> find(String requestId) {
            return Optional.empty();
        }

        @Override
        public void record(Recorded recorded) {
            // Nothing is kept.
        }
    };

    /**
     * @param requestId the request's id
     * @return what it returned, when it ran before
     */
    Optional<Recorded> find(String requestId);

    /** Records what a request returned; a record for an id that has one already is ignored. */
    void record(Recorded recorded);

    /**
     * Runs a mutating request's work — its changes to the inventory and the {@link #record} of what it
     * returned — so that they take effect together or not at all, where the store can: a controller that
     * dies in between must leave neither, or a redelivered request would run again, finding no record.
     * The store's records make it one database transaction; by default (memory, {@link #NONE}) the work
     * just runs.
     *
     * @param work the request's changes and its record
     * @return what {@code work} returns, once it took effect
     */
    default <T> T atomically(java.util.function.Supplier<T> work) {
        return work.get();
    }

    /**
     * One request's outcome.
     *
     * @param requestId the request's id, unique per request
     * @param principal who called
     * @param verb the verb
     * @param argumentsDigest digest of the canonical arguments, so a reused id with other
     *     arguments is told apart
     * @param result the result; for an error, {@code {"code","message","pointer"}}
     * @param error whether the request failed
     */
    record Recorded(String requestId, String principal, String verb, String argumentsDigest, JsonNode result,
            boolean error) {

        /** Checks the parts. */
        public Recorded {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(verb, "verb");
            Objects.requireNonNull(argumentsDigest, "argumentsDigest");
            Objects.requireNonNull(result, "result");
        }
    }
}
