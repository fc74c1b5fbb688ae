package dev.mesh.controller.bus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Says whether a kind of event is to be logged: the first time, then once per minute. Thread-safe. */
final class OncePerMinute {

    private static final Duration PERIOD = Duration.ofMinutes(1);

    private final Clock clock;
    private final ConcurrentMap<String, Instant> last = new ConcurrentHashMap<>();

    OncePerMinute(Clock clock) {
        this.clock = clock;
    }

    /**
     * @param kind the kind of event
     * @return {@code true} when no event of that kind was logged in the last minute (and it is now)
     */
    boolean due(String kind) {
        Instant now = clock.instant();
        boolean[] due = {false};
        last.compute(kind, (k, before) -> {
            due[0] = before == null || !now.isBefore(before.plus(PERIOD));
            return due[0] ? now : before;
        });
        return due[0];
    }
}
