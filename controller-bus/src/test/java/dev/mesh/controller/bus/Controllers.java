package dev.mesh.controller.bus;

import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.McpDispatcher;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** A controller over core's in-memory ports, active with epoch 1 as instance {@value #INSTANCE}, as the tests use it. */
final class Controllers {

    static final String INSTANCE = "it-host:4242";
    static final String VERSION = "0.1.0-test";
    /** A fixed clock, so two answers of {@code status} are the same bytes. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);

    final MemoryInventory inventory = new MemoryInventory();
    final MemoryIdentity identity = new MemoryIdentity();
    final LocalLifecycle lifecycle = LocalLifecycle.standby(LocalPlanLock.create(), INSTANCE, CLOCK);
    final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
            new MemoryRequestRecords(), Layout.DEFAULT, CLOCK));

    Controllers() {
        lifecycle.activate();
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
    }

    /** @return verbs over fresh in-memory ports */
    static Verbs verbs() {
        return new Controllers().verbs;
    }

    /** @return the dispatcher the broker transport answers through, for comparing with its replies */
    McpDispatcher dispatcher() {
        return McpDispatcher.of(verbs, identity, VERSION);
    }
}
