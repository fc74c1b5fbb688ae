package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StandbyWarmupTest {

    private static final Clock CLOCK = Clock.systemUTC();

    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryEvents events = new MemoryEvents();
    /** Every verb the identity was asked about, and how often. */
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    private final Identity identity = (principal, verb) -> {
        assertThat(principal).isEqualTo(StandbyWarmup.PRINCIPAL);
        asked.computeIfAbsent(verb, v -> new AtomicInteger()).incrementAndGet();
        return false; // the warm-up's principal has no grant, as in a real identity store
    };

    @Test
    void standby_callsEveryReadVerb_andStatusPastTheJitThresholds_neverAMutatingOne_andChangesNothing()
            throws Exception {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        LocalLifecycle lifecycle = LocalLifecycle.standby(LocalPlanLock.create(), "warm:1", CLOCK);
        Verbs verbs = verbs(lifecycle);
        var before = verbs.call("nodes", null);

        Thread warming = StandbyWarmup.start(verbs, identity, "0.0.0-test", lifecycle);
        warming.join(60_000);

        assertThat(warming.isAlive()).as("done within a minute").isFalse();
        List<String> reads = Verbs.names().stream().filter(verb -> !Verbs.mutates(verb)).toList();
        assertThat(asked.keySet()).as("the reads, each asked of the real identity").containsAll(reads)
                .allMatch(verb -> !Verbs.mutates(verb));
        assertThat(asked.get("status").get()).isGreaterThanOrEqualTo(StandbyWarmup.STATUS_CALLS);
        assertThat(verbs.call("nodes", null)).as("the mesh unchanged").isEqualTo(before);
        assertThat(events.events()).as("no event").isEmpty();
    }

    @Test
    void active_stopsAfterTheFirstRound() throws Exception {
        Lifecycle lifecycle = LocalLifecycle.active(LocalPlanLock.create(), "warm:2", CLOCK);

        Thread warming = StandbyWarmup.start(verbs(lifecycle), identity, "0.0.0-test", lifecycle);
        warming.join(60_000);

        assertThat(warming.isAlive()).isFalse();
        assertThat(asked.get("status").get()).as("once, in the round of every read").isEqualTo(1);
    }

    private Verbs verbs(Lifecycle lifecycle) {
        return Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, events, new MemoryRequestRecords(),
                Layout.DEFAULT, CLOCK));
    }
}
