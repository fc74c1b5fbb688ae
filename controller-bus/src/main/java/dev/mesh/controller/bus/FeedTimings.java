package dev.mesh.controller.bus;

import java.time.Duration;
import java.util.Objects;

/**
 * How the verbs' transport finds out whether the broker feeds it: a tick published every {@code tick}, and
 * starved after {@code starvedAfterTicks} tick periods without a delivery. The handover's settings give them
 * (controller-handover's {@code HandoverSettings}, which checks the rules between them and the lease); the bus
 * only runs them.
 *
 * @param tick how often a controller publishes a tick to the verbs' queue
 * @param starvedAfterTicks how many tick periods without a delivery make a fed consumer starved
 */
public record FeedTimings(Duration tick, int starvedAfterTicks) {

    /** A tick every 250 ms, starved after three of them: the timings the handover's figures were measured with. */
    public static final FeedTimings DEFAULT = new FeedTimings(Duration.ofMillis(250), 3);

    /** How many tick periods a consumer the broker does not feed waits before it consumes again on a new channel. */
    private static final int RENEW_AFTER_TICKS = 20;

    /** Checks the parts. */
    public FeedTimings {
        Objects.requireNonNull(tick, "tick");
        if (tick.toMillis() < 1) {
            throw new IllegalArgumentException("the tick period must be 1 ms or more, not " + tick);
        }
        if (starvedAfterTicks < 1) {
            throw new IllegalArgumentException("starved after 1 tick period or more, not " + starvedAfterTicks);
        }
    }

    /** @return the tick period in milliseconds */
    long tickMs() {
        return tick.toMillis();
    }

    /** @return how long without a delivery makes a fed consumer starved, in milliseconds */
    long starvedAfterMs() {
        return starvedAfterTicks * tick.toMillis();
    }

    /**
     * How long a consuming transport the broker does not feed waits, in milliseconds, before it consumes again on a
     * new channel (its subscription renewed), and again every as long while nothing arrives: twenty tick periods.
     * A standby does so all the time, which costs a channel every few seconds and moves it in the line of waiting
     * consumers, nothing more. It is what mends the queue deleted and declared again at once, which RabbitMQ 3.10
     * does not tell its consumers: every controller is starved then, each renews within this time, and the
     * channel whose consumer the broker orphaned is among them (docs/bus.md).
     *
     * @return the wait, in milliseconds
     */
    long renewAfterMs() {
        return RENEW_AFTER_TICKS * tick.toMillis();
    }
}
