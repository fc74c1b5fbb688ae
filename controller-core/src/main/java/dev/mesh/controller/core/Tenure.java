package dev.mesh.controller.core;

import java.time.Instant;
import java.util.Objects;

/**
 * One holding of the plan lock, from {@link PlanLock#acquire()} to its release or loss.
 *
 * @param epoch the fencing epoch taken, greater than every earlier one
 * @param since when it was taken
 * @param holder who holds it (this controller's instance)
 * @param previous who held the lock before, as the store recorded it; {@code ""} for none
 */
public record Tenure(long epoch, Instant since, String holder, String previous) {

    /** Checks the parts. */
    public Tenure {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(previous, "previous");
        if (epoch < 1) {
            throw new IllegalArgumentException("an epoch taken is at least 1, not " + epoch);
        }
    }
}
