package dev.mesh.controller.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves. Thread-safe: the instant is volatile. */
public final class Hands extends Clock {

    private volatile Instant now;

    /** @param now where the hands stand */
    public Hands(Instant now) {
        this.now = now;
    }

    /** @param duration how far to move the hands forward */
    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    /** @param instant where to set the hands */
    public void set(Instant instant) {
        now = instant;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the controller reads instants only");
    }

    @Override
    public Instant instant() {
        return now;
    }
}
