package dev.mesh.controller.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * One process as its host reports it in its {@link Facts} (docs/design.md section 8).
 *
 * @param name the process's name, as its declaration names it; not empty
 * @param state what the process is doing
 * @param since when it entered that state, kept to the microsecond (what the store keeps)
 * @param checks how many consecutive health checks it has passed, at least 0
 */
public record ProcessState(String name, State state, Instant since, int checks) {

    /** How many passed checks make a process healthy ({@code #healthy} in a plan's requirements). */
    public static final int HEALTHY_CHECKS = 2;

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the name is empty or {@code checks} is negative
     */
    public ProcessState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        since = Objects.requireNonNull(since, "since").truncatedTo(ChronoUnit.MICROS);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a reported process has a name; this one's is empty");
        }
        if (checks < 0) {
            throw new IllegalArgumentException("process " + name + " passed " + checks
                    + " checks: a count of passed checks is at least 0");
        }
    }

    /** @return {@code true} when it is running and has stayed up across {@value #HEALTHY_CHECKS} checks */
    public boolean healthy() {
        return state == State.RUNNING && checks >= HEALTHY_CHECKS;
    }

    /** What a reported process is doing; {@link #label()} is how the wire spells it. */
    public enum State {
        /** Started and up. */
        RUNNING,
        /** Being started (its preparation, if any, included). */
        STARTING,
        /** Not running, on purpose. */
        STOPPED,
        /** Not running, and it should be. */
        FAILED;

        /** @return the state as hosts send it, e.g. {@code running} */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param label a state as hosts send it, e.g. {@code running}
         * @return the state with that {@link #label()}
         * @throws IllegalArgumentException when no state has it
         */
        public static State of(String label) {
            for (State state : values()) {
                if (state.label().equals(label)) {
                    return state;
                }
            }
            throw new IllegalArgumentException("a process state is running, starting, stopped or failed, not \""
                    + label + "\"");
        }
    }
}
