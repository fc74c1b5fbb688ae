package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Delivery;
import dev.mesh.controller.bus.BrokerSettings.Transport;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import dev.mesh.controller.testing.ClusterScript;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The broker as a cluster: three RabbitMQ 3.10 nodes on this machine ({@code bin/clusters/rabbitmq}), the
 * controller given all three addresses, the verbs queue a quorum queue with a member on each. The node that leads
 * {@code mesh-controller.verbs} is killed (SIGKILL of its Erlang VM), and the node the controller is connected to,
 * while a caller on another node sends requests with publisher confirms: every request the broker confirmed is
 * answered, and what the controller answers meanwhile is an answer or {@code unavailable}; with the leader killed
 * under a controller on another node, each is answered once.
 */
class BrokerClusterIT {

    private static final ClusterScript CLUSTER = ClusterScript.named("rabbitmq");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String STATUS = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"status\", \"arguments\": {}}}";
    /** Requests confirmed before the kill, and again after it. */
    private static final int EACH_SIDE = 40;

    private final Controllers controller = new Controllers();
    private final String vhost = "it-cluster-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<AutoCloseable> opened = new ArrayList<>();
    private List<Address> nodes;

    @BeforeEach
    void cluster() {
        nodes = Arrays.stream(CLUSTER.run("up").split(",")).map(text -> new Address(text.substring(0,
                text.lastIndexOf(':')), Integer.parseInt(text.substring(text.lastIndexOf(':') + 1)))).toList();
        CLUSTER.run("ctl", "1", "add_vhost", vhost);
        CLUSTER.run("ctl", "1", "set_permissions", "-p", vhost, RabbitVhost.USER, ".*", ".*", ".*");
        controller.identity.add(RabbitVhost.USER);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable each : opened.reversed()) {
            each.close();
        }
        // Through a node that runs; the next test's up starts the one killed (the last test's: the down does).
        CLUSTER.run("ctl", CLUSTER.run("running").split(" ")[0], "delete_vhost", vhost);
    }

    @AfterAll
    static void down() {
        CLUSTER.launch("down");
    }

    @Test
    void theVerbsQueuesLeaderKilled_everyConfirmedRequestIsAnsweredOnce() throws Exception {
        // The queues declared through node 1, which then leads them; the controller and the caller on the others.
        try (Broker declaring = Broker.connect(settings(nodes.getFirst()), "it-topology")) {
            Topology.declare(declaring);
        }
        int leader = Integer.parseInt(CLUSTER.run("leader", Caller.VERBS, vhost));
        List<Address> leaderLast = new ArrayList<>(nodes);
        leaderLast.add(leaderLast.remove(leader - 1));
        Broker broker = open(Broker.connect(settings(leaderLast.toArray(Address[]::new)), "it-controller"));
        serve(broker);
        Caller caller = open(new Caller(leaderLast.getFirst().port(), vhost, RabbitVhost.USER, "guest"));

        Load load = load(caller, () -> CLUSTER.run("kill", Integer.toString(leader)));

        String newLeader = CLUSTER.run("leader", Caller.VERBS, vhost);
        // The controller's connection is on another node; it may still be recovered once (a node restarted just
        // before the test can drop its connections while it rejoins), so its recoveries are shown, not asserted.
        System.out.printf("BrokerClusterIT: injected SIGKILL of node %d (leader of %s); saw %s, leader now node %s, "
                + "the controller's connection on %s after %d recoveries%n", leader, Caller.VERBS, load, newLeader,
                broker.node(), broker.recoveries());
        assertThat(load.replies().keySet()).as("every request the broker confirmed, answered")
                .containsAll(load.confirmed());
        assertThat(load.replies()).as("no request answered twice").allSatisfy((id, count) -> assertThat(count)
                .isOne());
        assertThat(load.outcomes()).as("answered, or refused as unavailable").allMatch(outcome -> outcome.equals(
                "answered") || outcome.equals("unavailable"));
        assertThat(newLeader).as("a new leader").isNotEqualTo(Integer.toString(leader));
    }

    @Test
    void theNodeTheControllerIsOnKilled_itsConnectionMovesToAnother_andEveryConfirmedRequestIsAnswered()
            throws Exception {
        Broker broker = open(Broker.connect(settings(nodes.toArray(Address[]::new)), "it-controller"));
        Topology.declare(broker);
        List<String> moves = new CopyOnWriteArrayList<>();
        broker.onRecovery((from, to) -> moves.add(from + " -> " + to));
        String before = broker.node();
        int victim = nodes.stream().map(Address::text).toList().indexOf(before) + 1;
        serve(broker);
        Caller caller = open(new Caller(nodes.get(victim % 3).port(), vhost, RabbitVhost.USER, "guest"));

        Load load = load(caller, () -> CLUSTER.run("kill", Integer.toString(victim)));

        System.out.printf("BrokerClusterIT: injected SIGKILL of node %d (the controller's, leader of %s); saw %s, the "
                + "controller's connection moved %s%n", victim, Caller.VERBS, load, moves);
        assertThat(load.replies().keySet()).as("every request the broker confirmed, answered")
                .containsAll(load.confirmed());
        assertThat(load.outcomes()).as("answered, or refused as unavailable").allMatch(outcome -> outcome.equals(
                "answered") || outcome.equals("unavailable"));
        assertThat(broker.node()).as("status: the member it is on now").isNotEqualTo(before);
        assertThat(broker.recoveries()).as("status and /metrics: one recovery").isOne();
        assertThat(moves).as("the failover, told once").containsExactly(before + " -> " + broker.node());
    }

    /** What a caller sent and got back: the requests the broker confirmed, the replies by correlation id. */
    private record Load(Set<String> confirmed, int unconfirmed, Map<String, Integer> replies, List<String> outcomes) {
        @Override
        public String toString() {
            return confirmed.size() + " requests confirmed, " + unconfirmed + " not confirmed, " + outcomes.size()
                    + " replies (" + outcomes.stream().filter("answered"::equals).count() + " answered, "
                    + replies.values().stream().filter(count -> count > 1).count() + " requests answered twice)";
        }
    }

    /**
     * Sends {@code status} requests with publisher confirms, one at a time, {@value #EACH_SIDE} confirmed before the
     * fault and as many after it; then reads the replies until every confirmed request has one (30 s at most), and
     * a second more for any late or second reply.
     */
    private static Load load(Caller caller, Runnable fault) throws Exception {
        caller.channel().confirmSelect();
        Set<String> confirmed = new LinkedHashSet<>();
        int unconfirmed = 0;
        for (int sent = 0; confirmed.size() < 2 * EACH_SIDE; sent++) {
            if (confirmed.size() == EACH_SIDE && sent == confirmed.size() + unconfirmed) {
                fault.run();
            }
            String id = "r-" + sent;
            caller.send(caller.request(id).correlationId(id).build(), STATUS);
            try {
                if (caller.channel().waitForConfirms(5_000)) {
                    confirmed.add(id);
                } else {
                    unconfirmed++;
                }
            } catch (TimeoutException e) {
                unconfirmed++;
            }
        }
        Map<String, Integer> replies = new HashMap<>();
        List<String> outcomes = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!replies.keySet().containsAll(confirmed) && System.nanoTime() < deadline) {
            Delivery reply = caller.poll(500);
            if (reply != null) {
                replies.merge(reply.getProperties().getCorrelationId(), 1, Integer::sum);
                outcomes.add(outcome(reply));
            }
        }
        for (Delivery late = caller.poll(1_000); late != null; late = caller.poll(500)) {
            replies.merge(late.getProperties().getCorrelationId(), 1, Integer::sum);
            outcomes.add(outcome(late));
        }
        return new Load(confirmed, unconfirmed, replies, outcomes);
    }

    private void serve(Broker broker) {
        open(BrokerVerbs.start(broker, controller.verbs, controller.identity, Controllers.VERSION,
                controller.lifecycle));
    }

    private static String outcome(Delivery reply) {
        JsonNode body = JSON.readTree(new String(reply.getBody(), StandardCharsets.UTF_8));
        if (body.has("result") && !body.at("/result/isError").asBoolean()) {
            return "answered";
        }
        return body.at("/error/data/code").asString(body.toString());
    }

    private BrokerSettings settings(Address... addresses) {
        return new BrokerSettings(List.of(addresses), vhost, RabbitVhost.USER, Secret.of("guest"), Transport.PLAIN);
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }
}
