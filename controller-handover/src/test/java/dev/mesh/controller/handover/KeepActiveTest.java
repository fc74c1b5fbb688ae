package dev.mesh.controller.handover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeepActiveTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC);
    /** Long enough that the keeper's own thread never looks during a test: the test looks itself. */
    private static final Duration NEVER = Duration.ofHours(1);

    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final LocalPlanLock lock = LocalPlanLock.sharing(leadership, "dev:1", CLOCK);
    private final ControllerLifecycle lifecycle = ControllerLifecycle.standby(lock, "dev:1", CLOCK);
    private final MemoryEvents events = new MemoryEvents();
    private final List<String> told = new ArrayList<>();
    private final KeepActive.Listener listener = new KeepActive.Listener() {
        @Override
        public void activated(Lifecycle.Status status) {
            told.add("activated " + status.epoch());
        }

        @Override
        public void refused(String why) {
            told.add("refused");
        }
    };
    private KeepActive keeper;

    @AfterEach
    void stop() {
        if (keeper != null) {
            keeper.close();
        }
    }

    @Test
    void start_isActiveAtOnce_withAHandoverEvent() {
        keeper = KeepActive.start(lifecycle, events, NEVER, listener);

        assertThat(keeper.status().role()).isEqualTo(Role.ACTIVE);
        assertThat(keeper.status().epoch()).isEqualTo(1);
        assertThat(events.events()).extracting(MemoryEvents.Event::kind).containsExactly(Lifecycle.HANDOVER);
        assertThat(told).as("the first activation is the start's, not told").isEmpty();
    }

    @Test
    void start_theLockHeldElsewhere_isUnavailable_andLeavesAStandby() {
        PlanLock other = LocalPlanLock.sharing(leadership, "other:2", CLOCK);
        other.acquire();

        assertThatThrownBy(() -> KeepActive.start(lifecycle, events, NEVER, listener))
                .isInstanceOf(VerbException.class).hasMessageContaining("other:2");
        assertThat(lifecycle.status().role()).isEqualTo(Role.STANDBY);
    }

    @Test
    void look_aLostLock_isTakenAgainWithANewEpoch_andARefusalIsToldOnceUntilItIsTaken() {
        keeper = KeepActive.start(lifecycle, events, NEVER, listener);
        keeper.look();
        assertThat(told).as("still active: nothing to do").isEmpty();

        lock.lose();
        PlanLock other = LocalPlanLock.sharing(leadership, "other:2", CLOCK);
        other.acquire();
        keeper.look();
        keeper.look();
        assertThat(told).as("lost, and held elsewhere: told once").containsExactly("refused");
        assertThat(lifecycle.status().role()).isEqualTo(Role.STANDBY);

        other.release();
        keeper.look();
        assertThat(told).containsExactly("refused", "activated 3");
        assertThat(lifecycle.status().role()).isEqualTo(Role.ACTIVE);
        assertThat(events.events()).hasSize(2);
    }
}
