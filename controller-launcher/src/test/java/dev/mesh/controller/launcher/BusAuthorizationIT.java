package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.simhost.FactsPublisher;
import dev.mesh.controller.simhost.NatsSettings;
import dev.mesh.controller.simhost.SimulationException;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * The bus with genesis's users (issue 23, finding 5): {@code genesis} writes the NATS server's authorization and
 * each user's credentials for a mesh of two nodes; a {@code nats-server} of the test's own runs with exactly that
 * configuration, and {@code serve} (in this JVM, on the local PostgreSQL and RabbitMQ) connects to it as the
 * controller's user. Seen: each node's facts, published as its own user, are recorded; a node's user publishing
 * on the other's subject, listening to every node's facts, or a connection without a user or with a wrong
 * password, are refused by the server, and nothing forged is recorded.
 */
class BusAuthorizationIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private PrivateNats bus;
    private MeshController controller;
    private BrokerUpstream caller;
    private String n1;
    private String n2;
    private Path credentials;

    @BeforeEach
    void start() throws Exception {
        mesh = MeshEnvironment.create(databases, dir, "n1", "n2");
        n1 = mesh.node("n1");
        n2 = mesh.node("n2");
        mesh.grantEveryVerb("guest");
        Path meshFile = Files.writeString(dir.resolve("mesh.json"), "{\"nodes\": ["
                + "{\"name\": \"" + n1 + "\", \"address\": \"10.0.0.1\", \"system\": \"debian-12\"}, "
                + "{\"name\": \"" + n2 + "\", \"address\": \"10.0.0.2\", \"system\": \"debian-12\"}], "
                + "\"modules\": [], \"assignments\": []}");
        Path archive = Files.write(dir.resolve("mesh-controller.tar.gz"), new byte[] {1, 2, 3});
        Path out = dir.resolve("genesis");
        CommandRun genesis = Cli.run("genesis", "--mesh", meshFile.toString(), "--out", out.toString(), "--bundle",
                archive.toString());
        assertThat(genesis.exitCode()).as(genesis.out() + genesis.err()).isZero();
        bus = PrivateNats.start(out.resolve("bus"), dir.resolve("nats-server.log"));
        credentials = out.resolve("bus/credentials");
        // The controller's bus-nats secret: genesis's file with the bus's url added, as the operator does.
        JsonNode own = JSON.readTree(credentials.resolve("mesh-controller.json").toFile());
        Path natsFile = Files.writeString(dir.resolve("controller-nats.json"), "{\"url\": \"" + bus.url()
                + "\", \"user\": \"" + own.get("user").asString() + "\", \"password\": \""
                + own.get("password").asString() + "\"}");
        mesh.put("MESH_BUS_NATS_FILE", natsFile.toString());
        controller = MeshController.start(mesh.config(), Optional.empty());
        caller = BrokerUpstream.connect(mesh.config().broker().settings(mesh.config().certificate()), Duration.ofSeconds(20));
    }

    @AfterEach
    void stop() throws Exception {
        if (caller != null) {
            caller.close();
        }
        if (controller != null) {
            controller.close();
        }
        if (bus != null) {
            bus.close();
        }
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    void eachNodePublishesItsOwnFacts_andNothingElse() throws Exception {
        try (FactsPublisher first = FactsPublisher.open(as(n1)); FactsPublisher second = FactsPublisher.open(as(n2))) {
            first.publish(n1, facts(n1, "10.0.0.1"));
            second.publish(n2, facts(n2, "10.0.0.2"));
            first.flush(Duration.ofSeconds(5));
            second.flush(Duration.ofSeconds(5));
            await(n1 + " and " + n2 + " recorded from their own users' facts",
                    () -> "10.0.0.1".equals(address(n1)) && "10.0.0.2".equals(address(n2)));

            // Injected: n1's user publishes n2's facts with another address, and listens to every node's facts.
            first.publish(n2, facts(n2, "10.6.6.6"));
            first.flush(Duration.ofSeconds(5));
            int overheard = first.listen("mesh.nodes.*.facts", Duration.ofSeconds(1));
            second.publish(n2, facts(n2, "10.0.0.22")); // n2's genuine next facts, after the forged ones
            second.flush(Duration.ofSeconds(5));

            await(n2 + "'s genuine next facts recorded", () -> "10.0.0.22".equals(address(n2)));
            await("the server's refusals reported to n1's connection", () -> first.errors().size() >= 2);
            System.out.printf("BusAuthorizationIT: n1's connection was told %s%n", first.errors());
            assertThat(first.errors()).as("the forged publish refused by the server")
                    .anyMatch(e -> e.contains("Permissions Violation for Publish to \"mesh.nodes." + n2 + ".facts\""));
            assertThat(first.errors()).as("the subscription refused by the server")
                    .anyMatch(e -> e.contains("Permissions Violation for Subscription to \"mesh.nodes.*.facts\""));
            assertThat(overheard).as("n1 heard no other node's facts").isZero();
            assertThat(second.errors()).isEmpty();
        }
        // Never recorded: the forged address (n2's facts came from n2 only, 10.0.0.2 then 10.0.0.22).
        assertThat(address(n2)).isEqualTo("10.0.0.22");
    }

    @Test
    void aConnectionWithoutAUser_orWithAWrongPassword_isRefused() {
        assertThatThrownBy(() -> FactsPublisher.open(NatsSettings.of(bus.url())).close())
                .isInstanceOf(SimulationException.class).hasMessageContaining("Authorization Violation");
        assertThatThrownBy(() -> FactsPublisher.open(NatsSettings.of(bus.url()).withUser(n1, "not-its-password"))
                .close()).isInstanceOf(SimulationException.class).hasMessageContaining("Authorization Violation");
    }

    /** A node's settings on the private bus, from genesis's credentials file for it. */
    private NatsSettings as(String node) {
        JsonNode file = JSON.readTree(credentials.resolve(node + ".json").toFile());
        return NatsSettings.of(bus.url()).withUser(file.get("user").asString(), file.get("password").asString());
    }

    private String address(String node) {
        return BrokerCalls.result(caller, "node", Map.of("name", node)).path("structuredContent").path("node")
                .path("address").asString();
    }

    private static String facts(String node, String address) {
        return "{\"node\": \"" + node + "\", \"address\": \"" + address + "\", \"system\": \"debian-12\", "
                + "\"revision\": null, \"processes\": [], \"at\": \"" + Instant.now() + "\"}";
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).until(done::getAsBoolean);
    }
}
