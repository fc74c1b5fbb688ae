package dev.mesh.controller.store;

import java.util.Locale;

/** Where one change of a recorded plan stands, as {@link PlanRecords} keeps it. */
public enum StepState {
    /** Not started. */
    PENDING,
    /** Sent to its node, no result yet. */
    RUNNING,
    /** The node reported it done. */
    DONE,
    /** The node reported it failed. */
    FAILED,
    /** Not made, because a change it required failed. */
    SKIPPED;

    /** @return the state as the {@code plan_steps} table keeps it, e.g. {@code pending} */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
