package dev.mesh.controller.core;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link PlanLock} for one process: a fair, reentrant lock with a fencing epoch that behaves as
 * the store's does — each taking of the lock ({@link #holding} while not acquired, or
 * {@link #acquire()}) is the next epoch, an acquired lock keeps one epoch until {@link #release()},
 * and {@link #epoch()} is the last holder's. It starts at 1. Thread-safe.
 */
public final class LocalPlanLock implements PlanLock {

    private final ReentrantLock lock = new ReentrantLock(true);
    private final AtomicLong epoch = new AtomicLong(1);
    /** Changed only while {@link #lock} is held. */
    private volatile boolean acquired;

    @Override
    public <T> T holding(Supplier<T> work) {
        lock.lock();
        try {
            if (!acquired && lock.getHoldCount() == 1) {
                epoch.incrementAndGet();
            }
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Takes the next epoch, kept until {@link #release()}; while acquired, returns it again. */
    @Override
    public long acquire() {
        lock.lock();
        try {
            if (!acquired) {
                acquired = true;
                epoch.incrementAndGet();
            }
            return epoch.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void release() {
        lock.lock();
        try {
            acquired = false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long epoch() {
        return epoch.get();
    }
}
