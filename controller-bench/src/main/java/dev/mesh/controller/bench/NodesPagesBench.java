package dev.mesh.controller.bench;

import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.system.Loopback;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 25: {@code nodes} a page at a time over the broker at 100,000 nodes, each page's p99 ≤ 100 ms.
 *
 * <p>{@link BenchStore} holds {@code --nodes} nodes of {@link SyntheticMesh} (its modules and assignments, a tenth of
 * the modules claiming seats) and every node's facts, as if each host had reported (so every entry has its
 * revision and last seen time). {@link BrokerVerbs} (the controller's transport), the verbs built by the
 * controller's one {@link Assembly}, answers on the local RabbitMQ. One caller (plain {@code amqp-client}, as
 * {@link BrokerVerbsBench}'s) walks the whole mesh: {@code nodes} with {@code limit} {@code --limit}, then with
 * {@code after} each answer's {@code next} until there is none; every page's call is timed, from the publish to the
 * reply. {@code --warmup} walks first, then {@code --walks} walks measured. Each walk is checked: every node once,
 * in order.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.bench.NodesPagesBench [--nodes 100000] [--limit 1000] [--walks 5]
 *     [--warmup 2]
 * </pre>
 */
public final class NodesPagesBench {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Facts recorded per call of the inventory, as the bus hands them over. */
    private static final int FACTS_PER_REPORT = 1_000;

    private NodesPagesBench() {
    }

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        int nodes = Loopback.option(args, "nodes", 100_000);
        int limit = Loopback.option(args, "limit", 1_000);
        int walks = Loopback.option(args, "walks", 5);
        int warmup = Loopback.option(args, "warmup", 2);
        long loading = System.nanoTime();
        try (BenchStore store = BenchStore.create(nodes); Loopback loopback = Loopback.open()) {
            report(store.inventory());
            System.out.printf(Locale.ROOT, "nodes pages over the broker: %,d nodes loaded with their facts in %.1f s; "
                    + "pages of %,d, %d walks after %d warm-up walks; virtual host %s%n", nodes,
                    (System.nanoTime() - loading) / 1e9, limit, walks, warmup, loopback.vhost());
            Lifecycle lifecycle = LocalLifecycle.active(store.lock(), "bench", Clock.systemUTC());
            try (Assembly assembly = Assembly.of(new Verbs.Ports(store.inventory(), Licences.NONE, lifecycle,
                    new MemoryEvents(), RequestRecords.NONE, Layout.DEFAULT, Clock.systemUTC()), Identity.ANYONE,
                    "bench");
                    Broker broker = Broker.connect(loopback.broker(), "bench-controller")) {
                Topology.declare(broker);
                BrokerVerbs verbs = BrokerVerbs.start(broker, assembly.verbs(), Identity.ANYONE, "bench", lifecycle);
                String user = loopback.addCaller("bench-caller-" + loopback.vhost().substring("mesh-bench-".length()));
                try (BrokerCaller caller = new BrokerCaller(loopback.connect("bench-caller", user, user), user)) {
                    for (int w = 0; w < warmup; w++) {
                        walk(caller, limit, nodes, null);
                    }
                    List<Long> pages = new ArrayList<>();
                    List<Long> wholeWalks = new ArrayList<>();
                    for (int w = 0; w < walks; w++) {
                        long start = System.nanoTime();
                        walk(caller, limit, nodes, pages);
                        wholeWalks.add(System.nanoTime() - start);
                    }
                    print(Loopback.Latencies.of(pages), Loopback.Latencies.of(wholeWalks), limit);
                } finally {
                    verbs.close();
                }
            }
        }
    }

    /** Records facts for every node, a revision and now as when it was last seen, a batch at a time. */
    private static void report(PgInventory inventory) {
        Instant now = Instant.now();
        List<Facts> batch = new ArrayList<>();
        for (Node node : inventory.nodes()) {
            batch.add(new Facts(node, "sha256:" + "0".repeat(64), List.of(), now));
            if (batch.size() == FACTS_PER_REPORT) {
                inventory.report(batch);
                batch.clear();
            }
        }
        inventory.report(batch);
    }

    /**
     * Walks every page once, checking that every node comes once and in order.
     *
     * @param times where each page's time is added, or {@code null} not to keep them
     */
    private static void walk(BrokerCaller caller, int limit, int nodes, List<Long> times) throws Exception {
        String after = null;
        String last = "";
        int seen = 0;
        do {
            ObjectNode arguments = JSON.createObjectNode().put("limit", limit);
            if (after != null) {
                arguments.put("after", after);
            }
            ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1)
                    .put("method", "tools/call");
            request.putObject("params").put("name", "nodes").set("arguments", arguments);
            byte[] body = JSON.writeValueAsBytes(request);
            long start = System.nanoTime();
            byte[] reply = caller.call(Topology.VERBS, body);
            long took = System.nanoTime() - start;
            if (times != null) {
                times.add(took);
            }
            JsonNode result = JSON.readTree(reply).path("result");
            if (result.path("isError").asBoolean(true)) {
                throw new IllegalStateException("nodes failed: " + new String(reply, 0, Math.min(400, reply.length),
                        StandardCharsets.UTF_8));
            }
            JsonNode answer = result.path("structuredContent");
            for (JsonNode node : answer.path("nodes")) {
                String name = node.path("name").asString();
                if (name.compareTo(last) <= 0) {
                    throw new IllegalStateException("node " + name + " came after " + last + ": pages out of order");
                }
                last = name;
                seen++;
            }
            after = answer.path("next").asString(null);
        } while (after != null);
        if (seen != nodes) {
            throw new IllegalStateException("a walk saw " + seen + " nodes of " + nodes);
        }
    }

    private static void print(Loopback.Latencies pages, Loopback.Latencies walks, int limit) {
        System.out.println();
        System.out.println(Loopback.Latencies.header());
        System.out.println(pages.row("`nodes` page of " + String.format(Locale.ROOT, "%,d", limit)));
        System.out.println(walks.row("every page, one after the other"));
        System.out.printf(Locale.ROOT, "page p99 = %.1f ms; target <= 100 ms: %s%n", pages.quantileMs(0.99),
                Loopback.met(pages.quantileMs(0.99) <= 100));
    }
}
