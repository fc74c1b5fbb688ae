package dev.mesh.controller.handover;

import static dev.mesh.controller.handover.Activations.taken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryConsumers;
import dev.mesh.controller.core.memory.MemoryEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two controllers on one leadership, their consumers played by the test. */
class HandoverTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T09:00:00Z"), ZoneOffset.UTC);
    private static final Duration SETTLE = Duration.ofSeconds(5);

    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final LocalPlanLock lockA = LocalPlanLock.sharing(leadership, "ctl-a:1", CLOCK);
    private final LocalPlanLock lockB = LocalPlanLock.sharing(leadership, "ctl-b:2", CLOCK);
    private final ControllerLifecycle lifecycleA = ControllerLifecycle.standby(lockA, "ctl-a:1", CLOCK);
    private final ControllerLifecycle lifecycleB = ControllerLifecycle.standby(lockB, "ctl-b:2", CLOCK);
    private final MemoryConsumers consumersA = new MemoryConsumers();
    private final MemoryConsumers consumersB = new MemoryConsumers();

    @Test
    void start_consumesAsAStandby_andPlansNothingUntilFed() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);

        assertThat(consumersA.consuming()).isTrue();
        assertThat(handover.status().role()).isEqualTo(Role.STANDBY);
        assertThat(lockA.tenure()).isEmpty();
    }

    @Test
    void fed_makesItActive_withTheLockAndANewEpoch_andFeedingAgainChangesNothing() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);

        consumersA.feed();
        Lifecycle.Status active = handover.status();
        consumersA.feed();

        assertThat(active.role()).isEqualTo(Role.ACTIVE);
        assertThat(active.epoch()).isEqualTo(1);
        assertThat(lockA.tenure()).isPresent();
        assertThat(handover.status()).isEqualTo(active);
    }

    @Test
    void fed_whileThePredecessorHoldsTheLock_staysStandby_andTakesOverAtTheFeedAfterItsRelease() {
        Handover first = Handover.start(lifecycleA, consumersA, SETTLE);
        Handover second = Handover.start(lifecycleB, consumersB, SETTLE);
        consumersA.feed();

        consumersB.feed();
        assertThat(second.status().role()).as("the lock is still held").isEqualTo(Role.STANDBY);
        first.stop();
        consumersB.feed();

        assertThat(second.status().role()).isEqualTo(Role.ACTIVE);
        assertThat(second.status().epoch()).isEqualTo(2);
        assertThat(second.status().previous()).isEqualTo("ctl-a:1");
    }

    @Test
    void eachTakingOfTheLock_publishesTheHandoverEvent_onceAndNotAgainWhileActive() {
        MemoryEvents events = new MemoryEvents();
        Handover first = Handover.start(lifecycleA, consumersA, SETTLE, events);
        Handover second = Handover.start(lifecycleB, consumersB, SETTLE, events);

        consumersA.feed();
        consumersA.feed();
        first.stop();
        consumersB.feed();

        assertThat(events.events()).extracting(MemoryEvents.Event::kind)
                .containsExactly(Lifecycle.HANDOVER, Lifecycle.HANDOVER);
        assertThat(events.events().get(0).payload()).containsEntry("to", "ctl-a:1").containsEntry("epochNew", 1L);
        assertThat(events.events().get(1).payload()).containsEntry("from", "ctl-a:1").containsEntry("to", "ctl-b:2")
                .containsEntry("epochOld", 1L).containsEntry("epochNew", 2L).containsEntry("how", "planned");
        assertThat(second.status().role()).isEqualTo(Role.ACTIVE);
    }

    @Test
    void stop_releasesInOrder_planWorkStopped_handedOver_settled_thenTheLockReleased() {
        List<String> steps = new ArrayList<>();
        Consumers recording = new Consumers() {
            @Override
            public void start(Listener listener) {
                consumersA.start(listener);
            }

            @Override
            public void handOver() {
                steps.add("handOver role=" + lifecycleA.status().role().label() + " locked=" + lockA.tenure().isPresent());
                consumersA.handOver();
            }

            @Override
            public void rejoin() {
                steps.add("rejoin");
                consumersA.rejoin();
            }

            @Override
            public boolean settled(Duration wait) {
                steps.add("settled role=" + lifecycleA.status().role().label() + " locked=" + lockA.tenure().isPresent());
                return consumersA.settled(wait);
            }
        };
        Handover handover = Handover.start(lifecycleA, recording, SETTLE);
        consumersA.feed();

        assertThat(handover.stop()).isTrue();

        assertThat(steps).containsExactly("handOver role=releasing locked=true", "settled role=releasing locked=true");
        assertThat(handover.stopped()).isTrue();
        assertThat(handover.status().role()).isEqualTo(Role.STOPPED);
        assertThat(lockA.tenure()).isEmpty();
        assertThatThrownBy(() -> lifecycleA.whileActive(() -> "plan work")).isInstanceOf(VerbException.class);
    }

    @Test
    void stop_whenDeliveriesAreStillHeld_saysSo_andReleasesTheLockAnyway() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);
        consumersA.feed();
        consumersA.hold(2);

        assertThat(handover.stop()).isFalse();

        assertThat(lockA.tenure()).isEmpty();
        assertThat(consumersA.consuming()).isFalse();
    }

    @Test
    void stop_ofAStandby_handsItsConsumersOver_andFeedsAfterDoNothing() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);

        assertThat(handover.stop()).isTrue();
        consumersA.rejoin();
        consumersA.feed();

        assertThat(consumersA.handOvers()).isEqualTo(1);
        assertThat(handover.status().role()).as("stopped for good: no feed activates it").isEqualTo(Role.STOPPED);
        assertThat(handover.stop()).as("the second time").isTrue();
    }

    @Test
    void lockLost_foundByPlanWork_makesTheNextFeedHandTheConsumersOver_andRejoin() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);
        consumersA.feed();
        lockA.lose();
        assertThatThrownBy(() -> lifecycleA.whileActive(() -> "plan work")).isInstanceOf(VerbException.class);

        consumersA.feed();

        assertThat(consumersA.handOvers()).isEqualTo(1);
        assertThat(consumersA.consuming()).as("rejoined as a standby").isTrue();
        assertThat(handover.status().role()).isEqualTo(Role.STANDBY);
        consumersA.feed();
        assertThat(handover.status().role()).as("fed again: active with a new epoch").isEqualTo(Role.ACTIVE);
        assertThat(handover.status().epoch()).isEqualTo(2);
    }

    @Test
    void starved_withTheLockLost_becomesStandby_andHandsOver() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);
        consumersA.feed();
        lockA.lose();

        consumersA.starve();

        assertThat(handover.status().role()).isEqualTo(Role.STANDBY);
        assertThat(consumersA.handOvers()).isEqualTo(1);
        assertThat(consumersA.consuming()).isTrue();
    }

    @Test
    void starved_stillHoldingTheLock_letsGo_soThatTheSuccessorCanTakeOver() {
        Handover first = Handover.start(lifecycleA, consumersA, SETTLE);
        Handover second = Handover.start(lifecycleB, consumersB, SETTLE);
        consumersA.feed();
        consumersB.feed();

        consumersA.starve();
        consumersB.feed();

        assertThat(first.status().role()).isEqualTo(Role.STANDBY);
        assertThat(lockA.tenure()).isEmpty();
        assertThat(consumersA.consuming()).as("rejoined as a standby").isTrue();
        assertThat(second.status().role()).isEqualTo(Role.ACTIVE);
        assertThat(first.stopped()).isFalse();
    }

    @Test
    void starved_whileStandby_changesNothing() {
        Handover handover = Handover.start(lifecycleA, consumersA, SETTLE);

        consumersA.starve();

        assertThat(handover.status().role()).isEqualTo(Role.STANDBY);
        assertThat(consumersA.handOvers()).isZero();
    }

    @Test
    void start_refusesAnActiveLifecycle_andANegativeSettle() {
        taken(lifecycleA);

        assertThatThrownBy(() -> Handover.start(lifecycleA, consumersA, SETTLE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the handover starts a standby; ctl-a:1 is active");
        assertThatThrownBy(() -> Handover.start(lifecycleB, consumersB, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the time a release waits for its deliveries to be acknowledged must be 0 or more, "
                        + "not PT-1S");
    }

    @Test
    void starved_stillHoldingTheLock_letsGoInTheReleasesOrder_thenRejoins() {
        List<String> steps = new ArrayList<>();
        Handover handover = Handover.start(lifecycleA, recording(steps), SETTLE);
        consumersA.feed();

        consumersA.starve();

        assertThat(steps).as("handed over and settled under the lock, as a planned release; then rejoined")
                .containsExactly("handOver role=releasing locked=true", "settled role=releasing locked=true",
                        "handOver role=standby locked=false", "rejoin");
        assertThat(handover.status().role()).isEqualTo(Role.STANDBY);
        assertThat(consumersA.consuming()).isTrue();
    }

    /** Consumers A, recording each step the handover takes, with the role and whether lock A is held then. */
    private Consumers recording(List<String> steps) {
        return new Consumers() {
            @Override
            public void start(Listener listener) {
                consumersA.start(listener);
            }

            @Override
            public void handOver() {
                steps.add("handOver role=" + lifecycleA.status().role().label() + " locked=" + lockA.tenure().isPresent());
                consumersA.handOver();
            }

            @Override
            public void rejoin() {
                steps.add("rejoin");
                consumersA.rejoin();
            }

            @Override
            public boolean settled(Duration wait) {
                steps.add("settled role=" + lifecycleA.status().role().label() + " locked=" + lockA.tenure().isPresent());
                return consumersA.settled(wait);
            }
        };
    }
}
