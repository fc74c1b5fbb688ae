package dev.mesh.controller.handover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class HandoverSettingsTest {

    private static final UnaryOperator<String> AS_IS = UnaryOperator.identity();

    @Test
    void defaults_holdTogether_andAreTheMeasuredOnes() {
        HandoverSettings defaults = HandoverSettings.DEFAULTS;

        assertThat(defaults.problems(AS_IS)).isEmpty();
        assertThat(defaults.starvedAfter()).isEqualTo(Duration.ofMillis(750));
        assertThat(defaults.lease()).isEqualTo(Duration.ofSeconds(3));
        assertThat(defaults.heartbeat()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void with_readsMillisecondsSecondsAndACount_andChangesOnlyThatOne() {
        HandoverSettings changed = HandoverSettings.DEFAULTS.with("ready-wait", "2500ms").with("lease", "7s")
                .with("starved-after-ticks", "5");

        assertThat(changed.readyWait()).isEqualTo(Duration.ofMillis(2_500));
        assertThat(changed.lease()).isEqualTo(Duration.ofSeconds(7));
        assertThat(changed.starvedAfterTicks()).isEqualTo(5);
        assertThat(changed.with("ready-wait", "1500ms").with("lease", "3s").with("starved-after-ticks", "3"))
                .isEqualTo(HandoverSettings.DEFAULTS);
    }

    @Test
    void with_anUnknownName_orAValueOfNoForm_saysWhichForms() {
        assertThatThrownBy(() -> HandoverSettings.DEFAULTS.with("lease", "3 s"))
                .hasMessage("'3 s' is not a duration; give milliseconds or seconds, e.g. 250ms or 3s");
        assertThatThrownBy(() -> HandoverSettings.DEFAULTS.with("lease", "1.5s"))
                .hasMessageStartingWith("'1.5s' is not a duration");
        assertThatThrownBy(() -> HandoverSettings.DEFAULTS.with("starved-after-ticks", "3s"))
                .hasMessage("'3s' is not a count of ticks; give a whole number, e.g. 3");
        assertThatThrownBy(() -> HandoverSettings.DEFAULTS.with("leases", "3s"))
                .hasMessageStartingWith("no handover setting is named 'leases'; they are settle, lease,");
    }

    @Test
    void problems_leaseOfExactlyTwoRenewals_isOne_andJustOverIsNone() {
        HandoverSettings two = HandoverSettings.DEFAULTS.with("lease", "2s");
        HandoverSettings over = HandoverSettings.DEFAULTS.with("lease", "2001ms");

        assertThat(two.problems(AS_IS)).singleElement().asString()
                .startsWith("lease (2s) must be more than twice lease-renewal (1s)");
        assertThat(over.problems(AS_IS)).isEmpty();
    }

    @Test
    void problems_aZeroInterval_isNamedAlone_withAnExample() {
        HandoverSettings zero = HandoverSettings.DEFAULTS.with("tick", "0ms").with("settle", "0s");

        assertThat(zero.problems(name -> "MESH_" + name)).containsExactly("MESH_tick (0s) must be more than 0; e.g. 250ms");
    }

    @Test
    void problems_aHeartbeatNotInWholeSeconds_isRefused() {
        assertThat(HandoverSettings.DEFAULTS.with("heartbeat", "1500ms").problems(AS_IS)).singleElement().asString()
                .isEqualTo("heartbeat (1500ms) must be whole seconds, AMQP's unit; e.g. 1s");
    }

    @Test
    void checked_throwsEveryProblem_oneLineEach() {
        HandoverSettings bad = HandoverSettings.DEFAULTS.with("starved-after-ticks", "1").with("heartbeat", "4s");

        assertThatThrownBy(() -> bad.checked(AS_IS)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(2));
        assertThat(HandoverSettings.DEFAULTS.checked(AS_IS)).isSameAs(HandoverSettings.DEFAULTS);
    }
}
