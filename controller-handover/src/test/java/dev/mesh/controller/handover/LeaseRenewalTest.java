package dev.mesh.controller.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.memory.LocalPlanLock;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseRenewalTest {

    private final Clock clock = Clock.systemUTC();
    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final LocalPlanLock lock = LocalPlanLock.sharing(leadership, "ctl-a:1", clock);
    private final ControllerLifecycle lifecycle = ControllerLifecycle.standby(lock, "ctl-a:1", clock);
    private final List<RuntimeException> failed = new ArrayList<>();

    @Test
    void look_findsALostLock_andMakesTheActiveOneAStandby_rememberingTheLoss() {
        Activations.taken(lifecycle);
        try (LeaseRenewal renewal = LeaseRenewal.start(lifecycle, Duration.ofHours(1), failed::add)) {
            renewal.look();
            assertThat(lifecycle.status().role()).isEqualTo(Role.ACTIVE);

            lock.lose();
            renewal.look();

            assertThat(lifecycle.status().role()).isEqualTo(Role.STANDBY);
            assertThat(lifecycle.takeLoss()).as("the handover hands its consumers over").isTrue();
            assertThat(failed).isEmpty();
        }
    }

    @Test
    void look_onAStandby_namesTheHolderAsTheActiveOne() {
        PlanLock other = LocalPlanLock.sharing(leadership, "ctl-b:2", clock);
        other.acquire();
        try (LeaseRenewal renewal = LeaseRenewal.start(lifecycle, Duration.ofHours(1), failed::add)) {
            renewal.look();

            assertThat(lifecycle.status().active()).isEqualTo("ctl-b:2");
            assertThat(lifecycle.status().epoch()).isEqualTo(1);
        }
    }

    @Test
    void start_looksEveryInterval_onItsOwnThread() throws InterruptedException {
        PlanLock other = LocalPlanLock.sharing(leadership, "ctl-b:2", clock);
        other.acquire();
        LeaseRenewal renewal = LeaseRenewal.start(lifecycle, Duration.ofMillis(10), failed::add);
        try {
            var seen = lifecycle.awaitChange(lifecycle.status(), Duration.ofSeconds(5));

            assertThat(seen.active()).as("told by the renewal's first look").isEqualTo("ctl-b:2");
        } finally {
            renewal.close();
        }
    }
}
