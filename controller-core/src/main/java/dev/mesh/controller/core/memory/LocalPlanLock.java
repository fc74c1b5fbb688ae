package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.PlanLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** A {@link PlanLock} for one process: a fair lock; the epoch is 1 for as long as the process lives. */
public final class LocalPlanLock implements PlanLock {

    private final ReentrantLock lock = new ReentrantLock(true);

    @Override
    public <T> T holding(Supplier<T> work) {
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing to take in one process: the epoch stays 1. */
    @Override
    public long acquire() {
        return 1;
    }

    @Override
    public void release() {
        // One process: nothing was taken.
    }

    @Override
    public long epoch() {
        return 1;
    }
}
