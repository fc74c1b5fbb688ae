package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.simhost.HostSettings;
import dev.mesh.controller.simhost.NatsSettings;
import dev.mesh.controller.simhost.SimulatedHost;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.LocalRabbit;
import java.nio.file.Path;
import java.time.Duration;
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
 * A host stopped for a while gets its declaration when it comes back (docs/design.md section 8, "re-delivers
 * it when the node comes back from silence still on an older revision"), end to end: the mesh's
 * controller in this JVM as {@code serve} runs it, on the local PostgreSQL, RabbitMQ and NATS, and one
 * simulated host.
 *
 * <p>It takes about 20 s: a node is silent when its latest facts are older than {@link Facts#SILENCE}
 * (15 s) by the controller's clock, the facts' {@code at} is the host's own clock, and neither the
 * constant nor the controller's clock is a setting of {@code serve}; shortening it would take a hook in
 * the product for this test alone.
 */
class HostBackFromSilenceIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final Duration PATIENCE = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private MeshController controller;
    private BrokerUpstream caller;
    private SimulatedHost host;
    private String node;

    @BeforeEach
    void start() {
        mesh = MeshEnvironment.create(databases, dir, "n1");
        node = mesh.node("n1");
        mesh.grantEveryVerb("guest");
        Config.Serve config = mesh.config();
        controller = MeshController.start(config, Optional.empty());
        caller = BrokerUpstream.connect(config.broker().settings(config.certificate()), Duration.ofSeconds(20));
        host = SimulatedHost.open(HostSettings.of(node, "10.0.0.1", "debian-12", mesh.simhostBroker(node),
                NatsSettings.of(MeshEnvironment.NATS_URL), "guest").withFactsInterval(Duration.ofMillis(300))
                .withApplyTime(Duration.ofMillis(100)));
    }

    @AfterEach
    void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {host, caller, controller}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new AssertionError("cannot close " + closeable, e);
            }
        }
        if (mesh != null) {
            mesh.close();
        }
    }

    @Test
    void hostStoppedWhileItsDeclarationChanges_andItIsLost_silent_thenStarted_appliesTheCurrentRevision()
            throws Exception {
        for (String module : new String[] {"quiet-a", "quiet-b"}) {
            assertSucceeds(call("push", Map.of("manifest", directoryModule(module))));
        }
        await("the host's facts", () -> !call("node", Map.of("name", node)).path("isError").asBoolean());
        assertSucceeds(call("assign", Map.of("module", "quiet-a", "node", node)));
        String first = target();
        assertThat(host.awaitApplied(first, PATIENCE)).as("the first declaration applied").isTrue();

        host.stop();
        assertSucceeds(call("assign", Map.of("module", "quiet-b", "node", node)));
        String current = target();
        assertThat(current).isNotEqualTo(first);
        await("the new declaration delivered while the host is down",
                () -> current.equals(rollout().path("delivered").path("revision").asString()));
        // The fault: the declaration waiting in the host's durable queue is lost (as with a host whose disk
        // was replaced, or a queue an operator purged), so only the controller's re-delivery can bring it.
        LocalRabbit.get().purgeQueue(mesh.vhost(), "mesh-host." + node);
        await("the node silent, after " + Facts.SILENCE.toSeconds() + " s without facts",
                () -> call("node", Map.of("name", node)).path("structuredContent").path("silent").asBoolean());
        // The executor sends again to a node it saw silent at the end of a round; rounds run every EXECUTOR_TICK, so
        // a host back within a few milliseconds of turning silent may not have been seen silent by any.
        // Stay silent for a few rounds, as a host down for a while does.
        Awaitility.await("nothing received while stopped, six rounds long")
                .during(MeshController.EXECUTOR_TICK.multipliedBy(6)).atMost(PATIENCE)
                .until(() -> host.received().equals(List.of(first)));

        host.start();

        assertThat(host.awaitApplied(current, PATIENCE)).as("the current revision applied after coming back, "
                + "received: " + host.received()).isTrue();
        await("no changes left", () -> call("plan", Map.of()).path("structuredContent").path("plan").path("changes")
                .isEmpty());
        JsonNode plan = call("plan", Map.of()).path("structuredContent");
        assertThat(plan.path("text").asString()).contains("No changes");
        assertThat(plan.path("rollouts").path(node).path("acknowledged").asString()).isEqualTo(current);
        assertThat(host.received()).as("sent again once it was heard from").containsExactly(first, current);
        assertThat(call("node", Map.of("name", node)).path("structuredContent").path("silent").asBoolean()).isFalse();
    }

    /** A module with one directory and nothing to build, so the declaration goes out without waiting. */
    private static String directoryModule(String name) {
        return "{\"module\": \"" + name + "\", \"version\": \"1.0.0\", \"resources\": [{\"id\": \"" + name
                + "-data\", \"type\": \"directory\", \"mode\": \"0700\", \"owner\": \"root\"}]}";
    }

    private JsonNode rollout() {
        return call("plan", Map.of()).path("structuredContent").path("rollouts").path(node);
    }

    private String target() {
        String target = rollout().path("target").asString();
        assertThat(target).as("the node's target revision").startsWith("sha256:");
        return target;
    }

    private JsonNode call(String verb, Map<String, Object> arguments) {
        return BrokerCalls.result(caller, verb, arguments);
    }

    private static void assertSucceeds(JsonNode result) {
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).until(done::getAsBoolean);
    }
}
