package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A controller's verbs over core's in-memory ports, with three nodes, as the tests use it. */
final class Fixtures {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String VERSION = "0.1.0-test";

    final MemoryInventory inventory = new MemoryInventory();
    final MemoryEvents events = new MemoryEvents();
    final Verbs verbs;

    Fixtures() {
        this(VerbCalls.NONE);
    }

    /** @param calls where the verbs' calls are counted */
    Fixtures(VerbCalls calls) {
        verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), events,
                new MemoryRequestRecords(), Layout.DEFAULT, Clock.systemUTC()).withCalls(calls));
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
        inventory.report(new Node("gamma", "10.0.0.3", "debian-12"));
    }

    McpDispatcher dispatcher(Identity identity) {
        return McpDispatcher.of(verbs, identity, VERSION);
    }

    /** @return the example manifests of the repository */
    static List<JsonNode> exampleManifests() {
        try (var files = Files.list(Path.of("../examples/modules"))) {
            return files.sorted().map(f -> JSON.readTree(f.toFile())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the example mesh's assignments, as examples/mesh.json has them */
    static List<Assignment> exampleAssignments() {
        JsonNode mesh = JSON.readTree(Path.of("../examples/mesh.json").toFile());
        return mesh.path("assignments").valueStream()
                .map(a -> new Assignment(a.path("module").asString(), a.path("node").asString())).toList();
    }

    /** What the tests compare before and after a refused request. */
    record Snapshot(Object modules, Object assignments, int events) {
    }

    Snapshot snapshot() {
        return new Snapshot(inventory.modules().stream().map(m -> m.module() + "@" + m.version()).toList(),
                inventory.assignments(), events.events().size());
    }
}
