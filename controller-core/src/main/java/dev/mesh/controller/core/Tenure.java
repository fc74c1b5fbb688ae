package dev.mesh.controller.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One holding of the plan lock, from {@link PlanLock#acquire()} to its release or loss, and how it was
 * taken from the holding before (docs/design.md section 10: what {@code status} and the {@code handover}
 * event tell).
 *
 * @param epoch the fencing epoch taken, greater than every earlier one
 * @param since when it was taken
 * @param holder who holds it (this controller's instance)
 * @param previous who held the lock before, as the store recorded it; {@code ""} for none
 * @param previousEpoch the epoch the one before held, less than {@code epoch}; 0 for none
 * @param takeover how the one before let go
 */
public record Tenure(long epoch, Instant since, String holder, String previous, long previousEpoch,
        Takeover takeover) {

    /** How the lock passed to this holding: the variants are records, for {@code switch} patterns. */
    public sealed interface Takeover {

        /** @return {@code first}, {@code planned} or {@code crash}, as the store and the event name it */
        String label();
    }

    /** No one held the lock before. */
    public record First() implements Takeover {
        @Override
        public String label() {
            return "first";
        }
    }

    /**
     * The one before released the lock.
     *
     * @param released when it let go
     */
    public record Planned(Instant released) implements Takeover {
        /** Checks the part. */
        public Planned {
            Objects.requireNonNull(released, "released");
        }

        @Override
        public String label() {
            return "planned";
        }
    }

    /**
     * The one before lost the lock without releasing it: it crashed, froze or was cut off, and its
     * session ended.
     *
     * @param lastSeen the last time it was known to hold the lock (at the latest, when it took it)
     */
    public record Crash(Instant lastSeen) implements Takeover {
        /** Checks the part. */
        public Crash {
            Objects.requireNonNull(lastSeen, "lastSeen");
        }

        @Override
        public String label() {
            return "crash";
        }
    }

    /** Checks the parts. */
    public Tenure {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(takeover, "takeover");
        if (epoch < 1) {
            throw new IllegalArgumentException("an epoch taken is at least 1, not " + epoch);
        }
        if (previousEpoch < 0 || previousEpoch >= epoch) {
            throw new IllegalArgumentException("the epoch before " + epoch + " is between 0 and " + (epoch - 1)
                    + ", not " + previousEpoch);
        }
        if ((takeover instanceof First) != (previousEpoch == 0)) {
            throw new IllegalArgumentException("a first tenure has no epoch before it, and only it: " + takeover
                    + " after epoch " + previousEpoch);
        }
    }

    /**
     * How long no one held the lock: from the release to this taking after a planned release, from the
     * last time the one before was seen after a crash (so at most that long). Never negative.
     *
     * @return the gap; empty for the first tenure
     */
    public Optional<Duration> gap() {
        Instant before = switch (takeover) {
            case First first -> null;
            case Planned planned -> planned.released();
            case Crash crash -> crash.lastSeen();
        };
        if (before == null) {
            return Optional.empty();
        }
        Duration gap = Duration.between(before, since);
        return Optional.of(gap.isNegative() ? Duration.ZERO : gap);
    }
}
