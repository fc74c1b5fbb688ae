package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.testing.ClusterScript;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bus as a cluster: three NATS servers routed together on this machine ({@code bin/clusters/nats}), the
 * controller's facts and events connections given all three. The servers the controller's connections are on (one
 * or two of the three) are killed (SIGKILL); facts published after it keep reaching the inventory (from a host
 * given every server, and from one on the server that stays), events keep reaching a listener there, and the events
 * connection's move is an event of its own ({@code failover}).
 */
class NatsClusterIT {

    private static final ClusterScript CLUSTER = ClusterScript.named("nats");
    /** The servers' monitoring ports: the client port's plus 4000 (bin/clusters/nats). */
    private static final int MONITORING_OFFSET = 4000;
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private final String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private final CountingInventory inventory = new CountingInventory();
    private final HttpClient http = HttpClient.newHttpClient();
    private String servers;
    private FactsIn in;
    private NatsEvents events;
    private final List<Connection> hosts = new ArrayList<>();

    @BeforeEach
    void start() {
        servers = CLUSTER.run("up");
        NatsSettings settings = NatsSettings.of(servers).withSubjectPrefix(prefix);
        in = FactsIn.start(settings, inventory, Clock.systemUTC(), node -> true);
        events = NatsEvents.start(settings, () -> NatsEventsTest.STATUS, Clock.systemUTC());
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Connection host : hosts) {
            host.close();
        }
        events.close();
        in.close();
        CLUSTER.run("up");
    }

    @AfterAll
    static void down() {
        CLUSTER.run("down");
    }

    @Test
    void theServersTheControllerIsOnKilled_factsKeepArriving_andEventsKeepGoingOut() throws Exception {
        int factsOn = serverOf("mesh-controller facts");
        int eventsOn = serverOf("mesh-controller events");
        // The listener and a host on the server that stays: the controller's connections are on the others.
        int survivor = IntStream.rangeClosed(1, 3).filter(server -> server != factsOn && server != eventsOn)
                .findFirst().orElseThrow();
        // Hosts: one given every server (as the lab's are), one on a server that stays.
        Connection anyServer = host(Nats.connect(new Options.Builder().server(servers).build()));
        Connection pinned = host(Nats.connect(url(survivor)));
        Connection listener = host(Nats.connect(url(survivor)));
        Subscription mesh = listener.subscribe(prefix + "mesh.events.>");
        listener.flush(PATIENCE);
        publishFacts(anyServer, "n1", 1);
        publishFacts(pinned, "n2", 1);
        assertThat(inventory.awaitReported(count -> count >= 2, PATIENCE)).isTrue();

        CLUSTER.run("kill", Integer.toString(factsOn));
        if (eventsOn != factsOn) {
            CLUSTER.run("kill", Integer.toString(eventsOn));
        }

        // Core NATS delivers at most once: what is published while the controller reconnects may be lost, so
        // the hosts publish every round until a round after the kill is in the inventory.
        int[] round = {1};
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
            round[0]++;
            publishFacts(anyServer, "n1", round[0]);
            publishFacts(pinned, "n2", round[0]);
            return latest("n1") >= 2 && latest("n2") >= 2;
        });
        // An event published after the kill reaches the listener; when the events connection was on the killed
        // server, its move is an event of its own (failover), published once it is back.
        List<String> heard = new ArrayList<>();
        for (int sent = 0; heard.stream().noneMatch(body -> body.contains("\"after\":\"the kill\"")) && sent < 20;
                sent++) {
            events.publish("plan", Map.of("after", "the kill", "try", sent));
            for (Message m = mesh.nextMessage(Duration.ofSeconds(1)); m != null; m = mesh.nextMessage(
                    Duration.ofMillis(100))) {
                heard.add(new String(m.getData(), StandardCharsets.UTF_8));
            }
        }
        System.out.printf("NatsClusterIT: injected SIGKILL of nats-server %d (the controller's facts connection's; "
                + "events' on %d, killed too); saw facts of round %d in the inventory, events %s on server %d, facts connection "
                + "now on %d%n", factsOn, eventsOn, round[0], heard, survivor, serverOf("mesh-controller facts"));
        assertThat(heard).as("an event published after the kill, heard on server " + survivor)
                .anyMatch(body -> body.contains("\"after\":\"the kill\""));
        assertThat(heard).as("the events connection's move, an event").anyMatch(body -> body.contains(
                "\"kind\":\"failover\"") && body.contains("\"of\":\"nats\"") && body.contains("\"from\":\""
                + url(eventsOn) + "\""));
        assertThat(events.server()).as("status: the server the events connection is on, a live one")
                .isNotIn(url(factsOn), url(eventsOn)).isIn((Object[]) servers.split(","));
        assertThat(serverOf("mesh-controller facts")).as("the facts connection moved to a live server")
                .isNotEqualTo(factsOn);
        assertThat(in.server()).as("status: the server the facts connection is on").isNotEqualTo(url(factsOn))
                .isIn((Object[]) servers.split(","));
        assertThat(in.reconnections()).as("status and /metrics: its reconnections (two when it moved to the server "
                + "killed next)").isBetween(1L, 2L);
        assertThat(events.counts().failed()).as("no event refused or discarded").allSatisfy((why, n) ->
                assertThat(n).isZero());
    }

    private Connection host(Connection connection) {
        hosts.add(connection);
        return connection;
    }

    private long latest(String node) {
        return inventory.facts(node).map(facts -> facts.at().getEpochSecond() - T0.getEpochSecond()).orElse(-1L);
    }

    private void publishFacts(Connection host, String node, int round) {
        host.publish(prefix + "mesh.nodes." + node + ".facts", ("{\"node\": \"" + node + "\", \"address\": "
                + "\"10.0.0.1\", \"system\": \"arch\", \"revision\": \"sha256:" + round + "\", \"processes\": [], "
                + "\"at\": \"" + T0.plusSeconds(round) + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private String url(int server) {
        return servers.split(",")[server - 1];
    }

    /** @return the server (1 to 3) a connection of that name is on, by the servers' monitoring ({@code /connz}) */
    private int serverOf(String connection) throws Exception {
        for (int server = 1; server <= 3; server++) {
            URI uri = URI.create(url(server));
            URI connz = URI.create("http://" + uri.getHost() + ":" + (uri.getPort() + MONITORING_OFFSET) + "/connz");
            HttpResponse<String> response;
            try {
                response = http.send(HttpRequest.newBuilder(connz).build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException down) {
                continue;
            }
            JsonNode connections = JsonMapper.builder().build().readTree(response.body()).path("connections");
            for (JsonNode each : connections) {
                if (connection.equals(each.path("name").asString())) {
                    return server;
                }
            }
        }
        throw new AssertionError("no server of " + servers + " has a connection named \"" + connection + "\"");
    }
}
