package dev.mesh.controller.core;

import java.util.function.Supplier;

/**
 * The one lock all plan work holds, and its fencing epoch (DESIGN.md section 10). A port: the store
 * implements it with a PostgreSQL advisory lock; {@link LocalPlanLock} in memory.
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

    /** @return the fencing epoch of the current holder; it grows with every new holder */
    long epoch();
}
