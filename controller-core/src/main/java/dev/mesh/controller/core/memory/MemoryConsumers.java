package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Consumers;
import java.time.Duration;
import java.util.Objects;

/**
 * {@link Consumers} of one controller in memory, for tests: the test plays the broker and the
 * bus's tick, {@link #feed() feeding} or {@link #starve() starving} the controller and saying how
 * many deliveries it {@link #hold holds}. Nothing waits: {@link #settled} answers at once.
 *
 * <p>Thread-safe: every method holds the instance's monitor, but the listener is called outside it.
 */
public final class MemoryConsumers implements Consumers {

    private Listener listener;
    private boolean consuming;
    private int handOvers;
    private int held;

    @Override
    public void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            if (this.listener != null) {
                throw new IllegalStateException("the consumers are started already; start them once");
            }
            this.listener = listener;
            consuming = true;
        }
    }

    @Override
    public synchronized void handOver() {
        if (consuming) {
            consuming = false;
            handOvers++;
        }
    }

    @Override
    public synchronized void rejoin() {
        consuming = true;
    }

    /** Answers at once: whether no delivery is {@link #hold held}. */
    @Override
    public synchronized boolean settled(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        return held == 0;
    }

    /**
     * A message or tick arrives, as when the broker made this controller its active consumer: tells
     * the listener {@link Listener#fed()} while consuming; a cancelled consumer is fed nothing.
     *
     * @return whether the listener was told
     */
    public boolean feed() {
        Listener told;
        synchronized (this) {
            told = consuming ? listener : null;
        }
        if (told != null) {
            told.fed();
        }
        return told != null;
    }

    /** Nothing arrived for a while: tells the listener {@link Listener#starved()} once started. */
    public void starve() {
        Listener told;
        synchronized (this) {
            told = listener;
        }
        if (told != null) {
            told.starved();
        }
    }

    /** @param deliveries how many unacknowledged deliveries the controller holds now, at least 0 */
    public synchronized void hold(int deliveries) {
        if (deliveries < 0) {
            throw new IllegalArgumentException("a controller holds 0 deliveries or more, not " + deliveries);
        }
        held = deliveries;
    }

    /** @return whether the consumers are consuming (started and not handed over since) */
    public synchronized boolean consuming() {
        return consuming;
    }

    /** @return how many times consuming consumers were handed over */
    public synchronized int handOvers() {
        return handOvers;
    }
}
