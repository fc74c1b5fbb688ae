package dev.mesh.controller.handover;

import static dev.mesh.controller.handover.Activations.taken;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.memory.LocalPlanLock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link Lifecycle#lastTaking()}: what status and the metrics tell of the last time the lock was taken. */
class ControllerLifecycleTakingTest {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private final Hands clock = new Hands(START);
    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final ControllerLifecycle a = ControllerLifecycle.standby(LocalPlanLock.sharing(leadership, "ctl-a", clock), "ctl-a", clock);
    private final ControllerLifecycle b = ControllerLifecycle.standby(LocalPlanLock.sharing(leadership, "ctl-b", clock), "ctl-b", clock);

    @Test
    void lastTaking_beforeAnyActivation_isEmpty() {
        assertThat(a.lastTaking()).isEmpty();
    }

    @Test
    void lastTaking_afterAPlannedHandover_hasTheTenureWithItsGap_andTheWait() {
        taken(a);
        clock.advance(Duration.ofSeconds(1));
        a.release();
        clock.advance(Duration.ofMillis(40));

        taken(b);

        assertThat(b.lastTaking()).hasValueSatisfying(taking -> {
            assertThat(taking.tenure().epoch()).isEqualTo(2);
            assertThat(taking.tenure().takeover().label()).isEqualTo("planned");
            assertThat(taking.tenure().gap()).hasValue(Duration.ofMillis(40));
            assertThat(taking.waited()).isEqualTo(Duration.ZERO);
        });
    }

    @Test
    void lastTaking_afterLettingGo_isKept() {
        taken(a);
        a.release();

        assertThat(a.lastTaking()).hasValueSatisfying(taking -> assertThat(taking.tenure().epoch()).isEqualTo(1));
    }
}
