package dev.mesh.controller.handover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.FeedPolicy.Look;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The feed's rule on a clock the test moves: nothing here waits. */
class FeedRuleTest {

    private static final long STARVED_AFTER_MS = HandoverSettings.DEFAULTS.starvedAfter().toMillis();
    private static final long RENEW_AFTER_MS = HandoverSettings.DEFAULTS.tick().toMillis() * FeedRule.RENEW_AFTER_TICKS;

    private final AtomicLong now = new AtomicLong(1_000);
    private final FeedRule rule = FeedRule.of(HandoverSettings.DEFAULTS, now::get);

    @Test
    void theDefaults_tickEvery250Ms_starveAfterThreeTicks_renewAfterTwenty() {
        assertThat(rule.tick()).isEqualTo(Duration.ofMillis(250));
        assertThat(STARVED_AFTER_MS).isEqualTo(750);
        assertThat(rule.renewAfter()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void fedAtTheFirstDelivery_starvedOnlyPastTheStarvedTicksWithNothingHandled() {
        assertThat(rule.look()).isEqualTo(Look.NOT_FED);
        assertThat(rule.arrived()).as("the first delivery feeds it").isTrue();
        assertThat(rule.arrived()).as("fed already").isFalse();
        rule.handled();
        rule.handled();
        now.addAndGet(STARVED_AFTER_MS);
        assertThat(rule.look()).as("not yet: exactly the starved ticks").isEqualTo(Look.STILL_FED);
        now.addAndGet(1);
        assertThat(rule.quietMs()).isEqualTo(STARVED_AFTER_MS + 1);
        assertThat(rule.look()).isEqualTo(Look.STARVED);
        assertThat(rule.fed()).isFalse();
        assertThat(rule.fedMs()).as("how long it was fed").isEqualTo(STARVED_AFTER_MS + 1);
        assertThat(rule.look()).as("starved is told once").isEqualTo(Look.NOT_FED);
        assertThat(rule.arrived()).as("fed again at the next delivery").isTrue();
        assertThat(rule.fedMs()).isZero();
    }

    @Test
    void aDeliveryBeingHandled_keepsItFed_howeverLongItTakes() {
        rule.arrived();
        now.addAndGet(10 * STARVED_AFTER_MS);
        assertThat(rule.look()).isEqualTo(Look.STILL_FED);
        rule.handled();
        assertThat(rule.look()).as("handled just now").isEqualTo(Look.STILL_FED);
        now.addAndGet(STARVED_AFTER_MS + 1);
        assertThat(rule.look()).isEqualTo(Look.STARVED);
    }

    @Test
    void renewDue_onlyWhenNotFedAndQuiet_thenEveryPeriodAfterTheLastRenewalOrDelivery() {
        assertThat(rule.renewDue()).as("just started").isFalse();
        now.addAndGet(RENEW_AFTER_MS);
        assertThat(rule.renewDue()).as("never fed, quiet for the period").isTrue();
        assertThat(rule.renewDue()).as("renewed just now").isFalse();
        now.addAndGet(RENEW_AFTER_MS - 1);
        assertThat(rule.renewDue()).isFalse();
        now.addAndGet(1);
        assertThat(rule.renewDue()).as("a period after the last renewal").isTrue();

        rule.arrived();
        now.addAndGet(60_000);
        assertThat(rule.renewDue()).as("fed, and a delivery being handled").isFalse();
        rule.handled();
        assertThat(rule.renewDue()).as("fed: the broker feeds it, nothing to mend").isFalse();
        now.addAndGet(STARVED_AFTER_MS + 1);
        assertThat(rule.look()).isEqualTo(Look.STARVED);
        assertThat(rule.renewDue()).as("starved, but the last delivery was less than a period ago").isFalse();
        now.addAndGet(RENEW_AFTER_MS);
        assertThat(rule.renewDue()).isTrue();
    }

    @Test
    void stopped_starvesOnce_andTheNextDeliveryFeedsAgain() {
        assertThat(rule.stopped()).as("not fed: nothing to tell").isFalse();
        rule.arrived();
        rule.handled();
        assertThat(rule.stopped()).isTrue();
        assertThat(rule.stopped()).isFalse();
        assertThat(rule.arrived()).isTrue();
    }

    @Test
    void closed_starvesOnce_andNothingFeedsItAgain() {
        rule.arrived();
        rule.handled();
        assertThat(rule.closed()).isTrue();
        assertThat(rule.closed()).isFalse();
        assertThat(rule.arrived()).isFalse();
        rule.handled();
        assertThat(rule.fed()).isFalse();
        now.addAndGet(RENEW_AFTER_MS * 2);
        assertThat(rule.renewDue()).as("closed: nothing to renew").isFalse();
    }

    @Test
    void theSettingsTimings_areTheRules() {
        FeedRule fast = FeedRule.of(HandoverSettings.DEFAULTS.with("tick", "10ms").with("starved-after-ticks", "2"),
                now::get);
        fast.arrived();
        fast.handled();
        now.addAndGet(21);
        assertThat(fast.look()).isEqualTo(Look.STARVED);
        assertThat(fast.renewAfter()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aTickUnderAMillisecond_isRefused() {
        assertThatThrownBy(() -> FeedRule.of(new HandoverSettings(Duration.ZERO, Duration.ofSeconds(3),
                Duration.ofSeconds(1), Duration.ZERO, Duration.ofMillis(100), Duration.ZERO, 3, Duration.ofSeconds(1),
                Duration.ofSeconds(1)), now::get)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tick period");
    }
}
