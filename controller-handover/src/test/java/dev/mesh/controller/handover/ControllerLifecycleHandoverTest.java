package dev.mesh.controller.handover;

import static dev.mesh.controller.handover.Activations.taken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link ControllerLifecycle#activate(Events)}: every activation that takes the lock publishes one
 * {@code handover} event, and {@code status} names the controller it took over from, after a planned
 * release and after a crash alike.
 */
class ControllerLifecycleHandoverTest {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private final Hands clock = new Hands(START);
    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final LocalPlanLock lockA = LocalPlanLock.sharing(leadership, "ctl-a", clock);
    private final LocalPlanLock lockB = LocalPlanLock.sharing(leadership, "ctl-b", clock);
    private final ControllerLifecycle a = ControllerLifecycle.standby(lockA, "ctl-a", clock);
    private final ControllerLifecycle b = ControllerLifecycle.standby(lockB, "ctl-b", clock);
    private final MemoryEvents events = new MemoryEvents();

    @Test
    void activate_first_publishesAHandoverFromNoOne_withoutAGap() {
        Lifecycle.Status status = taken(a, events);

        assertThat(status.previous()).isEmpty();
        assertThat(events.events()).singleElement().satisfies(event -> {
            assertThat(event.kind()).isEqualTo("handover");
            assertThat(event.payload()).containsExactly(entry("from", ""), entry("to", "ctl-a"),
                    entry("epochOld", 0L), entry("epochNew", 1L), entry("gapMs", null), entry("how", "first"));
        });
    }

    @Test
    void activate_whenAlreadyActive_publishesNothing() {
        taken(a, events);
        taken(a, events);
        taken(a);

        assertThat(events.events()).hasSize(1);
    }

    @Test
    void activate_afterAPlannedRelease_namesThePreviousAndTheGapSinceTheRelease() {
        taken(a, events);
        clock.advance(Duration.ofSeconds(5));
        a.release();
        clock.advance(Duration.ofMillis(37));

        Lifecycle.Status status = taken(b, events);

        assertThat(status.previous()).isEqualTo("ctl-a");
        assertThat(status.epoch()).isEqualTo(2);
        assertThat(status.since()).isEqualTo(START.plusMillis(5037));
        assertThat(events.events().getLast().payload()).containsExactly(entry("from", "ctl-a"), entry("to", "ctl-b"),
                entry("epochOld", 1L), entry("epochNew", 2L), entry("gapMs", 37L), entry("how", "planned"));
    }

    @Test
    void activate_afterACrash_namesThePrevious_andTheGapSinceItWasLastSeen() {
        taken(a, events);
        clock.advance(Duration.ofSeconds(3));
        a.verify();
        clock.advance(Duration.ofMillis(800));
        lockA.lose();

        Lifecycle.Status status = taken(b, events);

        assertThat(status.previous()).isEqualTo("ctl-a");
        assertThat(status.active()).isEqualTo("ctl-b");
        assertThat(events.events().getLast().payload()).containsExactly(entry("from", "ctl-a"), entry("to", "ctl-b"),
                entry("epochOld", 1L), entry("epochNew", 2L), entry("gapMs", 800L), entry("how", "crash"));
        assertThat(a.verify().role()).as("the one that lost it finds out").isEqualTo(Role.STANDBY);
        assertThat(a.status().previous()).isEmpty();
    }

    @Test
    void activate_again_afterItsOwnLockWasLost_isACrashTakeoverFromItself() {
        taken(a, events);
        lockA.lose();
        a.verify();
        clock.advance(Duration.ofMillis(250));

        Lifecycle.Status status = taken(a, events);

        assertThat(status.previous()).isEqualTo("ctl-a");
        assertThat(events.events().getLast().payload()).contains(entry("how", "crash"), entry("gapMs", 250L),
                entry("epochNew", 2L));
    }
}
