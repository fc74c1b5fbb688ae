package dev.mesh.controller.core;

import java.util.Locale;

/**
 * A controller's place in the life cycle of docs/design.md section 10: {@code standby} → {@code active}
 * → {@code releasing} → {@code stopped}. Only an active controller plans or changes the inventory; a
 * standby answers reads and refuses the rest; a releasing one finishes what it holds and takes no
 * new work; a stopped one has let go for good (its process is ending) and takes nothing again.
 */
public enum Role {
    /** Consuming, warm, answering reads; planning nothing. */
    STANDBY,
    /** Holding the plan lock with the current epoch: the one controller that plans. */
    ACTIVE,
    /** Letting go: finishing what it holds, taking no new plan work, about to release the lock. */
    RELEASING,
    /** Stopped for good (SIGTERM, or the controller closing): consuming nothing, never active again. */
    STOPPED;

    /** @return the role as {@code status} tells it, e.g. {@code standby} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
