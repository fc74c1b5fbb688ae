package dev.mesh.controller.core;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one lock all plan work holds, and its fencing epoch (docs/design.md section 10). A port: the store
 * implements it with a PostgreSQL advisory lock on a dedicated session; core's {@link Lifecycle}
 * takes it when the controller becomes active and gives it back when it lets go.
 *
 * <p>The lock is held for a whole active period, not per piece of work: {@link #acquire()} takes it
 * with a new epoch, {@link #holding} runs work under it, {@link #release()} gives it back. A lock
 * can be <em>lost</em> while acquired (its session ended): from then on it is not acquired, and
 * the next {@link #acquire()} takes it again with a new epoch.
 *
 * <p>Implementations are thread-safe.
 */
public interface PlanLock {

    /**
     * Takes the lock for as long as this controller is active, with an epoch greater than every
     * epoch taken before, and records the handover from the holder before (its instance and epoch, and
     * whether it released the lock or lost it, {@link Tenure#takeover()}). Taking it again while
     * acquired returns the same tenure.
     *
     * @return the tenure taken
     * @throws VerbException {@code unavailable} when the lock cannot be had: another controller
     *     holds it past the lock's wait, or the store cannot be reached
     */
    Tenure acquire();

    /**
     * Gives back the lock {@link #acquire()} took, after the work holding it ends, recording when: the
     * next holder's tenure is then {@link Tenure.Planned}. Does nothing when it is not acquired.
     */
    void release();

    /**
     * Runs {@code work} under the acquired lock, one piece of work at a time; plan writes inside it
     * check the epoch. Reentrant on the thread that runs the work.
     *
     * @return what {@code work} returns
     * @throws VerbException {@code unavailable} when the lock is not acquired, or was lost (it is
     *     then no longer acquired)
     */
    <T> T holding(Supplier<T> work);

    /**
     * Finds out whether an acquired lock is still held, as far as can be known without waiting for
     * the work that holds it now: a lock whose session ended becomes lost, and {@link #tenure()}
     * empty. A lock still held is recorded as seen now: after a crash, the next holder's
     * {@link Tenure.Crash#lastSeen()}. Never throws for a store that cannot be reached; does nothing
     * when not acquired.
     */
    void check();

    /** @return the tenure while the lock is acquired and not known to be lost; never waits */
    Optional<Tenure> tenure();

    /**
     * Who holds the lock, as the store last recorded it: the controller that took it last, while it has
     * not released it. One that crashed may be named until another takes the lock. What a standby tells of
     * the active controller ({@link Lifecycle#verify()}). Never waits for the lock or for plan work.
     *
     * @return the holder and its epoch; empty when no one took the lock, the last holder released it, or
     *     the store cannot be read now
     */
    Optional<Holder> heldBy();

    /**
     * A holder of the lock, as recorded.
     *
     * @param instance its instance, e.g. {@code host:pid}
     * @param epoch the epoch it took
     */
    record Holder(String instance, long epoch) {

        /** Checks the parts. */
        public Holder {
            Objects.requireNonNull(instance, "instance");
        }
    }
}
