package dev.mesh.controller.handover;

import static dev.mesh.controller.handover.Activations.taken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.memory.LocalPlanLock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Lifecycle#awaitChange}: told of each transition, so that a caller waits for one without polling. */
class ControllerLifecycleChangesTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final Hands clock = new Hands(Instant.parse("2026-03-01T10:00:00Z"));
    private final ControllerLifecycle lifecycle = ControllerLifecycle.standby(LocalPlanLock.create(), "ctl-a", clock);

    @Test
    void awaitChange_ofAStatusAlreadyLeft_returnsTheCurrentOneAtOnce() throws InterruptedException {
        Lifecycle.Status standby = lifecycle.status();
        taken(lifecycle);

        assertThat(lifecycle.awaitChange(standby, LONG).role()).isEqualTo(Role.ACTIVE);
    }

    @Test
    void aWaiter_isWokenByTheActivation_longBeforeItsWaitEnds() throws Exception {
        Lifecycle.Status standby = lifecycle.status();
        CompletableFuture<Lifecycle.Status> woken = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                woken.complete(lifecycle.awaitChange(standby, LONG));
            } catch (InterruptedException e) {
                woken.completeExceptionally(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);

        taken(lifecycle);

        // A lost wake-up would hold the waiter for its whole 30 s.
        assertThat(woken.get(10, TimeUnit.SECONDS).role()).isEqualTo(Role.ACTIVE);
    }

    @Test
    void eachTransition_wakesAWaiter_releasingAndReleaseToo() throws InterruptedException {
        taken(lifecycle);
        Lifecycle.Status active = lifecycle.status();
        lifecycle.release();

        assertThat(lifecycle.awaitChange(active, LONG).role()).isEqualTo(Role.STANDBY);
    }

    @Test
    void nothingChanged_returnsTheStatusSeen_afterTheWait() throws InterruptedException {
        Lifecycle.Status standby = lifecycle.status();

        assertThat(lifecycle.awaitChange(standby, Duration.ofMillis(50))).isSameAs(standby);
    }

    @Test
    void aStandbyToldWhatItKnew_isNoChange() throws InterruptedException {
        lifecycle.observe("ctl-b", 3);
        Lifecycle.Status told = lifecycle.status();

        lifecycle.observe("ctl-b", 3);

        assertThat(lifecycle.status()).isSameAs(told);
        assertThat(lifecycle.awaitChange(told, Duration.ofMillis(50))).isSameAs(told);
        lifecycle.observe("ctl-c", 4);
        assertThat(lifecycle.awaitChange(told, LONG).active()).isEqualTo("ctl-c");
    }
}
