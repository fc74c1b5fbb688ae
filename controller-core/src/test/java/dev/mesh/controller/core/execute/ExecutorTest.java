package dev.mesh.controller.core.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryBuilders;
import dev.mesh.controller.core.memory.MemoryDeliveries;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Layout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When the executor runs rounds: counted by the rounds' reads of the inventory's nodes. */
class ExecutorTest {

    private static final Duration TICK = Duration.ofMillis(20);
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final Hands clock = new Hands(Instant.parse("2026-12-01T10:00:00Z"));
    private final AtomicInteger rounds = new AtomicInteger();
    private final MemoryInventory memory = new MemoryInventory();
    private final List<RuntimeException> failures = new CopyOnWriteArrayList<>();
    private final LocalLifecycle lifecycle = LocalLifecycle.standby(LocalPlanLock.create(), "test:1", clock);
    private final Execution execution = Execution.of(new Execution.Ports(new ForwardingInventory(memory) {
        @Override
        public List<Node> nodes() {
            rounds.incrementAndGet();
            return super.nodes();
        }
    }, new MemoryDeliveries(), new MemoryBuilders(), new MemoryEvents(), Layout.DEFAULT, clock));
    private Executor executor;

    @AfterEach
    void close() {
        executor.close();
        assertThat(failures).isEmpty();
    }

    private Executor start() {
        executor = Executor.start(execution, lifecycle, TICK, new Executor.Listener() {
            @Override
            public void round(Execution.Round round) {
            }

            @Override
            public void failed(RuntimeException failure) {
                failures.add(failure);
            }
        });
        return executor;
    }

    private void awaitRounds(int atLeast) {
        await(atLeast + " rounds").atMost(PATIENCE).pollInterval(Duration.ofMillis(5))
                .until(() -> rounds.get() >= atLeast);
    }

    /** Holds for {@code time}: ten ticks, say, in which nothing is to happen. */
    private static void holdsDuring(Duration time, String what, Callable<Boolean> condition) {
        await(what).during(time).atMost(time.plus(PATIENCE)).pollInterval(Duration.ofMillis(5)).until(condition);
    }

    @Test
    void aStandby_runsNoRound_evenWhenToldOfChanges() {
        start();
        executor.changed();

        holdsDuring(TICK.multipliedBy(10), "no round, ten ticks long", () -> rounds.get() == 0);
    }

    @Test
    void becomingActive_runsARound_withoutAChange_thenTicksRunNoneWhileNothingIsLeft() {
        start();
        lifecycle.activate();
        awaitRounds(1);

        holdsDuring(TICK.multipliedBy(10), "an idle mesh costs no rounds, ten ticks long", () -> rounds.get() == 1);

        executor.changed();
        awaitRounds(2);
    }

    @Test
    void aNodeSentARevisionItDoesNotRunYet_isWatched_aBareNodeIsNot() {
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        memory.report(new Node("beta", "10.0.0.2", "debian-12"));
        memory.push(ModuleVersion.parse("{\"module\": \"data\", \"version\": \"1\", \"resources\": [{\"id\": "
                + "\"data\", \"type\": \"directory\", \"mode\": \"0750\", \"owner\": \"root\"}]}", "manifest"));
        memory.assign(new Assignment("data", "alpha"));
        start();
        lifecycle.activate();
        awaitRounds(1);
        assertThat(execution.watching()).as("alpha was sent its declaration and has not applied it").isTrue();

        awaitRounds(3);
        String revision = memory.desired().get("alpha").revision();
        memory.acknowledge("alpha", revision);
        executor.changed();
        awaitRounds(4);
        int after = rounds.get();
        assertThat(execution.watching()).as("beta never ran anything, alpha applied").isFalse();
        holdsDuring(Executor.WATCH_EVERY.multipliedBy(2), "no more rounds once nothing is outstanding, two watch "
                + "periods long", () -> rounds.get() <= after + 1);
    }
}
