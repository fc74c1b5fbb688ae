package dev.mesh.controller.handover;

import dev.mesh.controller.core.FeedPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The handover's rule for whether the broker feeds this controller (docs/bus.md, "Which controller the broker
 * feeds"): fed at the first delivery; starved when nothing arrived for {@link HandoverSettings#starvedAfter()}
 * while no delivery was being handled (a verb that takes long keeps it fed); renewed, while not fed, every
 * {@link #RENEW_AFTER_TICKS} tick periods without a delivery. Pure: its time is the clock it is given, so
 * that every rule is tested without waiting.
 *
 * <p>Not thread-safe, as {@link FeedPolicy} allows: its transport calls it under a lock of its own.
 */
public final class FeedRule implements FeedPolicy {

    /**
     * How many tick periods a consumer the broker does not feed waits before it consumes again on a new channel,
     * and again every as many while nothing arrives. A standby does so all the time, which costs a channel every
     * few seconds and moves it in the line of waiting consumers, nothing more; it is what mends a queue deleted
     * and declared again at once, which RabbitMQ 3.10 does not tell its consumers (docs/bus.md, "The verbs over
     * the broker").
     */
    static final int RENEW_AFTER_TICKS = 20;

    private final LongSupplier millis;
    private final Duration tick;
    private final long starvedAfterMs;
    private final long renewAfterMs;
    private boolean fed;
    private boolean closed;
    private int handling;
    private long lastSeen;
    private long fedSince;
    /** When {@link #renewDue} last said yes, or when the rule began. */
    private long renewedAt;

    private FeedRule(LongSupplier millis, Duration tick, int starvedAfterTicks) {
        this.millis = millis;
        this.tick = tick;
        this.starvedAfterMs = tick.toMillis() * starvedAfterTicks;
        this.renewAfterMs = tick.toMillis() * RENEW_AFTER_TICKS;
        this.renewedAt = millis.getAsLong();
        this.lastSeen = renewedAt;
    }

    /**
     * @param settings the tick period and after how many of them a fed controller is starved; checked already
     *     ({@link HandoverSettings#checked})
     * @param millis the clock, in milliseconds
     * @return a rule for one transport, not fed
     */
    public static FeedRule of(HandoverSettings settings, LongSupplier millis) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(millis, "millis");
        if (settings.tick().toMillis() < 1 || settings.starvedAfterTicks() < 1) {
            throw new IllegalArgumentException("the tick period must be 1 ms or more and a consumer starved after "
                    + "1 tick period or more, not " + settings.tick() + " and " + settings.starvedAfterTicks());
        }
        return new FeedRule(millis, settings.tick(), settings.starvedAfterTicks());
    }

    /**
     * @param settings as {@link #of(HandoverSettings, LongSupplier)}
     * @return a rule on the system's clock
     */
    public static FeedRule of(HandoverSettings settings) {
        return of(settings, System::currentTimeMillis);
    }

    @Override
    public Duration tick() {
        return tick;
    }

    @Override
    public boolean arrived() {
        handling++;
        lastSeen = millis.getAsLong();
        if (fed || closed) {
            return false;
        }
        fed = true;
        fedSince = lastSeen;
        return true;
    }

    @Override
    public void handled() {
        handling--;
        lastSeen = millis.getAsLong();
    }

    @Override
    public Look look() {
        if (!fed) {
            return Look.NOT_FED;
        }
        if (handling == 0 && quietMs() > starvedAfterMs) {
            fed = false;
            return Look.STARVED;
        }
        return Look.STILL_FED;
    }

    @Override
    public boolean renewDue() {
        long now = millis.getAsLong();
        if (fed || closed || handling > 0 || now - Math.max(lastSeen, renewedAt) < renewAfterMs) {
            return false;
        }
        renewedAt = now;
        return true;
    }

    @Override
    public Duration renewAfter() {
        return Duration.ofMillis(renewAfterMs);
    }

    @Override
    public boolean stopped() {
        boolean was = fed;
        fed = false;
        return was;
    }

    @Override
    public boolean closed() {
        closed = true;
        return stopped();
    }

    @Override
    public boolean fed() {
        return fed;
    }

    @Override
    public long quietMs() {
        return millis.getAsLong() - lastSeen;
    }

    @Override
    public long fedMs() {
        return millis.getAsLong() - fedSince;
    }
}
