package dev.mesh.controller.handover;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a controller that is alone active: the development controller, which no broker feeds and so no
 * {@link Handover} decides for. It takes the plan lock at {@link #start}; then, every {@code every}, it checks
 * that it still holds it ({@link ControllerLifecycle#verify()}), and when it finds itself a standby — the lock
 * was lost with its database session, the store restarted — it takes the lock again, with a new epoch, and
 * publishes the {@code handover} event. A failure to take it (the store still down) is told once, until it
 * succeeds.
 *
 * <p>Thread-safe; {@link #close()} stops it.
 */
public final class KeepActive implements AutoCloseable {

    /** What keeping active tells: for the log, which this module does not write itself. */
    public interface Listener {

        /** @param status the status once active again, with its new epoch */
        void activated(Lifecycle.Status status);

        /**
         * @param why why the lock was not taken; told once until it is taken again
         */
        void refused(String why);
    }

    private final ControllerLifecycle lifecycle;
    private final Events events;
    private final Listener listener;
    private final ScheduledExecutorService thread;
    /** Whether the last look failed; only the looks' thread reads and writes it. */
    private boolean refusing;

    private KeepActive(ControllerLifecycle lifecycle, Events events, Listener listener,
            ScheduledExecutorService thread) {
        this.lifecycle = lifecycle;
        this.events = events;
        this.listener = listener;
        this.thread = thread;
    }

    /**
     * Makes the controller active now, then keeps it so.
     *
     * @param lifecycle the controller's life cycle, a standby
     * @param events where each taking's {@code handover} event goes
     * @param every how often to look
     * @param listener told of each activation after the first, and of refusals
     * @return the running keeper; {@link #status()} is active
     * @throws dev.mesh.controller.core.VerbException {@code unavailable}, saying why, when the lock cannot be taken
     *     now: nothing keeps running then
     * @throws IllegalArgumentException when {@code every} is not positive
     */
    public static KeepActive start(ControllerLifecycle lifecycle, Events events, Duration every, Listener listener) {
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(listener, "listener");
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("a controller alone is kept active every positive interval, not "
                    + every);
        }
        lifecycle.activate(events).orThrow();
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("mesh-controller-active").daemon().factory());
        KeepActive keeper = new KeepActive(lifecycle, events, listener, thread);
        thread.scheduleWithFixedDelay(keeper::look, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return keeper;
    }

    /** @return the controller's status */
    public Lifecycle.Status status() {
        return lifecycle.status();
    }

    /** One look: what the thread does every interval. */
    void look() {
        PlanLock.Attempt attempt;
        try {
            if (lifecycle.verify().role() != Role.STANDBY) {
                return;
            }
            attempt = lifecycle.activate(events);
        } catch (RuntimeException e) {
            attempt = new PlanLock.Unreachable(String.valueOf(e.getMessage()));
        }
        switch (attempt) {
            case PlanLock.Taken taken -> {
                refusing = false;
                listener.activated(lifecycle.status());
            }
            case PlanLock.Busy busy -> refused(busy.why());
            case PlanLock.Unreachable unreachable -> refused(unreachable.why());
        }
    }

    private void refused(String why) {
        if (!refusing) {
            refusing = true;
            listener.refused(why);
        }
    }

    /** Stops keeping the controller active; the lock is left as it is. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
