package dev.mesh.controller.core;

import java.util.function.Supplier;

/**
 * The one lock all plan work holds, and its fencing epoch (DESIGN.md section 10). A port: the store
 * implements it with a PostgreSQL advisory lock; {@code LocalPlanLock} in memory.
 *
 * <p>Implementations are thread-safe.
 */
public interface PlanLock {

    /**
     * Runs {@code work} holding the lock.
     *
     * @return what {@code work} returns
     * @throws VerbException {@code unavailable} when the lock cannot be had, or was lost
     */
    <T> T holding(Supplier<T> work);

    /**
     * Takes the lock for as long as this controller is active (DESIGN.md section 10: the lock
     * follows the active consumer): one epoch for the whole active period, and until
     * {@link #release()} {@link #holding} runs work without taking the lock again. Taking it
     * again while acquired does nothing.
     *
     * @return the epoch taken
     * @throws VerbException {@code unavailable} when the lock cannot be had, or was lost
     */
    long acquire();

    /**
     * Gives back the lock {@link #acquire()} took; from then on {@link #holding} takes it for each
     * piece of work. Does nothing when it is not acquired.
     */
    void release();

    /** @return the fencing epoch of the current holder; it grows with every new holder */
    long epoch();
}
