package dev.mesh.controller.core;

import java.time.Duration;

/**
 * This controller's consumers on the controller's queues, as the handover sees them (docs/design.md
 * section 10). A port: the bus implements it on the broker's single-active consumer; the handover
 * drives the life cycle from what it tells. Every controller consumes; the broker feeds one of
 * them, and that one is to become active.
 *
 * <p>The broker (RabbitMQ 3.10) does not say that it made a consumer the active one until a message
 * arrives, so the bus finds out by ticks it publishes to its own queues: whenever a message or a
 * tick reaches this controller it calls {@link Listener#fed()}; when none arrived for a while
 * (longer than a few ticks) it calls {@link Listener#starved()}. The listener does not care which
 * it was, only that the broker is feeding this controller or has stopped.
 *
 * <p>Single-active-consumer is not exclusive in time: after {@link #handOver()} the broker feeds
 * the next consumer at once, while this one still holds its unacknowledged deliveries until it
 * acknowledges or gives them back ({@link #settled(Duration)} waits for that).
 *
 * <p>Implementations are thread-safe. They call the listener from one thread at a time, never from
 * a thread that a delivery this controller holds needs to be acknowledged (the listener may block
 * for a lock round trip, and {@link #handOver()}'s caller may wait in {@link #settled}).
 */
public interface Consumers {

    /** What the consumers tell. Called from one thread at a time; must not throw but for bugs. */
    interface Listener {

        /** A message or a tick reached this controller: the broker feeds it. Called again and again. */
        void fed();

        /** No message nor tick reached this controller for a while: the broker feeds another, or none. */
        void starved();
    }

    /**
     * Starts consuming the controller's queues and telling {@code listener}. Called once.
     *
     * @param listener told whether the broker feeds this controller
     * @throws IllegalStateException when already started
     */
    void start(Listener listener);

    /**
     * Cancels this controller's consumers, so that the next message goes to another controller.
     * What this controller holds stays with it until acknowledged or given back. Does nothing when
     * they are cancelled already.
     */
    void handOver();

    /**
     * Consumes again after {@link #handOver()}, as a standby: the broker feeds this controller only
     * after the consumers before it. Does nothing while consuming.
     */
    void rejoin();

    /**
     * Waits until every delivery this controller holds is acknowledged or given back.
     *
     * @param wait how long to wait at most
     * @return whether it holds nothing now
     */
    boolean settled(Duration wait);
}
