package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A new mesh from {@code genesis}'s files: the mesh's {@code serve} with {@code MESH_GENESIS_FILE}, on an
 * empty store (the local PostgreSQL, RabbitMQ and NATS), imports the inventory once it is active — its
 * {@code nodes} answers the genesis nodes and each node's declaration is the one genesis wrote — and a
 * second start on that store does not import it again. The controller runs in this JVM.
 */
class GenesisServeIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private Config.Serve config;
    private MeshController controller;
    private BrokerUpstream caller;

    @BeforeEach
    void genesis() throws Exception {
        Path archive = Files.writeString(dir.resolve("mesh-controller.tar.gz"), "bytes");
        CommandRun run = Cli.run(Map.of(), "genesis", "--mesh", "../examples/mesh.json", "--out",
                dir.resolve("genesis").toString(), "--bundle", archive.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        mesh = MeshEnvironment.create(databases, dir);
        mesh.grantEveryVerb("guest");
        Map<String, String> env = new HashMap<>(mesh.env());
        env.put("MESH_GENESIS_FILE", dir.resolve("genesis/inventory.json").toString());
        config = Config.forServe(env);
    }

    @AfterEach
    void stop() {
        close();
        mesh.close();
    }

    @Test
    void firstServe_importsTheGenesisInventory_nodesAndDeclarationsAsWritten_aSecondStartDoesNotImportAgain()
            throws Exception {
        start();
        await("the genesis nodes", () -> names(call("nodes", Map.of()).path("nodes"), "name")
                .containsAll(List.of("alpha", "beta", "gamma")));
        await("the genesis assignments", () -> call("node", Map.of("name", "gamma")).path("modules").size() == 2);
        assertThat(call("modules", Map.of()).path("modules")).hasSize(5);
        for (String node : List.of("alpha", "beta", "gamma")) {
            JsonNode written = JSON.readTree(dir.resolve("genesis/declarations/" + node + ".json").toFile());
            assertThat(call("node", Map.of("name", node)).path("declaration").path("revision").asString())
                    .as("the controller composes the declaration genesis wrote for " + node)
                    .isEqualTo(written.path("revision").asString());
        }
        JsonNode unassigned = call("unassign", Map.of("module", "mesh-host", "node", "gamma"));
        assertThat(unassigned.path("changed").asBoolean()).as(unassigned.toString()).isTrue();
        close();

        start();
        await("active again", () -> controller.readyLine().contains(" " + Role.ACTIVE.label() + " "));
        // A second import would assign mesh-host to gamma again: give it the time the first took, and more.
        Awaitility.await("no second import").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> assertThat(names(call("node",
                        Map.of("name", "gamma")).path("modules"), null)).containsExactly("mesh-controller"));
    }

    private void start() {
        controller = MeshController.start(config, Optional.empty());
        caller = BrokerUpstream.connect(config.broker().settings(config.certificate()), Duration.ofSeconds(20));
    }

    private void close() {
        if (caller != null) {
            caller.close();
            caller = null;
        }
        if (controller != null) {
            controller.close();
            controller = null;
        }
    }

    private JsonNode call(String verb, Map<String, Object> arguments) {
        return BrokerCalls.succeeded(caller, verb, arguments);
    }

    private static List<String> names(JsonNode list, String field) {
        List<String> names = new ArrayList<>();
        list.forEach(entry -> names.add(field == null ? entry.asString() : entry.path(field).asString()));
        return names;
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).until(done::getAsBoolean);
    }
}
