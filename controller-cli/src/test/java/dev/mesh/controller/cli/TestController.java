package dev.mesh.controller.cli;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.Wire;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpDispatcher;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A controller in the test's process: core's verbs over the in-memory ports, served by
 * {@link McpHttpServer} on a free loopback port, with a state directory as {@code serve --dev}
 * writes it ({@code url} and {@code token}). The three nodes of {@code examples/mesh.json} report
 * themselves; nothing is pushed. It records the request id of every mutating call.
 */
final class TestController implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    final MemoryInventory inventory = new MemoryInventory();
    /** The request id of every mutating call the controller recorded, in order. */
    final List<String> requestIds = new CopyOnWriteArrayList<>();
    final Path state;
    final BearerToken token;
    final McpHttpServer server;

    /** @param state the state directory to write {@code url} and {@code token} into */
    TestController(Path state) {
        this(state, Wire.NONE);
    }

    /**
     * @param state the state directory to write {@code url} and {@code token} into
     * @param wire what {@code status} tells of the transports
     */
    TestController(Path state, Wire wire) {
        this.state = state;
        // The nodes of examples/mesh.json, so that the controller's plan is the one plan --mesh makes of it.
        inventory.report(new Node("alpha", "10.20.0.11", "debian-12"));
        inventory.report(new Node("beta", "10.20.0.12", "debian-12"));
        inventory.report(new Node("gamma", "10.20.0.13", "debian-12"));
        RequestRecords records = new MemoryRequestRecords();
        RequestRecords counted = new RequestRecords() {
            @Override
            public Optional<Recorded> find(String requestId) {
                return records.find(requestId);
            }

            @Override
            public void record(Recorded recorded) {
                requestIds.add(recorded.requestId());
                records.record(recorded);
            }
        };
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                counted, Layout.DEFAULT, Clock.systemUTC(), wire));
        token = BearerToken.create(state);
        server = McpHttpServer.start(McpDispatcher.of(verbs, Identity.ANYONE, "0.1.0-test"),
                McpHttpServer.Config.loopback(0, token, "dev"));
        try {
            Files.writeString(state.resolve("url"), server.endpoint() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the environment that finds this controller by its state directory, and nothing else */
    Map<String, String> env() {
        return Map.of("MESH_CONTROLLER_STATE", state.toString());
    }

    /** Runs the command line against this controller (found through {@code MESH_CONTROLLER_STATE}). */
    CommandRun run(String... args) {
        return Cli.run(env(), args);
    }

    /** Pushes every example manifest and makes the example mesh's assignments, through the CLI. */
    TestController withExampleMesh() {
        try (var files = Files.list(Path.of("../examples/modules"))) {
            for (Path file : files.sorted().toList()) {
                requireZero(run("push", file.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode a : JSON.readTree(Path.of("../examples/mesh.json").toFile()).path("assignments")) {
            requireZero(run("assign", a.path("module").asString(), a.path("node").asString()));
        }
        return this;
    }

    private static void requireZero(CommandRun run) {
        if (run.exitCode() != 0) {
            throw new AssertionError("setup failed: " + run);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
