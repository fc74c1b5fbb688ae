package dev.mesh.controller.core.execute;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Failures that repeat every round (a delivery refused {@code NO_ROUTE} twice a second while a node's queue is
 * missing, say), told in the log once per minute per thing that fails, with how often it failed meanwhile: the
 * first failure of a thing is told at once, the next one a minute after at the earliest, as {@code failures=N}
 * (counting the one told, and those untold since the last line). The metrics count every failure (an
 * {@link Executor.Listener} of their own). Thread-safe.
 */
public final class RepeatedFailures {

    /** At most this often a line per thing. */
    public static final Duration PERIOD = Duration.ofMinutes(1);

    private final Clock clock;
    private final Map<String, Stretch> stretches = new HashMap<>();

    /** @param clock when each failure happens */
    public RepeatedFailures(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** What to log for one thing: how many failures the line stands for, the one now included. */
    public record Line(String what, long failures) {
    }

    private static final class Stretch {
        Instant told;
        long untold;
    }

    /**
     * Counts a failure of {@code what}.
     *
     * @param what the thing that failed: a node, a build
     * @return the line to log now, if one is due
     */
    public synchronized Optional<Line> failed(String what) {
        Instant now = clock.instant();
        Stretch stretch = stretches.computeIfAbsent(what, w -> new Stretch());
        if (stretch.told != null && now.isBefore(stretch.told.plus(PERIOD))) {
            stretch.untold++;
            return Optional.empty();
        }
        long failures = stretch.untold + 1;
        stretch.told = now;
        stretch.untold = 0;
        if (stretches.size() > 10_000) { // things that failed once, long ago: nothing left to tell of them
            stretches.values().removeIf(s -> s.untold == 0 && !now.isBefore(s.told.plus(PERIOD)));
        }
        return Optional.of(new Line(what, failures));
    }
}
