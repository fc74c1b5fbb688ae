package dev.mesh.controller.core.execute;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.Role;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@link Execution}'s rounds on a thread of its own while this controller is active: at
 * once after {@link #changed()} (a verb changed the mesh, a report arrived), and at a tick when the
 * last round left something that facts alone may settle — a delivery waiting for another node's
 * process, a send that failed — or, at most once a second, while a node was sent a revision it does
 * not run yet (it may fall silent and come back without it); and when this controller has run
 * no round under its current epoch (it just became active). Facts do not ask for rounds: the hosts'
 * reports every few seconds would otherwise make one round per batch on a large mesh; a fact matters
 * only to what a round left waiting, which the tick takes up. Changes that arrive during a round make
 * one more round, not one each. A standby runs no round.
 *
 * <p>Thread-safe. {@link #close()} stops the thread after the round it is in.
 */
public final class Executor implements AutoCloseable {

    /** What the executor tells: the launcher logs it. Called on the executor's thread; must not throw. */
    public interface Listener {

        /** A round ran. @param round what it did */
        void round(Execution.Round round);

        /** A round or a report failed: the next round tries again. @param failure why */
        void failed(RuntimeException failure);
    }

    /** The least time between two rounds that only watch (see {@link Execution#watching()}). */
    static final Duration WATCH_EVERY = Duration.ofSeconds(1);

    private final Execution execution;
    private final Lifecycle lifecycle;
    private final long tickNanos;
    private final Listener listener;
    private final Thread thread;
    private final Object signal = new Object();
    private boolean pending = true;
    private volatile boolean closed;
    /** What the last round told waited, so that an unchanged wait is told once. */
    private Map<String, List<String>> waited = Map.of();
    /** Whether the last round left work that a tick's round may finish. */
    private boolean unfinished = true;
    /** The epoch of the last round run. */
    private long ranUnder;
    /** When the last round began ({@link System#nanoTime()}). */
    private long lastRound;
    /** How often rounds watch nodes sent a revision they do not run yet: a tick, at least a second. */
    private final long watchNanos;

    private Executor(Execution execution, Lifecycle lifecycle, Duration tick, Listener listener) {
        this.execution = execution;
        this.lifecycle = lifecycle;
        this.tickNanos = tick.toNanos();
        this.watchNanos = Math.max(tickNanos, WATCH_EVERY.toNanos());
        this.listener = listener;
        this.thread = Thread.ofPlatform().name("mesh-executor").daemon().unstarted(this::loop);
    }

    /**
     * Starts the executor's thread; its first round runs at once if this controller is active.
     *
     * @param execution what a round runs
     * @param lifecycle whether this controller is active, and the gate a round passes
     * @param tick how long the executor waits for a change before it runs a round anyway
     * @param listener told of every round that did something and every failure
     * @return the running executor
     * @throws IllegalArgumentException when the tick is not positive
     */
    public static Executor start(Execution execution, Lifecycle lifecycle, Duration tick, Listener listener) {
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(listener, "listener");
        if (tick.isNegative() || tick.isZero()) {
            throw new IllegalArgumentException("the executor's tick must be positive, not " + tick);
        }
        Executor executor = new Executor(execution, lifecycle, tick, listener);
        executor.thread.start();
        return executor;
    }

    /** Asks for a round soon: the mesh changed, or a report arrived. Never blocks. */
    public void changed() {
        if (Thread.currentThread() == thread) {
            return; // what a round publishes is not a change to plan again
        }
        synchronized (signal) {
            pending = true;
            signal.notifyAll();
        }
    }

    /**
     * Records a report while this controller is active, then asks for a round.
     *
     * @param report what a host or builder reported
     * @return whether the inventory changed
     * @throws dev.mesh.controller.core.VerbException {@code unavailable} when this controller is not
     *     active or the inventory does not answer: the report is to be handed over again (redelivered)
     */
    public boolean record(Report report) {
        boolean changed = lifecycle.whileActive(() -> execution.record(report));
        changed();
        return changed;
    }

    private void loop() {
        while (!closed) {
            boolean changes;
            synchronized (signal) {
                long deadline = System.nanoTime() + tickNanos;
                while (!pending && !closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(signal, left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                changes = pending;
                pending = false;
            }
            Lifecycle.Status status = lifecycle.status();
            boolean watch = execution.watching() && System.nanoTime() - lastRound >= watchNanos;
            if (closed || status.role() != Role.ACTIVE
                    || !changes && !unfinished && !watch && status.epoch() == ranUnder) {
                continue;
            }
            try {
                lastRound = System.nanoTime();
                Execution.Round round = lifecycle.whileActive(() -> execution.run(status.epoch()));
                ranUnder = status.epoch();
                unfinished = !round.waiting().isEmpty() || !round.failed().isEmpty();
                if (!round.idle() || !round.waiting().equals(waited)) {
                    listener.round(round);
                }
                waited = round.waiting();
            } catch (RuntimeException e) {
                listener.failed(e);
            }
        }
    }

    /** Stops the thread after its round, waiting for it at most a few seconds. */
    @Override
    public void close() {
        closed = true;
        synchronized (signal) {
            signal.notifyAll();
        }
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
