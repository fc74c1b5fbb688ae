package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.simhost.FactsPublisher;
import dev.mesh.controller.simhost.NatsSettings;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.LocalRabbit;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

/**
 * Facts a hostile publisher sends on the bus (issue 23, findings 4 and 5), against the mesh's controller as
 * {@code serve} runs it in this JVM, on the local PostgreSQL, RabbitMQ and NATS (which has no authorization here):
 * a node name of 300 characters (the inventory's column refused it and held every later fact), 300 made-up node
 * names (each became a node and a durable queue), and facts for a genuine node dated 2099 (its genuine facts
 * looked older for 73 years). Seen closed: none of them is recorded, no queue is declared, and the genuine node's
 * next facts are.
 */
class HostileFactsIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private MeshController controller;
    private BrokerUpstream caller;
    private FactsPublisher nats;
    private String node;
    private Config.Serve config;

    @BeforeEach
    void start() throws Exception {
        mesh = MeshEnvironment.create(databases, dir, "n1");
        node = mesh.node("n1");
        mesh.grantEveryVerb("guest");
        config = mesh.config();
        controller = MeshController.start(config, Optional.empty());
        caller = BrokerUpstream.connect(config.broker().settings(config.certificate()), Duration.ofSeconds(20));
        nats = FactsPublisher.open(NatsSettings.of(MeshEnvironment.NATS_URL));
    }

    @AfterEach
    void stop() throws Exception {
        if (nats != null) {
            nats.close();
        }
        if (caller != null) {
            caller.close();
        }
        if (controller != null) {
            controller.close();
        }
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    void longNames_madeUpNodes_andFactsFromTheFuture_areDropped_andTheGenuineNodesNextFactsRecorded()
            throws Exception {
        String longName = "x" + "y".repeat(299);
        List<String> rogues = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rogues.add("rogue" + i + "-" + node);
        }

        publish(longName, facts(longName, "10.6.6.6", Instant.now()));
        for (String rogue : rogues) {
            publish(rogue, facts(rogue, "10.6.6.7", Instant.now()));
        }
        publish(node, facts(node, "10.6.6.99", Instant.parse("2099-01-01T00:00:00Z")));
        publish(node, facts(node, "10.0.0.1", Instant.now()));
        nats.flush(Duration.ofSeconds(5));

        await("the genuine node recorded", () -> "10.0.0.1".equals(call("node", Map.of("name", node))
                .path("structuredContent").path("node").path("address").asString()));
        JsonNode nodes = call("nodes", Map.of()).path("structuredContent").path("nodes");
        List<String> names = new ArrayList<>();
        nodes.forEach(n -> names.add(n.path("name").asString()));
        assertThat(names).as("no node of a made-up or long name").contains(node).noneMatch(n -> n.startsWith("rogue"))
                .doesNotContain(longName);
        JsonNode status = call("status", Map.of()).path("structuredContent");
        assertThat(status.toString()).as("the drops counted in status: " + status).contains("unknown")
                .contains("bad-name").contains("future");

        // A later fact of the genuine node is taken: its facts are not "older" than the forged 2099 one.
        publish(node, facts(node, "10.0.0.2", Instant.now()));
        await("the genuine node's next facts recorded", () -> "10.0.0.2".equals(call("node", Map.of("name", node))
                .path("structuredContent").path("node").path("address").asString()));

        // A controller that starts declares the queue of every node its inventory holds (MeshController.warm):
        // that is where the finding's 300 queues came from. Started again, it declares the genuine node's alone.
        controller.close();
        controller = MeshController.start(config, Optional.empty());
        await("the genuine node's queue", () -> queues().contains("mesh-host." + node));
        assertThat(queues()).as("no queue for a made-up node").noneMatch(q -> q.startsWith("mesh-host.rogue"));
    }

    private List<String> queues() {
        return LocalRabbit.get().queueNames(mesh.vhost());
    }

    private void publish(String subjectNode, String body) {
        nats.publish(subjectNode, body);
    }

    private static String facts(String node, String address, Instant at) {
        return "{\"node\": \"" + node + "\", \"address\": \"" + address + "\", \"system\": \"debian-12\", "
                + "\"revision\": null, \"processes\": [], \"at\": \"" + at + "\"}";
    }

    private JsonNode call(String verb, Map<String, Object> arguments) {
        return BrokerCalls.result(caller, verb, arguments);
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).until(done::getAsBoolean);
    }
}
