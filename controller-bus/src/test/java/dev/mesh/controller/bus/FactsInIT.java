package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.ProcessState;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Facts in from the real NATS at 127.0.0.1:4222, each test on a subject prefix of its own; the hosts'
 * side is plain jnats code, as a host in another language would write it.
 */
class FactsInIT {

    private static final String URL = "nats://127.0.0.1:4222";
    private static final String START = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server"
            + " -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log";
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private final String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private final CountingInventory inventory = new CountingInventory();
    private FactsIn in;
    private Connection host;

    @BeforeEach
    void start() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 4222), 2_000);
        } catch (IOException e) {
            fail("NATS does not answer at 127.0.0.1:4222 (" + e.getMessage() + "); start it: " + START);
        }
        in = FactsIn.start(NatsSettings.of(URL).withSubjectPrefix(prefix), inventory, Clock.systemUTC(),
                node -> !node.startsWith("rogue"));
        host = Nats.connect(URL);
    }

    @AfterEach
    void stop() throws Exception {
        host.close();
        in.close();
    }

    @Test
    void start_thousandFactsFromTenNodes_inventoryHoldsEachNodesLatest_inFewerWrites() throws Exception {
        for (int round = 0; round < 100; round++) {
            for (int n = 0; n < 10; n++) {
                publish("n" + n, facts("n" + n, "10.0.0." + n, round));
            }
        }
        host.flush(PATIENCE);

        assertThat(inventory.awaitReported(count -> count == 1_000, PATIENCE)).isTrue();
        assertThat(inventory.facts()).hasSize(10);
        for (int n = 0; n < 10; n++) {
            Facts latest = inventory.facts("n" + n).orElseThrow();
            assertThat(latest.at()).isEqualTo(T0.plusSeconds(99));
            assertThat(latest.node().address()).isEqualTo("10.0.0." + n);
            assertThat(latest.revision()).isEqualTo("sha256:99");
            assertThat(latest.processes()).containsExactly(new ProcessState("mesh-store",
                    ProcessState.State.RUNNING, T0, 99));
        }
        assertThat(inventory.reportCalls()).isLessThan(1_000 / 10);
        // The writer counts a batch after the inventory took it: closing waits for its thread, so the
        // counts are final.
        in.close();
        FactsIn.Counts counts = in.counts();
        assertThat(counts.received()).isEqualTo(1_000);
        assertThat(counts.written()).isEqualTo(1_000);
        assertThat(counts.dropped()).containsOnlyKeys(FactsIn.Drop.values()).allSatisfy((reason, n) ->
                assertThat(n).isZero());
    }

    @Test
    void start_subjectNamesAnotherNode_dropsAndCountsIt() throws Exception {
        publish("n2", facts("n1", "10.0.0.1", 1));
        publish("n3", facts("n3", "10.0.0.3", 1));
        host.flush(PATIENCE);

        // A host's messages arrive in order: once n3's is written, n2's was handled.
        assertThat(inventory.awaitReported(count -> count == 1, PATIENCE)).isTrue();
        assertThat(inventory.facts()).containsOnlyKeys("n3");
        assertThat(inventory.node("n1")).isEmpty();
        assertThat(in.counts().dropped(FactsIn.Drop.NODE_MISMATCH)).isEqualTo(1);
        assertThat(in.counts().received()).isEqualTo(2);
    }

    @Test
    void start_aNameOutsideTheGrammar_anAddressTooLong_andAFactFromTheFuture_areDropped_andTheNextGoodOneRecorded()
            throws Exception {
        // Injected (issue 23, findings 4 and 5): a node name of 300 characters, which the inventory's varchar(63)
        // refused and held every later fact behind; an address of 300, one with a NUL (a JSON escape, which
        // PostgreSQL's text refuses); facts for n2 dated 2099.
        String longName = "n".repeat(300);
        publish(longName, facts(longName, "10.0.0.9", 1));
        publish("n1", facts("n1", "1".repeat(300), 1));
        publish("n1", facts("n1", "10.0.0.1\\u0000", 1));
        publish("n2", facts("n2", "10.0.0.66", 1).replace(T0.plusSeconds(1).toString(), "2099-01-01T00:00:00Z"));
        publish("n2", facts("n2", "10.0.0.2", 1).replace(T0.plusSeconds(1).toString(),
                Instant.now().plusSeconds(10).toString()));
        publish("n3", facts("n3", "10.0.0.3", 1));
        host.flush(PATIENCE);

        // Seen: only the good ones written (n2's at a clock 10 s ahead is within the tolerance), each drop counted.
        assertThat(inventory.awaitReported(count -> count == 2, PATIENCE)).isTrue();
        assertThat(inventory.facts()).containsOnlyKeys("n2", "n3");
        assertThat(inventory.facts("n2").orElseThrow().node().address()).isEqualTo("10.0.0.2");
        assertThat(in.counts().dropped(FactsIn.Drop.BAD_NAME)).isEqualTo(1);
        assertThat(in.counts().dropped(FactsIn.Drop.UNREADABLE)).isEqualTo(2);
        assertThat(in.counts().dropped(FactsIn.Drop.FUTURE)).isEqualTo(1);
        assertThat(in.counts().received()).isEqualTo(6);
    }

    @Test
    void start_factsOfNamesNotKnown_areDropped_neverANode_andTheNextGoodOneRecorded() throws Exception {
        // Injected (issue 23, finding 5): 300 made-up node names announcing facts, on a NATS without authorization.
        for (int i = 0; i < 300; i++) {
            publish("rogue" + i, facts("rogue" + i, "10.6.6." + (i % 250), 1));
        }
        publish("n3", facts("n3", "10.0.0.3", 1));
        host.flush(PATIENCE);

        // Seen: none of them a node; the known one recorded.
        assertThat(inventory.awaitReported(count -> count == 1, PATIENCE)).isTrue();
        assertThat(inventory.facts()).containsOnlyKeys("n3");
        assertThat(inventory.nodes()).extracting(dev.mesh.controller.core.Node::name).containsExactly("n3");
        assertThat(in.counts().dropped(FactsIn.Drop.UNKNOWN)).isEqualTo(300);
    }

    @Test
    void start_bodyNotJson_dropsAndCountsIt_andKeepsTakingFacts() throws Exception {
        publish("n1", "not json {");
        publish("n1", "{\"node\": \"n1\"}");
        publish("n1", "{\"node\": \"n1\", \"address\": \"10.0.0.1\", \"system\": \"arch\", \"revision\": null,"
                + " \"processes\": [], \"at\": \"2026-12-01T10:00:00Z\", \"extra\": {\"ignored\": true}}");
        host.flush(PATIENCE);

        assertThat(inventory.awaitReported(count -> count == 1, PATIENCE)).isTrue();
        Facts facts = inventory.facts("n1").orElseThrow();
        assertThat(facts.revision()).isEmpty();
        assertThat(facts.processes()).isEmpty();
        in.close(); // the counts final, as above
        assertThat(in.counts().dropped(FactsIn.Drop.UNREADABLE)).isEqualTo(2);
        assertThat(in.counts().written()).isEqualTo(1);
    }

    private void publish(String subjectNode, String body) {
        host.publish(prefix + "mesh.nodes." + subjectNode + ".facts", body.getBytes(StandardCharsets.UTF_8));
    }

    private static String facts(String node, String address, int round) {
        return "{\"node\": \"" + node + "\", \"address\": \"" + address + "\", \"system\": \"arch\", \"revision\":"
                + " \"sha256:" + round + "\", \"processes\": [{\"name\": \"mesh-store\", \"state\": \"running\","
                + " \"since\": \"" + T0 + "\", \"checks\": " + round + "}], \"at\": \"" + T0.plusSeconds(round) + "\"}";
    }
}
