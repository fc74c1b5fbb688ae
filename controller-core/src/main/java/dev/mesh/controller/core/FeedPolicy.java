package dev.mesh.controller.core;

import java.time.Duration;

/**
 * Whether the broker feeds this controller, decided from what its verbs' transport sees (docs/bus.md,
 * "Which controller the broker feeds"). RabbitMQ 3.10 does not tell a single active consumer that it became
 * the active one: every controller publishes a tick to the verbs' queue every {@link #tick()}, only the
 * consumer the broker feeds receives ticks and verbs, and the transport tells this policy each delivery's
 * arrival and end and looks at it at every tick. The policy decides what that means (the handover's
 * {@code FeedRule} in controller-handover); the transport keeps the AMQP, the ticks and the order in which the
 * handover is told.
 *
 * <p>One policy serves one transport, which calls it under a lock of its own: an implementation need not be
 * thread-safe.
 */
public interface FeedPolicy {

    /** What a {@link #look()} at the feed found. */
    enum Look {
        /** Fed, as at the last look: the listener is told it is still fed. */
        STILL_FED,
        /** No longer fed: nothing arrived for too long while nothing was being handled. */
        STARVED,
        /** Not fed, as at the last look. */
        NOT_FED
    }

    /** @return how often the transport publishes its tick and looks at the feed */
    Duration tick();

    /**
     * A delivery (a tick or a verb) arrived, and is being handled from now.
     *
     * @return whether this made the consumer fed: it was not before
     */
    boolean arrived();

    /** A delivery that {@link #arrived()} is handled. */
    void handled();

    /** @return what the feed is at this tick: fed still, starved now, or not fed */
    Look look();

    /**
     * Whether a consumer that is not fed should consume again on a new channel now (its subscription renewed,
     * which mends what the broker does not tell: docs/bus.md, "The verbs over the broker").
     *
     * @return yes at most once per renewal period, and only while not fed and nothing is being handled
     */
    boolean renewDue();

    /** @return how long a consumer the broker does not feed waits before it consumes again on a new channel */
    Duration renewAfter();

    /**
     * The transport stopped consuming on purpose: what arrives next makes it fed again.
     *
     * @return whether it was fed, and is starved now
     */
    boolean stopped();

    /**
     * The transport is closing: nothing makes it fed again.
     *
     * @return whether it was fed, and is starved now
     */
    boolean closed();

    /** @return whether the broker is believed to feed this consumer now */
    boolean fed();

    /** @return how long nothing has arrived, in milliseconds: what a starved consumer's log line says */
    long quietMs();

    /** @return milliseconds since it last became fed: how long it was fed, when it was just starved */
    long fedMs();
}
