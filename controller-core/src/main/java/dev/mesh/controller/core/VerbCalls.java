package dev.mesh.controller.core;

import java.time.Duration;
import java.util.Optional;

/**
 * Where the verbs' calls are counted (docs/operations.md): the one MCP dispatcher, behind every
 * transport, tells each {@code tools/call} with its verb, its outcome and how long it took; {@code status}
 * reads the {@link Tally}. A port: the launcher counts them in its Prometheus registry, the tests and
 * the benchmarks use {@link #NONE}.
 *
 * <p>Implementations are thread-safe, and {@link #called} never blocks nor throws.
 */
public interface VerbCalls {

    /** The outcome of a call that answered a result. */
    String OK = "ok";
    /** The outcome of a call refused as a JSON-RPC error: {@code tools/call} without a verb's name, bad params. */
    String PROTOCOL_ERROR = "protocol-error";
    /** The outcome of a call that failed unexpectedly: JSON-RPC's internal error, with an incident in the log. */
    String INTERNAL_ERROR = "internal-error";
    /** The verb told for a name that is no verb, so that a caller cannot make the labels grow without bound. */
    String UNKNOWN_VERB = "unknown";

    /** Counts nothing: {@code status} then shows no {@code verbs}. */
    VerbCalls NONE = new VerbCalls() {
        @Override
        public void called(String verb, String outcome, Duration took) {
            // Nothing is counted.
        }

        @Override
        public Optional<Tally> tally() {
            return Optional.empty();
        }
    };

    /**
     * One call answered.
     *
     * @param verb a verb's name, or {@link #UNKNOWN_VERB}
     * @param outcome {@link #OK}, a verb error's code ({@link VerbException.Code#label()}: the tool result had
     *     {@code isError}), {@link #PROTOCOL_ERROR} or {@link #INTERNAL_ERROR}
     * @param took from the message read to the answer made
     */
    void called(String verb, String outcome, Duration took);

    /** @return what was counted since the controller started; empty when nothing is counted */
    Optional<Tally> tally();

    /**
     * The calls counted since the controller started.
     *
     * @param calls every call
     * @param failed the calls whose outcome was not {@link #OK}
     */
    record Tally(long calls, long failed) {

        /**
         * Checks the parts.
         *
         * @throws IllegalArgumentException when a count is negative or more failed than were called
         */
        public Tally {
            if (calls < 0 || failed < 0 || failed > calls) {
                throw new IllegalArgumentException("a tally has 0 <= failed <= calls, not calls=" + calls + " failed="
                        + failed);
            }
        }
    }
}
