package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A simulated host and builder against the real RabbitMQ (a virtual host per test, broker users named
 * like the test's nodes) and the real NATS (a subject prefix per test). The controller's side is
 * {@link Controller}: plain amqp-client and jnats.
 */
class SimulatedHostIT {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration INTERVAL = Duration.ofMillis(200);
    /** Long enough for several facts intervals to pass with none published. */
    private static final Duration QUIET = INTERVAL.multipliedBy(5);

    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    // Broker users are global to the broker, so the nodes are named for this test alone.
    private final String node = "n1-" + tag;
    private final String builderUser = "builder-" + tag;
    private final String prefix = "it-" + tag + ".";
    private final List<AutoCloseable> opened = new ArrayList<>();
    private RabbitVhost vhost;
    private Controller controller;

    @BeforeEach
    void start() throws Exception {
        vhost = RabbitVhost.create();
        vhost.addUser(node);
        vhost.addUser(builderUser);
        controller = Controller.open(vhost, prefix);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        controller.close();
        vhost.close();
    }

    @Test
    void open_beforeItsQueueExists_waitsForIt_appliesTheDeclaration_factsTellStartingThenRunning() throws Exception {
        SimulatedHost host = host(settings().withApplyTime(INTERVAL.multipliedBy(3)));

        JsonNode first = controller.awaitFacts(f -> true, PATIENCE);
        assertThat(fieldNames(first)).containsExactly("node", "address", "system", "revision", "processes", "at");
        assertThat(first.get("node").stringValue()).isEqualTo(node);
        assertThat(first.get("address").stringValue()).isEqualTo("10.0.0.1");
        assertThat(first.get("system").stringValue()).isEqualTo("debian-12");
        assertThat(first.get("revision").isNull()).isTrue();
        assertThat(first.get("processes").isEmpty()).isTrue();
        assertThat(Instant.parse(first.get("at").stringValue())).isBefore(Instant.now().plusSeconds(1));

        controller.declareTopology();
        controller.declareHost(node);
        controller.declare(node, "sha256:r1", 7, declaration(node, "sha256:r1", "mesh-host", "mesh-store"));

        JsonNode starting = controller.awaitFacts(f -> f.get("processes").size() == 2, PATIENCE);
        assertThat(starting.get("revision").isNull()).isTrue();
        for (JsonNode process : starting.get("processes")) {
            assertThat(fieldNames(process)).containsExactly("name", "state", "since", "checks");
            assertThat(process.get("state").stringValue()).isEqualTo("starting");
            assertThat(process.get("checks").intValue()).isZero();
            Instant.parse(process.get("since").stringValue());
        }
        assertThat(starting.get("processes").findValuesAsString("name")).containsExactly("mesh-host", "mesh-store");

        Controller.Report report = controller.report(PATIENCE);
        assertThat(report).isNotNull();
        assertThat(report.properties().getUserId()).isEqualTo(node);
        assertThat(report.properties().getDeliveryMode()).isEqualTo(2);
        assertThat(report.properties().getContentType()).isEqualTo("application/json");
        JsonNode body = report.body();
        assertThat(fieldNames(body)).containsExactly("kind", "node", "revision", "steps", "at");
        assertThat(body.get("kind").stringValue()).isEqualTo("applied");
        assertThat(body.get("node").stringValue()).isEqualTo(node);
        assertThat(body.get("revision").stringValue()).isEqualTo("sha256:r1");
        assertThat(body.get("steps").toString()).isEqualTo("[{\"id\":\"" + node + "/process:mesh-host\",\"status\":"
                + "\"done\",\"detail\":\"\"},{\"id\":\"" + node + "/process:mesh-store\",\"status\":\"done\",\"detail\":\"\"}]");
        Instant.parse(body.get("at").stringValue());
        assertThat(host.awaitApplied("sha256:r1", PATIENCE)).isTrue();
        assertThat(host.received()).containsExactly("sha256:r1");

        controller.awaitFacts(f -> "sha256:r1".equals(f.get("revision").stringValue())
                && f.get("processes").size() == 2 && allRunningWithChecks(f, 2), PATIENCE);
        assertThat(controller.ready("mesh-host." + node)).isZero();
    }

    @Test
    void declarationNotFromTheControllersUser_orFromAnOlderEpoch_isIgnored_andTheNextGenuineOneApplied()
            throws Exception {
        controller.declareTopology();
        controller.declareHost(node);
        SimulatedHost host = host(settings());
        controller.declare(node, "sha256:r1", 5, declaration(node, "sha256:r1", "mesh-store"));
        assertThat(host.awaitApplied("sha256:r1", PATIENCE)).isTrue();

        // Injected: another principal of the broker (here with every permission, as before the controller set them)
        // publishes declarations for this node to mesh.declarations: one without user_id, one with its own.
        String forger = "forger-" + tag;
        vhost.addUser(forger);
        try (Connection connection = Connections.amqp(vhost.as(forger), "forger")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            Controller.declare(channel, null, node, "sha256:forged-1", 6, declaration(node, "sha256:forged-1", "evil"));
            Controller.declare(channel, forger, node, "sha256:forged-2", 6, declaration(node, "sha256:forged-2", "evil"));
            // And the controller's user_id it cannot claim: the broker refuses the publish (406) and closes the channel.
            assertThatThrownBy(() -> Controller.declare(channel, RabbitVhost.USER, node, "sha256:forged-3", 6,
                    declaration(node, "sha256:forged-3", "evil")))
                    .hasStackTraceContaining("PRECONDITION_FAILED");
        }
        // An older epoch from the genuine user: a controller that lost its lock and still published.
        controller.declare(node, "sha256:stale", 4, declaration(node, "sha256:stale", "mesh-store", "old"));
        controller.declare(node, "sha256:r2", 5, declaration(node, "sha256:r2", "mesh-store", "mesh-host"));

        // Seen: the three ignored (two rejected, the stale one acknowledged), r2 applied, nothing of the others.
        assertThat(host.awaitApplied("sha256:r2", PATIENCE)).isTrue();
        assertThat(host.ignored()).isEqualTo(3);
        assertThat(host.received()).containsExactly("sha256:r1", "sha256:r2");
        assertThat(controller.ready("mesh-host." + node)).isZero();
    }

    @Test
    void declare_sameRevisionTwice_reportsOnce_andANewRevisionDropsTheProcessNoLongerDeclared() throws Exception {
        controller.declareTopology();
        controller.declareHost(node);
        SimulatedHost host = host(settings());
        controller.declare(node, "sha256:r1", 1, declaration(node, "sha256:r1", "mesh-host", "mesh-store"));
        assertThat(controller.report(PATIENCE).body().get("revision").stringValue()).isEqualTo("sha256:r1");

        controller.declare(node, "sha256:r1", 2, declaration(node, "sha256:r1", "mesh-host", "mesh-store"));
        assertThat(host.awaitReceived(2, PATIENCE)).isTrue();
        controller.declare(node, "sha256:r2", 2, declaration(node, "sha256:r2", "mesh-host"));

        // Reports come in the order the declarations were handled: the next is r2's, none for r1 again.
        Controller.Report next = controller.report(PATIENCE);
        assertThat(next.body().get("revision").stringValue()).isEqualTo("sha256:r2");
        assertThat(next.body().get("steps").findValuesAsString("id")).containsExactly(node + "/process:mesh-host");
        assertThat(host.received()).containsExactly("sha256:r1", "sha256:r1", "sha256:r2");
        assertThat(host.awaitApplied("sha256:r2", PATIENCE)).isTrue();
        assertThat(host.reports()).isEqualTo(2);
        controller.awaitFacts(f -> "sha256:r2".equals(f.get("revision").stringValue())
                && f.get("processes").findValuesAsString("name").equals(List.of("mesh-host")), PATIENCE);
    }

    @Test
    void stop_publishesNoFactsAndTakesNoDeclarations_start_resumesWithTheAppliedRevision() throws Exception {
        controller.declareTopology();
        controller.declareHost(node);
        SimulatedHost host = host(settings());
        controller.declare(node, "sha256:r1", 1, declaration(node, "sha256:r1", "mesh-store"));
        assertThat(host.awaitApplied("sha256:r1", PATIENCE)).isTrue();
        assertThat(controller.report(PATIENCE)).isNotNull();

        host.stop();
        controller.dropFacts();
        controller.declare(node, "sha256:r2", 1, declaration(node, "sha256:r2", "mesh-store"));

        assertThat(controller.facts(QUIET)).isNull();
        assertThat(controller.report(Duration.ZERO)).isNull();
        assertThat(host.running()).isFalse();
        assertThat(controller.ready("mesh-host." + node)).isEqualTo(1);

        host.start();
        JsonNode back = controller.awaitFacts(f -> true, PATIENCE);
        assertThat(back.get("revision").stringValue()).isEqualTo("sha256:r1");
        assertThat(controller.report(PATIENCE).body().get("revision").stringValue()).isEqualTo("sha256:r2");
        assertThat(host.awaitApplied("sha256:r2", PATIENCE)).isTrue();
    }

    @Test
    void failing_reportsFailedWithAFailedStep_andKeepsTheRevisionItHad() throws Exception {
        controller.declareTopology();
        controller.declareHost(node);
        SimulatedHost host = host(settings().withFailing(true));
        controller.declare(node, "sha256:r1", 1, declaration(node, "sha256:r1", "mesh-host", "mesh-store"));

        JsonNode body = controller.report(PATIENCE).body();
        assertThat(body.get("kind").stringValue()).isEqualTo("failed");
        assertThat(body.get("steps").toString()).isEqualTo("[{\"id\":\"" + node + "/process:mesh-host\",\"status\":"
                + "\"failed\",\"detail\":\"simulated failure\"},{\"id\":\"" + node + "/process:mesh-store\",\"status\":"
                + "\"done\",\"detail\":\"\"}]");
        assertThat(host.awaitReports(1, PATIENCE)).isTrue();
        assertThat(host.applied()).isEmpty();
        assertThat(host.processes()).extracting(HostProcess::state).containsExactly("failed", "running");

        host.failing(false);
        controller.declare(node, "sha256:r1", 2, declaration(node, "sha256:r1", "mesh-host", "mesh-store"));
        assertThat(controller.report(PATIENCE).body().get("kind").stringValue()).isEqualTo("applied");
        assertThat(host.awaitApplied("sha256:r1", PATIENCE)).isTrue();
    }

    @Test
    void declare_unreadableOrAnotherNodes_rejected_andTheNextIsApplied() throws Exception {
        controller.declareTopology();
        controller.declareHost(node);
        SimulatedHost host = host(settings());
        controller.declare(node, "sha256:r0", 1, "not json {");
        controller.declare(node, "sha256:r0", 1, declaration("n9", "sha256:r0", "mesh-host"));
        controller.declare(node, "sha256:r1", 1, declaration(node, "sha256:r1", "mesh-host"));

        assertThat(controller.report(PATIENCE).body().get("revision").stringValue()).isEqualTo("sha256:r1");
        assertThat(host.received()).containsExactly("sha256:r1");
        assertThat(controller.ready("mesh-host." + node)).isZero();
    }

    @Test
    void builder_order_reportsTheBuildSucceeded_asItsUser() throws Exception {
        controller.declareTopology();
        SimulatedBuilder builder = SimulatedBuilder.open("debian-12", vhost.as(builderUser));
        opened.add(builder);
        String build = "build:mesh-store@1.2.0/postgres";
        controller.order("debian-12", "{\"build\": \"" + build + "\", \"module\": \"mesh-store\", \"version\": \"1.2.0\","
                + " \"artifact\": \"postgres\", \"kind\": \"binary\", \"language\": \"c\", \"system\": \"debian-12\","
                + " \"from\": \"https://example.org/postgres.tar.gz\", \"binary\": \"bin/postgres\"}");
        controller.order("arch", "{\"build\": \"build:other@1/x\"}");

        Controller.Report report = controller.report(PATIENCE);
        assertThat(report.properties().getUserId()).isEqualTo(builderUser);
        assertThat(report.properties().getDeliveryMode()).isEqualTo(2);
        JsonNode body = report.body();
        assertThat(fieldNames(body)).containsExactly("kind", "build", "status", "detail", "sha256", "location", "at");
        assertThat(body.get("sha256").stringValue()).isEqualTo(Archive.simulated(build).sha256()).hasSize(64);
        assertThat(body.get("location").stringValue()).isEqualTo("urn:mesh-simhost:" + build);
        assertThat(body.get("kind").stringValue()).isEqualTo("build");
        assertThat(body.get("build").stringValue()).isEqualTo(build);
        assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
        assertThat(body.get("detail").stringValue()).isEmpty();
        Instant.parse(body.get("at").stringValue());
        assertThat(builder.awaitOrders(1, PATIENCE)).isTrue();
        assertThat(builder.orders()).containsExactly(build);

        builder.failing(true);
        controller.order("debian-12", "{\"build\": \"" + build + "\"}");
        JsonNode failed = controller.report(PATIENCE).body();
        assertThat(failed.get("status").stringValue()).isEqualTo("failed");
        assertThat(failed.get("detail").stringValue()).isEqualTo("simulated failure");
        assertThat(failed.has("sha256")).as("a failure names no archive").isFalse();
    }

    private HostSettings settings() {
        return HostSettings.of(node, "10.0.0.1", "debian-12", vhost.as(node), NatsSettings.of(Controller.NATS_URL)
                .withSubjectPrefix(prefix), RabbitVhost.USER).withFactsInterval(INTERVAL).withApplyTime(INTERVAL)
                .withCheckInterval(INTERVAL.dividedBy(2));
    }

    private SimulatedHost host(HostSettings settings) {
        SimulatedHost host = SimulatedHost.open(settings);
        opened.add(host);
        return host;
    }

    private static boolean allRunningWithChecks(JsonNode facts, int checks) {
        for (JsonNode process : facts.get("processes")) {
            if (!process.get("state").stringValue().equals("running") || process.get("checks").intValue() < checks) {
                return false;
            }
        }
        return true;
    }

    private static List<String> fieldNames(JsonNode object) {
        return List.copyOf(object.propertyNames());
    }

    /** A declaration as {@code compose --json} prints one, with every field. */
    private static String declaration(String node, String revision, String... processes) {
        StringBuilder list = new StringBuilder();
        for (String process : processes) {
            list.append(list.isEmpty() ? "" : ", ").append("{\"artifact\": {\"module\": \"").append(process)
                    .append("\", \"name\": \"").append(process).append("\", \"system\": \"debian-12\"}, \"env\": {},")
                    .append(" \"module\": \"").append(process).append("\", \"name\": \"").append(process)
                    .append("\", \"prepare\": null, \"replaces\": [], \"run\": [\"./").append(process)
                    .append("\"], \"user\": \"root\"}");
        }
        return "{\"accesses\": [], \"accounts\": [], \"containers\": [], \"directories\": [], \"node\": \"" + node
                + "\", \"processes\": [" + list + "], \"revision\": \"" + revision + "\", \"seats\": [],"
                + " \"secrets\": [], \"tools\": []}";
    }
}
