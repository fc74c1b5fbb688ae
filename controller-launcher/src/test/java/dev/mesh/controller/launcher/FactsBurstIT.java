package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.FactsIn;
import dev.mesh.controller.bus.NatsSettings;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.TestDatabases;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A burst of facts from 10,000 nodes at once, from NATS into the real store: {@code FactsIn} on the local
 * NATS (a subject prefix of its own) writing into {@code PgInventory} on a migrated inventory database of
 * its own. Here in the launcher because the bus must not depend on the store.
 *
 * <p>The hosts' side speaks NATS's text protocol on a plain socket ({@code CONNECT}, {@code PUB},
 * {@code PING}/{@code PONG}), as the smallest host in another language would: no client library is
 * needed, and the launcher declares none of its own (jnats reaches it only through the bus).
 */
class FactsBurstIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final int NODES = 10_000;
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final Instant BEFORE = Instant.parse("2026-12-01T09:00:00Z");
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    private final String prefix = "it-burst-" + UUID.randomUUID().toString().substring(0, 8) + ".";

    @Test
    void tenThousandNodesAtOnce_allWrittenWithTheirLatestFacts_noneDropped_noBacklog() throws Exception {
        try (ConnectionPool pool = ConnectionPool.open(databases.migrated(Database.INVENTORY), 8)) {
            PgInventory inventory = new PgInventory(pool.dataSource());
            // Every node known already, with older facts: the burst must replace each one's.
            List<Facts> older = new ArrayList<>();
            for (int n = 0; n < NODES; n++) {
                older.add(new Facts(new Node(node(n), "10.1.0.1", "debian-12"), "", List.of(), BEFORE));
            }
            inventory.report(older);

            FactsIn in = FactsIn.start(NatsSettings.of(MeshEnvironment.NATS_URL).withSubjectPrefix(prefix), inventory,
                    Clock.systemUTC(), node -> true);
            long started = System.nanoTime();
            FactsIn.Counts counts;
            try {
                publishAll();
                try {
                    Awaitility.await("all written").atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                            .until(() -> in.counts().written() >= NODES);
                } catch (ConditionTimeoutException e) {
                    // Told below with the counts: how far it came.
                }
                counts = in.counts();
                // Written equals received: nothing waits in the writer's queue or in a held batch.
                assertThat(counts.received()).as("received, " + counts).isEqualTo(NODES);
                assertThat(counts.written()).as("written within " + PATIENCE.toSeconds() + " s, " + counts)
                        .isEqualTo(NODES);
                assertThat(counts.dropped()).containsOnlyKeys(FactsIn.Drop.values())
                        .allSatisfy((reason, dropped) -> assertThat(dropped).as(reason.label()).isZero());
            } finally {
                in.close();
            }
            System.out.printf("FactsBurstIT: %d nodes' facts in the store %d ms after the first was published%n",
                    NODES, Duration.ofNanos(System.nanoTime() - started).toMillis());
            assertThat(in.counts().written()).as("nothing more written on close: no backlog").isEqualTo(NODES);

            Map<String, Facts> stored = inventory.facts();
            assertThat(stored).hasSize(NODES);
            for (int n = 0; n < NODES; n++) {
                Facts facts = stored.get(node(n));
                assertThat(facts).as(node(n)).isNotNull();
                assertThat(facts.at()).as(node(n)).isEqualTo(AT.plusMillis(n % 1000));
                assertThat(facts.node()).isEqualTo(new Node(node(n), address(n), "debian-12"));
                assertThat(facts.revision()).isEqualTo("sha256:" + n);
                assertThat(facts.processes()).containsExactly(new ProcessState("app-" + n,
                        ProcessState.State.RUNNING, AT, n % 7));
            }
        }
    }

    @Test
    void tenThousandNodesReportingAgain_theirRepeatedFactsMoveTheirLastSeenTimeAlone_theChangedOnesWrittenWhole()
            throws Exception {
        try (ConnectionPool pool = ConnectionPool.open(databases.migrated(Database.INVENTORY), 8)) {
            PgInventory inventory = new PgInventory(pool.dataSource());
            FactsIn in = FactsIn.start(NatsSettings.of(MeshEnvironment.NATS_URL).withSubjectPrefix(prefix), inventory,
                    Clock.systemUTC(), node -> true);
            Instant again = AT.plusSeconds(5);
            try {
                publishAll(FactsBurstIT::facts);
                awaitWritten(in, NODES);
                // Five seconds on: every 100th node applied a new revision; the others repeat, their checks past 2
                // counted up, which is no change.
                publishAll(n -> n % 100 == 0 ? facts(n, again, "sha256:new-" + n, n % 7)
                        : facts(n, again, "sha256:" + n, n % 7 < 2 ? n % 7 : n % 7 + 40));
                awaitWritten(in, 2 * NODES);
                FactsIn.Counts counts = in.counts();
                assertThat(counts.unchanged()).as("unchanged, " + counts).isEqualTo(NODES - NODES / 100);
                assertThat(counts.dropped()).allSatisfy((reason, dropped) -> assertThat(dropped).as(reason.label())
                        .isZero());
            } finally {
                in.close();
            }

            Map<String, Facts> stored = inventory.facts();
            assertThat(stored).hasSize(NODES);
            for (int n = 0; n < NODES; n++) {
                Facts facts = stored.get(node(n));
                assertThat(facts.at()).as(node(n)).isEqualTo(again.plusMillis(n % 1000));
                assertThat(facts.revision()).as(node(n)).isEqualTo(n % 100 == 0 ? "sha256:new-" + n : "sha256:" + n);
                assertThat(facts.processes()).as("%s: the checks as last written whole", node(n)).containsExactly(
                        new ProcessState("app-" + n, ProcessState.State.RUNNING, AT, n % 7));
            }
        }
    }

    private static void awaitWritten(FactsIn in, long count) {
        try {
            Awaitility.await("all written").atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                    .until(() -> in.counts().written() >= count);
        } catch (ConditionTimeoutException e) {
            // Told below with the counts: how far it came.
        }
        assertThat(in.counts().written()).as("written within " + PATIENCE.toSeconds() + " s, " + in.counts())
                .isEqualTo(count);
    }

    /** Publishes every node's facts on one connection as fast as the socket takes them, then waits for PONG. */
    private void publishAll() throws IOException {
        publishAll(FactsBurstIT::facts);
    }

    /** Publishes {@code facts} of every node on one connection as fast as the socket takes them, then waits for PONG. */
    private void publishAll(IntFunction<String> facts) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 4222), 2_000);
            socket.setSoTimeout((int) PATIENCE.toMillis());
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(in.readLine()).as("the server's INFO").startsWith("INFO ");
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            out.write("CONNECT {\"verbose\":false,\"pedantic\":false,\"name\":\"it-burst\"}\r\n"
                    .getBytes(StandardCharsets.UTF_8));
            for (int n = 0; n < NODES; n++) {
                byte[] body = facts.apply(n).getBytes(StandardCharsets.UTF_8);
                out.write(("PUB " + prefix + "mesh.nodes." + node(n) + ".facts " + body.length + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.write(body);
                out.write("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write("PING\r\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            // The server handles a connection's messages in order: its PONG means it took every PUB.
            for (String line = in.readLine(); !"PONG".equals(line); line = in.readLine()) {
                assertThat(line).as("the server's answer to the burst").isNotNull().doesNotStartWith("-ERR");
            }
        }
    }

    private static String node(int n) {
        return "burst-" + n;
    }

    private static String address(int n) {
        return "10.2." + n / 256 + "." + n % 256;
    }

    private static String facts(int n) {
        return facts(n, AT, "sha256:" + n, n % 7);
    }

    private static String facts(int n, Instant at, String revision, int checks) {
        return "{\"node\": \"" + node(n) + "\", \"address\": \"" + address(n) + "\", \"system\": \"debian-12\", "
                + "\"revision\": \"" + revision + "\", \"processes\": [{\"name\": \"app-" + n + "\", \"state\": "
                + "\"running\", \"since\": \"" + AT + "\", \"checks\": " + checks + "}], \"at\": \""
                + at.plusMillis(n % 1000) + "\"}";
    }
}
