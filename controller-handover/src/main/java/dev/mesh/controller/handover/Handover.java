package dev.mesh.controller.handover;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Moves one controller through the life cycle of docs/design.md section 10 from what its
 * {@link Consumers} tell, on its {@link ControllerLifecycle} (which holds the plan lock while active, and
 * whose role is the one truth of where this controller is):
 *
 * <ul>
 *   <li>fed while standby: becomes active — takes the lock and a new epoch; the executor then runs
 *       its first round under that epoch, which resumes the recorded plan. When the predecessor
 *       still holds the lock it stays a standby and tries again at the next feed;
 *   <li>fed while active, the lock found lost meanwhile (plan work through
 *       {@link Lifecycle#whileActive} or the {@link LeaseRenewal} found it): back to standby, the consumers handed over and
 *       rejoined, so that a peer with a working lock can take over;
 *   <li>starved while active: {@link ControllerLifecycle#verify() verifies} the lock; lost, as above; still
 *       held, this controller lets go as on {@link #stop()} and rejoins as a standby — the lock
 *       follows the consumer, and a controller the broker no longer feeds (it was frozen or cut off)
 *       must not keep the lock from its successor;
 *   <li>{@link #stop()} (SIGTERM): the planned release, in the order of docs/design.md section 10 — stop taking plan
 *       work, hand the consumers over (the next message goes to the standby), wait until what it
 *       holds is acknowledged, release the lock; then the life cycle is {@link Role#STOPPED}.
 * </ul>
 *
 * <p>Thread-safe: transitions are serialized. The consumers' signals never wait for a transition
 * under way (a release settling its deliveries): they are dropped, and the next tick tells again.
 * {@link #stop()} waits for a transition under way.
 */
public final class Handover {

    private final ControllerLifecycle lifecycle;
    private final Consumers consumers;
    private final Duration settle;
    private final Events events;
    private final ReentrantLock transitions = new ReentrantLock();

    private Handover(ControllerLifecycle lifecycle, Consumers consumers, Duration settle, Events events) {
        this.lifecycle = lifecycle;
        this.consumers = consumers;
        this.settle = settle;
        this.events = events;
    }

    /**
     * Starts the consumers, as a standby, as {@link #start(ControllerLifecycle, Consumers, Duration, Events)}
     * does, publishing the {@code handover} event nowhere.
     *
     * @param lifecycle this controller's life cycle, a standby
     * @param consumers this controller's consumers, not started
     * @param settle how long a release waits for what this controller holds to be acknowledged
     * @return the running handover
     * @throws IllegalArgumentException when {@code settle} is negative
     * @throws IllegalStateException when the life cycle is not a standby, or the consumers are started
     */
    public static Handover start(ControllerLifecycle lifecycle, Consumers consumers, Duration settle) {
        return start(lifecycle, consumers, settle, (kind, payload) -> { });
    }

    /**
     * Starts the consumers, as a standby: the first feed makes this controller active, so that every taking
     * of the lock publishes the {@code handover} event (docs/design.md section 8) on {@code events}.
     *
     * @param lifecycle this controller's life cycle, a standby
     * @param consumers this controller's consumers, not started
     * @param settle how long a release waits for what this controller holds to be acknowledged
     * @param events where each activation's {@code handover} event goes
     * @return the running handover
     * @throws IllegalArgumentException when {@code settle} is negative
     * @throws IllegalStateException when the life cycle is not a standby, or the consumers are started
     */
    public static Handover start(ControllerLifecycle lifecycle, Consumers consumers, Duration settle,
            Events events) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(consumers, "consumers");
        Objects.requireNonNull(settle, "settle");
        if (settle.isNegative()) {
            throw new IllegalArgumentException("the time a release waits for its deliveries to be acknowledged "
                    + "must be 0 or more, not " + settle);
        }
        Lifecycle.Status status = lifecycle.status();
        if (status.role() != Role.STANDBY) {
            throw new IllegalStateException("the handover starts a standby; " + status.instance() + " is "
                    + status.role().label());
        }
        Handover handover = new Handover(lifecycle, consumers, settle, events);
        consumers.start(handover.new Signals());
        return handover;
    }

    /**
     * The planned release (SIGTERM): stops taking plan work, hands the consumers over, waits at most
     * the settle time for what this controller holds to be acknowledged, releases the lock, and stops the
     * life cycle for good. A standby only hands its consumers over. Does nothing the second time.
     *
     * @return whether everything this controller held was acknowledged in time (what was not is
     *     redelivered to the successor when the connection closes)
     */
    public boolean stop() {
        transitions.lock();
        try {
            Role role = lifecycle.status().role();
            if (role == Role.STOPPED) {
                return true;
            }
            lifecycle.releasing();
            consumers.handOver();
            boolean settled = consumers.settled(settle);
            lifecycle.stop();
            return settled;
        } finally {
            transitions.unlock();
        }
    }

    /** @return whether {@link #stop()} was called */
    public boolean stopped() {
        return lifecycle.status().role() == Role.STOPPED;
    }

    /** @return the life cycle's status (role, epoch, since, peers); never blocks */
    public Lifecycle.Status status() {
        return lifecycle.status();
    }

    private void fed() {
        if (!transitions.tryLock()) {
            return; // a release is under way: what it does next does not depend on this feed
        }
        try {
            switch (lifecycle.status().role()) {
                case STANDBY -> {
                    if (lifecycle.takeLoss()) {
                        rejoin();
                    } else if (!(lifecycle.activate(events) instanceof PlanLock.Taken)) {
                        // The predecessor still holds the lock (or the store is out of reach): the broker
                        // keeps feeding this controller, and the next feed tries again.
                    }
                }
                case ACTIVE, RELEASING, STOPPED -> {
                }
            }
        } finally {
            transitions.unlock();
        }
    }

    private void starved() {
        if (!transitions.tryLock()) {
            return;
        }
        try {
            switch (lifecycle.status().role()) {
                case ACTIVE -> {
                    if (lifecycle.verify().role() == Role.ACTIVE) {
                        // Let go as a planned release does: no new plan work, the consumers handed over, what
                        // this controller holds settled under the lock, then the lock released.
                        lifecycle.releasing();
                        consumers.handOver();
                        consumers.settled(settle);
                        lifecycle.release();
                    }
                    lifecycle.takeLoss();
                    rejoin();
                }
                case STANDBY -> {
                    if (lifecycle.takeLoss()) {
                        rejoin();
                    }
                }
                case RELEASING, STOPPED -> {
                }
            }
        } finally {
            transitions.unlock();
        }
    }

    /**
     * Hands the consumers over and consumes again behind the other controllers: after a loss, so that a
     * peer with a working lock can take over; after letting go while starved, so that the broker decides.
     */
    private void rejoin() {
        consumers.handOver();
        consumers.rejoin();
    }

    /** What the consumers tell, kept off the handover's public surface. */
    private final class Signals implements Consumers.Listener {

        @Override
        public void fed() {
            Handover.this.fed();
        }

        @Override
        public void starved() {
            Handover.this.starved();
        }
    }
}
