package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.store.PgIdentity;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.ServeEnvironment;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code status} of the mesh's controller shows the bus (core's {@code Wire}, the bus's {@link dev.mesh.controller.bus.BusWire}):
 * a message dead-lettered on the local RabbitMQ is counted in {@code mesh-controller.dead} and by the reports'
 * rejections, within one renewal of the snapshot. The controller as {@code serve} runs it, on three databases
 * of its own, a virtual host of its own and the local NATS.
 */
class MeshStatusIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Two renewals of the snapshot, and some. */
    private static final Duration PATIENCE = Assembly.STATUS_EVERY.multipliedBy(3);

    @TempDir
    Path dir;

    private RabbitVhost vhost;
    private MeshController controller;
    private BrokerUpstream caller;
    private int httpPort;

    @BeforeEach
    void start() throws IOException {
        vhost = RabbitVhost.create();
        Map<String, String> env = new HashMap<>(vhost.environment(dir));
        env.putAll(MeshEnvironment.stores(ServeEnvironment.in(dir), databases, (database, endpoint) -> { })
                .nats(MeshEnvironment.NATS_URL).variables());
        Config.Serve config = Config.forServe(env);
        PgIdentity identity = new PgIdentity(config.stores().identity().dataSource());
        identity.enroll("guest");
        identity.grant("guest", "status");
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            httpPort = free.getLocalPort();
        }
        controller = MeshController.start(config, Optional.of(McpHttpServer.Config.loopback(httpPort,
                BearerToken.random(), "local")));
        caller = BrokerUpstream.connect(config.broker().settings(config.certificate()), Duration.ofSeconds(20));
    }

    @AfterEach
    void stop() {
        if (caller != null) {
            caller.close();
        }
        if (controller != null) {
            controller.close();
        }
        vhost.close();
    }

    @Test
    void aReportWithoutUserId_isDeadLettered_andStatusCountsIt_inTheDeadQueueAndTheReportsRejections()
            throws InterruptedException {
        JsonNode before = status();
        assertThat(before.path("bus").path("broker").asString()).isEqualTo("ok");
        assertThat(before.path("bus").path("dead").asLong()).isZero();
        assertThat(before.at("/bus/reports/rejected/no-user-id").asLong()).isZero();
        assertThat(before.at("/bus/facts/received").isIntegralNumber()).isTrue();
        assertThat(before.at("/bus/events/failed").isObject()).isTrue();
        // Which member of each cluster the connections are on: here one broker, one NATS, one PostgreSQL.
        assertThat(before.at("/bus/brokerNode").asString()).isEqualTo("127.0.0.1:5672");
        assertThat(before.at("/bus/brokerRecoveries").asLong()).isZero();
        assertThat(before.at("/bus/facts/server").asString()).isEqualTo("nats://127.0.0.1:4222");
        assertThat(before.at("/bus/events/reconnections").asLong()).isZero();
        assertThat(before.at("/bus/store/primary").asString()).endsWith(":5432");
        assertThat(before.at("/bus/store/synchronous").asBoolean()).isFalse();

        vhost.python("channel.basic_publish('', 'mesh-controller.reports', b'{\"kind\": \"applied\"}', "
                + "pika.BasicProperties(delivery_mode=2))");

        JsonNode after = await(status -> status.path("bus").path("dead").asLong() == 1);
        assertThat(after.at("/bus/reports/received").asLong()).isEqualTo(1);
        assertThat(after.at("/bus/reports/rejected/no-user-id").asLong()).isEqualTo(1);
        assertThat(after.at("/bus/reports/accepted").asLong()).isZero();
        assertThat(vhost.queues("messages")).contains("mesh-controller.dead\t1");
    }

    /**
     * {@code /metrics} of the same controller (its {@code --http} listener) tells what {@code status} tells of the
     * connections: the member of each cluster they are on, and how often each was lost and made again.
     */
    @Test
    void metrics_showTheMemberEachConnectionIsOn_andTheReconnections() throws Exception {
        HttpResponse<String> scraped;
        try (HttpClient http = HttpClient.newHttpClient()) {
            scraped = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body().lines())
                .contains("mesh_controller_broker_recoveries_total 0.0",
                        "mesh_controller_nats_reconnections_total{connection=\"facts\"} 0.0",
                        "mesh_controller_nats_reconnections_total{connection=\"events\"} 0.0",
                        "mesh_controller_connected_member{connection=\"broker\",member=\"127.0.0.1:5672\"} 1.0",
                        "mesh_controller_connected_member{connection=\"nats_facts\",member=\"nats://127.0.0.1:4222\"} 1.0",
                        "mesh_controller_connected_member{connection=\"nats_events\",member=\"nats://127.0.0.1:4222\"} 1.0",
                        "mesh_controller_store_primary{member=\"127.0.0.1:5432\"} 1.0",
                        "mesh_controller_store_synchronous 0.0",
                        "mesh_controller_store_standbys 0.0",
                        "mesh_controller_store_failovers_total 0.0");
    }

    private JsonNode status() {
        Map<String, Object> request = Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call", "params",
                Map.of("name", "status", "arguments", Map.of()));
        JsonNode result = caller.exchange(JSON.valueToTree(request)).orElseThrow().path("result");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        return result.path("structuredContent");
    }

    private JsonNode await(java.util.function.Predicate<JsonNode> done) {
        return Awaitility.await("status").atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(this::status,
                done::test);
    }
}
