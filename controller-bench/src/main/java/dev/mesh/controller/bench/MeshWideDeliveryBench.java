package dev.mesh.controller.bench;

import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerDeliveries;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.NatsEvents;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.execute.Executor;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgRequestRecords;
import dev.mesh.controller.system.Loopback;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 25: a change that touches every node delivered to 10,000 nodes' queues, the time until the last one
 * is delivered beside the publish-and-confirm floor for the same messages.
 *
 * <p>The mesh-wide change is a new version of the module every node runs: the mesh's declarations never carry
 * a secret's value (docs/design.md section 5), so a secret rotated is not the controller's change, while a
 * module held on every node — here {@code mesh-host}, claiming the node seat {@code mesh-host} as
 * {@code examples/modules/mesh-host.json} does, its process referring to the mesh seat {@code seat-5} as the
 * host refers to the broker's — is in every node's declaration, and its new version changes each one. A new
 * version runs a new artifact, so it is built before anything is delivered (docs/execution.md): the push plans
 * the build, a round orders it, the builder's report comes back, and the next round delivers every node.
 *
 * <p>{@link BenchStore} holds {@code --nodes} nodes of {@link SyntheticMesh} (5 to 10 of its 50 modules each) and
 * {@code mesh-host} {@code 0.1.0} on every node. The controller is wired as {@code serve} wires it (launcher's
 * {@code MeshController}): the fenced {@code PgInventory}, {@link Execution} with the real {@link BrokerDeliveries}
 * on a virtual host of its own and {@link NatsEvents}, the {@link Executor} (tick 500 ms, {@code serve}'s), the
 * verbs of one {@link Assembly} with the fenced request records, their events asking the executor for a round,
 * and {@link BrokerVerbs}. Builds go to a stub whose orders a thread of the driver reports succeeded through
 * {@link Executor#record}, as {@code ReportsIn} hands a builder's report over. The mesh is first brought to its
 * steady state by the execution's own rounds: its queues declared ({@code mesh-host.<node>}, by the real
 * transport's {@code prepare}), every build finished, every node's declaration delivered through the broker,
 * consumed, acknowledged, every node reporting its processes running.
 *
 * <p>Each of {@code --repeats} repetitions: every node's facts reported afresh; {@code push} of the next version
 * of {@code mesh-host} over the broker (a plain caller, as an operator's CLI); the time from its reply until the
 * last node's queue has delivered its new declaration to that node's consumer ({@link HostQueues}: a consumer on
 * every queue, the time taken in its callback), with each node's time from the reply; every node then checked to
 * have exactly one new message, of the revision the store records as delivered, not the one before, running the
 * new version pinned to its build; then every node acknowledges it. Then the floor ({@link ConfirmFloor}): the same
 * bodies and headers published to the same queues by the plain client, one at a time and then streamed, each timed
 * to its last confirm and to the last arrival, and checked the same way (one message per node).
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.bench.MeshWideDeliveryBench [--nodes 10000] [--repeats 3]
 * </pre>
 */
public final class MeshWideDeliveryBench {

    static final String HOST_MODULE = "mesh-host";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration WAIT = Duration.ofMinutes(15);
    private static final int CONSUMER_CHANNELS = 16;

    private MeshWideDeliveryBench() {
    }

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails, or a check does
     */
    public static void main(String[] args) throws Exception {
        int nodes = Loopback.option(args, "nodes", 10_000);
        int repeats = Loopback.option(args, "repeats", 3);
        long loading = System.nanoTime();
        try (BenchStore store = BenchStore.create(nodes, SyntheticMesh::document); Loopback loopback = Loopback.open()) {
            Mesh mesh = SyntheticMesh.of(nodes);
            addHostModule(store, mesh);
            System.out.printf(Locale.ROOT, "mesh-wide delivery: %,d nodes loaded in %.1f s; virtual host %s%n", nodes,
                    (System.nanoTime() - loading) / 1e9, loopback.vhost());
            Clock clock = Clock.systemUTC();
            Lifecycle lifecycle = LocalLifecycle.active(store.lock(), "bench", clock);
            try (Broker broker = Broker.connect(loopback.broker(), "bench-controller")) {
                Topology.declare(broker);
                new MeshWideDeliveryBench.Run(store, loopback, broker, lifecycle, mesh, clock).run(repeats);
            }
        }
    }

    /** The manifest of {@code mesh-host} at {@code version}. */
    static String hostManifest(String version) {
        return """
                {"module": "mesh-host", "version": "%s",
                 "claims": [{"name": "mesh-host", "scope": "node"}],
                 "own-secrets": {"broker-address": "${dir:secrets}/broker-address.json",
                                 "bus-nats": "${dir:secrets}/bus-nats.json"},
                 "secrets-owner": "root",
                 "accesses": [{"path": "/var/lib/mesh", "mode": "write"}, {"path": "/etc/os-release", "mode": "read"}],
                 "resources": [
                  {"id": "state", "type": "directory", "mode": "0700", "owner": "root"},
                  {"id": "secrets", "type": "directory", "mode": "0700", "owner": "root"},
                  {"id": "host", "type": "process", "name": "mesh-host", "artifact": "host", "user": "root",
                   "run": ["./mesh-host", "run"],
                   "env": {"MESH_HOST_NODE": "${node:name}", "MESH_HOST_VERSION": "${module:version}",
                           "MESH_HOST_STATE": "${dir:state}", "MESH_HOST_BROKER_ADDRESS_FILE": "${secret:broker-address}",
                           "MESH_HOST_BROKER_ADDRESS_PORT": "${seat:seat-5:5671}",
                           "MESH_HOST_BUS_NATS_FILE": "${secret:bus-nats}"}}],
                 "build": {"artifacts": [{"name": "host", "kind": "bundle", "language": "go", "system": "debian-12",
                   "from": "cmd/mesh-host", "binary": "mesh-host"}]}}
                """.formatted(version);
    }

    /** Pushes {@code mesh-host} 0.1.0 and assigns it to every node, in one batch. */
    private static void addHostModule(BenchStore store, Mesh mesh) throws Exception {
        store.inventory().push(ModuleVersion.parse(hostManifest("0.1.0"), "mesh-host.json"));
        try (Connection connection = store.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO assignments (node, module) VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            for (Node node : mesh.nodes()) {
                insert.setString(1, node.name());
                insert.setString(2, HOST_MODULE);
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    /** One run: the controller, the hosts' consumers, the repetitions. */
    private static final class Run {

        private final BenchStore store;
        private final PgInventory pg;
        private final Loopback loopback;
        private final Broker broker;
        private final Lifecycle lifecycle;
        private final long epoch;
        private final Mesh mesh;
        private final Clock clock;
        private final List<String> names;
        private final Map<String, Set<String>> processes = new HashMap<>();
        /** Each node's acknowledged revision. */
        private final Map<String, String> revisions = new HashMap<>();
        private final BlockingQueue<BuildOrder> orders = new LinkedBlockingQueue<>();
        private final List<Result> results = new ArrayList<>();

        Run(BenchStore store, Loopback loopback, Broker broker, Lifecycle lifecycle, Mesh mesh, Clock clock) {
            this.store = store;
            this.pg = store.inventory();
            this.loopback = loopback;
            this.broker = broker;
            this.lifecycle = lifecycle;
            this.epoch = lifecycle.status().epoch();
            this.mesh = mesh;
            this.clock = clock;
            this.names = mesh.nodes().stream().map(Node::name).sorted().toList();
            for (Assignment assignment : mesh.assignments()) {
                processes.computeIfAbsent(assignment.node(), n -> new TreeSet<>())
                        .add("proc-" + assignment.module().substring("mod-".length()));
            }
            names.forEach(node -> processes.computeIfAbsent(node, n -> new TreeSet<>()).add(HOST_MODULE));
        }

        void run(int repeats) throws Exception {
            RoundTimes times = new RoundTimes(pg);
            Builders builders = (order, ignored) -> orders.add(order);
            // Connected before the steady state: while 10,000 quorum queues take their first messages the broker
            // may not answer a new connection's handshake within the client's 10 s.
            String user = loopback.addCaller("bench-operator-" + loopback.vhost().substring("mesh-bench-".length()));
            NatsEvents natsEvents = NatsEvents.start(loopback.nats(), lifecycle::status, clock);
            try (BrokerDeliveries deliveries = new BrokerDeliveries(broker);
                    BrokerCaller operator = new BrokerCaller(loopback.connect("bench-operator", user, user), user);
                    HostQueues hosts = HostQueues.of(loopback.connect("bench-hosts"), names);
                    com.rabbitmq.client.Connection floor = loopback.connect("bench-floor")) {
                try {
                    Execution execution = Execution.of(new Execution.Ports(times, times.deliveries(deliveries),
                            builders, times.events(natsEvents), Layout.DEFAULT, clock));
                    long steadyStart = System.nanoTime();
                    steady(execution);
                    hosts.consume(CONSUMER_CHANNELS);
                    if (!hosts.await(WAIT)) {
                        throw new IllegalStateException("steady state: " + hosts.missing() + " node(s) never had "
                                + "their first declaration on their queue");
                    }
                    Thread.sleep(1_000);
                    hosts.requireExactlyOne("steady state");
                    System.out.printf(Locale.ROOT, "steady state in %.1f s: %,d queues declared, each node's first "
                            + "declaration delivered, consumed and acknowledged%n", (System.nanoTime() - steadyStart)
                            / 1e9, names.size());
                    orders.clear();
                    measure(execution, times, hosts, natsEvents, operator, floor, repeats);
                } finally {
                    // Deleted with their virtual host, 10,000 quorum queues take longer than the 30 s the management
                    // API is given: one at a time here, the virtual host then goes at once.
                    hosts.delete(floor);
                }
            } finally {
                natsEvents.close();
            }
            print();
        }

        private void measure(Execution execution, RoundTimes times, HostQueues hosts, NatsEvents natsEvents,
                BrokerCaller operator, com.rabbitmq.client.Connection floor, int repeats) throws Exception {
            List<Long> builds = new ArrayList<>();
            Executor executor = Executor.start(execution, lifecycle, Duration.ofMillis(500), new Executor.Listener() {
                @Override
                public void round(Execution.Round round) {
                }

                @Override
                public void failed(RuntimeException failure) {
                    System.err.println("round failed: " + failure.getMessage());
                }
            });
            Thread builder = Thread.ofPlatform().name("bench-builder").daemon().start(() -> build(executor, builds));
            Events events = (kind, payload) -> {
                natsEvents.publish(kind, payload);
                executor.changed();
            };
            try (Assembly assembly = Assembly.of(new Verbs.Ports(pg, Licences.NONE, lifecycle, events,
                    PgRequestRecords.fenced(store.dataSource(), store.lock()), Layout.DEFAULT, clock),
                    Identity.ANYONE, "bench")) {
                BrokerVerbs verbs = BrokerVerbs.start(broker, assembly.verbs(), Identity.ANYONE, "bench", lifecycle);
                try {
                    for (int r = 0; r < repeats; r++) {
                        String version = "0." + (r + 2) + ".0";
                        Result result = new Result(r + 1, version);
                        push(operator, hosts, times, builds, result);
                        acknowledge(executor, execution, times);
                        floors(floor, hosts, result);
                        results.add(result);
                        result.print();
                    }
                } finally {
                    verbs.close();
                }
            } finally {
                builder.interrupt();
                executor.close();
            }
        }

        /** The builder: reports each order succeeded, as {@code ReportsIn} records a builder's report. */
        private void build(Executor executor, List<Long> builds) {
            try {
                while (true) {
                    BuildOrder order = orders.take();
                    long taken = System.nanoTime();
                    executor.record(new Report.Build(order.build(), true, "", "0".repeat(64), "file:///bench/"
                            + order.build().substring("build:".length()), Instant.now()));
                    synchronized (builds) {
                        builds.add(taken);
                        builds.add(System.nanoTime());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The push, its delivery to every node, and the checks. */
        private void push(BrokerCaller operator, HostQueues hosts, RoundTimes times, List<Long> builds,
                Result result) throws Exception {
            report(Instant.now());
            hosts.expect();
            times.clear();
            synchronized (builds) {
                builds.clear();
            }
            ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call");
            request.putObject("params").put("name", "push").putObject("arguments")
                    .put("manifest", hostManifest(result.version));
            byte[] body = JSON.writeValueAsBytes(request);
            long sent = System.nanoTime();
            byte[] reply = operator.call(Topology.VERBS, body);
            long replied = System.nanoTime();
            JsonNode answer = JSON.readTree(reply).path("result");
            if (answer.path("isError").asBoolean(true) || !answer.path("structuredContent").path("changed")
                    .asBoolean(false)) {
                throw new IllegalStateException("push of " + HOST_MODULE + " " + result.version + " answered "
                        + new String(reply, java.nio.charset.StandardCharsets.UTF_8));
            }
            if (!hosts.await(WAIT)) {
                throw new IllegalStateException("push of " + result.version + ": " + hosts.missing() + " node(s) had "
                        + "no new declaration on their queue within " + WAIT);
            }
            times.awaitRound(names.size(), WAIT);
            Thread.sleep(1_000);
            hosts.requireExactlyOne("push of " + result.version);
            check(hosts, result.version);
            result.verb = replied - sent;
            result.replied = replied;
            synchronized (builds) {
                if (builds.size() != 2) {
                    throw new IllegalStateException("push of " + result.version + ": " + builds.size() / 2
                            + " build(s) ordered, not one");
                }
                result.ordered = builds.get(0);
                result.built = builds.get(1);
            }
            result.arrivals = hosts.arrivals();
            result.last = hosts.last();
            result.rounds = times.rounds();
            for (int i = 0; i < names.size(); i++) {
                result.messages.add(new ConfirmFloor.Message(names.get(i), hosts.body(i), hosts.revision(i), epoch));
            }
        }

        /**
         * Every node had one new message: the revision the store records as delivered to it, not the one it
         * acknowledged before, under this epoch, whose body is that revision's declaration running the new version
         * of {@code mesh-host}, pinned to its build.
         */
        private void check(HostQueues hosts, String version) {
            Map<String, Delivery> recorded = pg.deliveries();
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < names.size() && wrong.size() < 10; i++) {
                String node = names.get(i);
                String revision = hosts.revision(i);
                Delivery delivery = recorded.get(node);
                JsonNode declaration = JSON.readTree(hosts.body(i));
                JsonNode host = null;
                for (JsonNode process : declaration.path("processes")) {
                    if (process.path("name").asString("").equals(HOST_MODULE)) {
                        host = process.path("artifact");
                    }
                }
                if (revision == null || delivery == null || !revision.equals(delivery.revision())) {
                    wrong.add(node + ": revision " + revision + " on its queue, " + delivery + " recorded");
                } else if (revision.equals(revisions.get(node))) {
                    wrong.add(node + ": the revision it acknowledged before, " + revision);
                } else if (hosts.epoch(i) != epoch) {
                    wrong.add(node + ": epoch " + hosts.epoch(i) + ", not " + epoch);
                } else if (!revision.equals(declaration.path("revision").asString(""))
                        || !node.equals(declaration.path("node").asString(""))) {
                    wrong.add(node + ": a body of node " + declaration.path("node") + " revision "
                            + declaration.path("revision"));
                } else if (host == null || !version.equals(host.path("version").asString(""))
                        || host.path("sha256").asString("").isEmpty()) {
                    wrong.add(node + ": mesh-host's artifact " + host + ", not version " + version + " built");
                }
            }
            if (!wrong.isEmpty()) {
                throw new IllegalStateException("push of " + version + ": wrong deliveries: " + String.join("; ",
                        wrong));
            }
        }

        /** Every node applied its new revision: acknowledged, its facts reported; then the rounds go idle. */
        private void acknowledge(Executor executor, Execution execution, RoundTimes times) throws Exception {
            Map<String, Delivery> recorded = pg.deliveries();
            for (String node : names) {
                String revision = recorded.get(node).revision();
                if (!pg.acknowledge(node, revision)) {
                    throw new IllegalStateException("node " + node + " could not acknowledge " + revision);
                }
                revisions.put(node, revision);
            }
            report(Instant.now());
            for (int tries = 0; execution.watching() || tries == 0; tries++) {
                if (tries == 10) {
                    throw new IllegalStateException("the rounds still watch nodes after every node acknowledged");
                }
                int before = times.ended();
                executor.changed();
                times.awaitEnded(before + 1, WAIT);
            }
        }

        private void floors(com.rabbitmq.client.Connection floor, HostQueues hosts, Result result) throws Exception {
            hosts.expect();
            long start = System.nanoTime();
            long confirmed = ConfirmFloor.oneAtATime(floor, Loopback.USER, result.messages);
            result.single = floorResult(hosts, "floor one at a time", start, confirmed);
            hosts.expect();
            start = System.nanoTime();
            confirmed = ConfirmFloor.streamed(floor, Loopback.USER, result.messages);
            result.streamed = floorResult(hosts, "floor streamed", start, confirmed);
            result.messages.clear();
        }

        private static FloorResult floorResult(HostQueues hosts, String what, long start, long confirmed)
                throws InterruptedException {
            if (!hosts.await(WAIT)) {
                throw new IllegalStateException(what + ": " + hosts.missing() + " node(s) had no message");
            }
            long last = hosts.last();
            long[] arrivals = hosts.arrivals();
            Thread.sleep(1_000);
            hosts.requireExactlyOne(what);
            return new FloorResult(confirmed - start, last - start, since(arrivals, start));
        }

        /** Brings the mesh to its steady state through the execution's own rounds. */
        private void steady(Execution execution) {
            for (int r = 0; r < 10; r++) {
                Execution.Round round = lifecycle.whileActive(() -> execution.run(epoch));
                if (!round.failed().isEmpty()) {
                    throw new IllegalStateException("steady state: round " + r + " failed " + round.failed().size()
                            + " time(s), e.g. " + round.failed().entrySet().iterator().next());
                }
                for (String build : pg.requested()) {
                    pg.finish(new Report.Build(build, true, "", "0".repeat(64), "file:///bench/"
                            + build.substring("build:".length()), Instant.now()));
                }
                round.delivered().forEach(d -> {
                    pg.acknowledge(d.node(), d.revision());
                    revisions.put(d.node(), d.revision());
                });
                report(clock.instant());
                if (round.idle() && r > 0 && round.waiting().isEmpty()) {
                    if (revisions.size() != names.size()) {
                        throw new IllegalStateException("steady state: " + revisions.size() + " of " + names.size()
                                + " nodes delivered");
                    }
                    return;
                }
            }
            throw new IllegalStateException("the mesh did not settle in 10 rounds");
        }

        /** Every node's facts: its acknowledged revision and its processes running, as of {@code now}. */
        private void report(Instant now) {
            List<Facts> facts = new ArrayList<>();
            for (Node node : mesh.nodes()) {
                List<ProcessState> running = processes.get(node.name()).stream()
                        .map(p -> new ProcessState(p, ProcessState.State.RUNNING, now.minusSeconds(60), 12)).toList();
                facts.add(new Facts(node, revisions.getOrDefault(node.name(), ""), running, now));
                if (facts.size() == 1_000) {
                    pg.report(facts);
                    facts.clear();
                }
            }
            pg.report(facts);
        }

        private void print() {
            System.out.println();
            System.out.printf(Locale.ROOT, "%,d nodes, %d repetitions: push of mesh-host's next version → every "
                    + "node's queue (s)%n", names.size(), results.size());
            System.out.println("| repetition | push reply → last delivered | per node p50 / p99 | build report → last "
                    + "delivered | floor one at a time: last confirm / last delivered | floor streamed: last confirm "
                    + "/ last delivered | real ÷ floor (one at a time / streamed) |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|");
            for (Result result : results) {
                System.out.println(result.row());
            }
        }
    }

    /** The times of one repetition, {@link System#nanoTime()}s and durations in nanoseconds. */
    private static final class Result {

        final int repetition;
        final String version;
        final List<ConfirmFloor.Message> messages = new ArrayList<>();
        long verb;
        long replied;
        long ordered;
        long built;
        long last;
        long[] arrivals;
        List<RoundTimes.Round> rounds;
        FloorResult single;
        FloorResult streamed;

        Result(int repetition, String version) {
            this.repetition = repetition;
            this.version = version;
        }

        void print() {
            Loopback.Latencies perNode = Loopback.Latencies.of(since(arrivals, replied));
            System.out.printf(Locale.ROOT, "%nrepetition %d: push of mesh-host %s answered in %.1f ms; build ordered "
                            + "%.1f ms after the reply, its report recorded %.1f ms later; the last node delivered "
                            + "%.2f s after the reply (p50 %.2f s, p99 %.2f s per node), %.2f s after the build's "
                            + "report%n", repetition, version, verb / 1e6, (ordered - replied) / 1e6,
                    (built - ordered) / 1e6, (last - replied) / 1e9, perNode.quantileMs(0.5) / 1e3,
                    perNode.quantileMs(0.99) / 1e3, (last - built) / 1e9);
            System.out.println("the rounds after the push (ms; each from its first read to its last):");
            System.out.println(RoundTimes.header());
            for (RoundTimes.Round r : rounds) {
                System.out.println(r.row(replied));
            }
            System.out.printf(Locale.ROOT, "floor, one at a time: last confirm %.2f s, last delivered %.2f s (p50 "
                    + "%.2f s, p99 %.2f s per node); streamed: last confirm %.2f s, last delivered %.2f s (p50 %.2f s, "
                    + "p99 %.2f s)%n", single.confirm / 1e9, single.last / 1e9, single.perNode.quantileMs(0.5) / 1e3,
                    single.perNode.quantileMs(0.99) / 1e3, streamed.confirm / 1e9, streamed.last / 1e9,
                    streamed.perNode.quantileMs(0.5) / 1e3, streamed.perNode.quantileMs(0.99) / 1e3);
        }

        String row() {
            Loopback.Latencies perNode = Loopback.Latencies.of(since(arrivals, replied));
            double real = (last - replied) / 1e9;
            return String.format(Locale.ROOT, "| %d (%s) | %.2f | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f / %.2f | "
                            + "%.1f × / %.1f × |", repetition, version, real, perNode.quantileMs(0.5) / 1e3,
                    perNode.quantileMs(0.99) / 1e3, (last - built) / 1e9, single.confirm / 1e9, single.last / 1e9,
                    streamed.confirm / 1e9, streamed.last / 1e9, real / (single.confirm / 1e9),
                    real / (streamed.confirm / 1e9));
        }
    }

    /** A floor's times: to the last confirm and the last arrival, and each node's arrival, from the first publish. */
    private record FloorResult(long confirm, long last, Loopback.Latencies perNode) {

        FloorResult(long confirm, long last, List<Long> perNode) {
            this(confirm, last, Loopback.Latencies.of(perNode));
        }
    }

    private static List<Long> since(long[] arrivals, long start) {
        List<Long> times = new ArrayList<>(arrivals.length);
        for (long arrival : arrivals) {
            times.add(arrival - start);
        }
        return times;
    }
}
