package dev.mesh.controller.core.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RepeatedFailuresTest {

    /** A clock the test moves. */
    private static final class Moving extends Clock {
        Instant now = Instant.parse("2026-12-03T10:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }
    }

    private final Moving clock = new Moving();
    private final RepeatedFailures failures = new RepeatedFailures(clock);

    @Test
    void firstFailureTold_thenOncePerMinuteWithTheCountMeanwhile() {
        assertThat(failures.failed("n1")).contains(new RepeatedFailures.Line("n1", 1));
        for (int i = 0; i < 119; i++) { // two a second for the rest of the minute
            clock.advance(Duration.ofMillis(500));
            assertThat(failures.failed("n1")).as("failure %d", i).isEmpty();
        }
        clock.advance(Duration.ofMillis(500));
        assertThat(failures.failed("n1")).as("a minute after the first line, the 120 since")
                .contains(new RepeatedFailures.Line("n1", 120));
    }

    @Test
    void eachThingHasItsOwnMinute() {
        assertThat(failures.failed("n1")).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(failures.failed("b-7")).as("another thing is told at once").isPresent();
        assertThat(failures.failed("n1")).isEmpty();
    }

    @Test
    void aThingThatStoppedFailing_isToldAtOnceNextTime_withTheFailuresNotToldYet() {
        assertThat(failures.failed("n1")).isPresent();
        clock.advance(Duration.ofSeconds(10));
        assertThat(failures.failed("n1")).isEmpty();
        clock.advance(Duration.ofSeconds(61));
        assertThat(failures.failed("n1")).as("this one and the one at 10 s")
                .contains(new RepeatedFailures.Line("n1", 2));
        clock.advance(Duration.ofMinutes(5));
        assertThat(failures.failed("n1")).contains(new RepeatedFailures.Line("n1", 1));
    }
}
