package dev.mesh.controller.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one lock all plan work holds, and its fencing epoch (docs/design.md section 10). A port: the store
 * implements it with a PostgreSQL advisory lock on a dedicated session; the handover's life cycle
 * takes it when the controller becomes active and gives it back when it lets go.
 *
 * <p>The lock is held for a whole active period, not per piece of work: {@link #attempt()} takes it
 * with a new epoch and says what happened (taken, held by another, the store out of reach), so that a
 * caller decides from an outcome, never from an error's code; {@link #acquire()} is the same for a
 * caller to whom anything but taken is an error. {@link #holding} runs work under it, {@link #release()} gives it back. A lock
 * can be <em>lost</em> while acquired (its session ended): from then on it is not acquired
 * ({@link #tenure()} is empty), and the next {@link #attempt()} takes it again with a new epoch.
 *
 * <p>Implementations are thread-safe.
 */
public interface PlanLock {

    /**
     * Takes the lock for as long as this controller is active, with an epoch greater than every
     * epoch taken before, and records the handover from the holder before (its instance and epoch, and
     * whether it released the lock or lost it, {@link Tenure#takeover()}). Taking it again while
     * acquired is {@link Taken} with the same tenure.
     *
     * @return what happened: {@link Taken}, {@link Busy} (another controller holds it past the lock's
     *     wait) or {@link Unreachable} (the store cannot be reached, or failed taking it)
     */
    Attempt attempt();

    /**
     * Takes the lock as {@link #attempt()} does, for a caller to whom anything but taken is an error.
     *
     * @return the tenure taken
     * @throws VerbException {@code unavailable}, saying why, when the lock was not taken
     */
    default Tenure acquire() {
        return attempt().orThrow();
    }

    /** What {@link #attempt()} did. */
    sealed interface Attempt permits Taken, Busy, Unreachable {

        /**
         * @return the tenure, when taken
         * @throws VerbException {@code unavailable}, saying why, when the lock was not taken
         */
        default Tenure orThrow() {
            return switch (this) {
                case Taken taken -> taken.tenure();
                case Busy busy -> throw new VerbException(VerbException.Code.UNAVAILABLE, busy.why(), "");
                case Unreachable unreachable -> throw new VerbException(VerbException.Code.UNAVAILABLE,
                        unreachable.why(), "", unreachable.cause().orElse(null));
            };
        }
    }

    /**
     * The lock is this controller's, with a new epoch (or the one it holds already).
     *
     * @param tenure the tenure taken
     */
    record Taken(Tenure tenure) implements Attempt {

        /** Checks the part. */
        public Taken {
            Objects.requireNonNull(tenure, "tenure");
        }
    }

    /**
     * Another controller holds the lock and did not let go within the lock's wait.
     *
     * @param holder who holds it, as the store names it ({@code ""} when it could not be read)
     * @param waited how long this attempt waited for it
     * @param why the whole of it, for a person: who holds it and what to do
     */
    record Busy(String holder, Duration waited, String why) implements Attempt {

        /** Checks the parts. */
        public Busy {
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(waited, "waited");
            Objects.requireNonNull(why, "why");
        }
    }

    /**
     * The store could not be reached, or failed while the lock was taken; nothing was taken.
     *
     * @param why what failed, where, and what to do, for a person
     * @param cause the driver's exception, kept for the log's sake; never shown to a client
     */
    record Unreachable(String why, Optional<Exception> cause) implements Attempt {

        /** Checks the parts. */
        public Unreachable {
            Objects.requireNonNull(why, "why");
            Objects.requireNonNull(cause, "cause");
        }

        /** @param why what failed, where, and what to do, for a person; with no exception to keep */
        public Unreachable(String why) {
            this(why, Optional.empty());
        }

        /**
         * @param why what failed, where, and what to do, for a person
         * @param cause the driver's exception
         */
        public Unreachable(String why, Exception cause) {
            this(why, Optional.of(cause));
        }
    }

    /**
     * Gives back the lock {@link #attempt()} took, after the work holding it ends, recording when: the
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
     * the active controller. Never waits for the lock or for plan work.
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
