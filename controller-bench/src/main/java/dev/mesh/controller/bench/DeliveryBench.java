package dev.mesh.controller.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerDeliveries;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.NatsEvents;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.execute.Executor;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgRequestRecords;
import dev.mesh.controller.system.Loopback;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Issue 12, target 3: one assignment changed on a 1,000-node mesh, and the time from the verb's reply to
 * the node's new declaration arriving on its {@code mesh-host.<node>} queue.
 *
 * <p>The controller is wired as {@code serve} wires it (launcher's {@code MeshController}): the fenced
 * {@code PgInventory} of {@link BenchStore} holding {@link SyntheticMesh}'s 1,000 nodes and 50 whole
 * modules, {@link Execution} with {@link BrokerDeliveries} and {@link NatsEvents}, {@link Executor} (a
 * round at once after every change, and every second), the verbs of the controller's one {@link Assembly} with
 * the fenced request records, their events asking the executor for a round, and {@link BrokerVerbs}.
 * Builds are a stub that accepts every order.
 *
 * <p>Before measuring, the mesh is brought to its steady state: every build finished, every node
 * reporting its processes running and healthy, every node's declaration delivered (on a transport that
 * accepts without sending, so the broker does not hold 1,000 queues) and acknowledged; then the rounds
 * are idle. From there the transport is the broker's.
 *
 * <p>Each iteration, a caller (plain {@code amqp-client}, direct reply-to) calls {@code assign} of a
 * module that claims no seat to the last node, or {@code unassign} of it, alternately, with a fresh
 * {@code message_id}; a consumer on {@code mesh-host.<node>} (a plain client, as a host) takes the
 * declaration; the host's {@code applied} report is recorded ({@link Executor#record}); a pause of
 * {@code --pause} ms lets the rounds settle. Printed: reply → arrival (the target), the verb's own round
 * trip, request → arrival, and where the time went: reply → the transport called, the publish and confirm.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.bench.DeliveryBench [--nodes 1000] [--warmup 20]
 *     [--iterations 200] [--pause 300]
 * </pre>
 */
public final class DeliveryBench {

    private DeliveryBench() {
    }

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        int nodes = Loopback.option(args, "nodes", 1_000);
        int warmup = Loopback.option(args, "warmup", 20);
        int iterations = Loopback.option(args, "iterations", 200);
        int pause = Loopback.option(args, "pause", 300);
        Mesh mesh = SyntheticMesh.of(nodes);
        try (BenchStore store = BenchStore.create(nodes, SyntheticMesh::document); Loopback loopback = Loopback.open()) {
            Clock clock = Clock.systemUTC();
            Lifecycle lifecycle = LocalLifecycle.active(store.lock(), "bench", clock);
            long epoch = lifecycle.status().epoch();
            Broker broker = Broker.connect(loopback.broker(), "bench-controller");
            try {
                Topology.declare(broker);
                run(store, loopback, broker, lifecycle, epoch, mesh, clock, warmup, iterations, pause);
            } finally {
                broker.close();
            }
        }
    }

    private static void run(BenchStore store, Loopback loopback, Broker broker, Lifecycle lifecycle, long epoch,
            Mesh mesh, Clock clock, int warmup, int iterations, int pause) throws Exception {
        PgInventory pg = store.inventory();
        // The time each round started (its first read), on the executor's thread.
        BlockingQueue<Long> roundStarts = new LinkedBlockingQueue<>();
        Timed inventory = new Timed(pg, roundStarts);
        Switch deliveries = new Switch();
        Builders builders = (BuildOrder order, long ignored) -> { };
        NatsEvents natsEvents = NatsEvents.start(loopback.nats(), lifecycle::status, clock);
        BrokerDeliveries broker1 = new BrokerDeliveries(broker);
        try {
            Execution execution = Execution.of(new Execution.Ports(inventory, deliveries, builders, natsEvents,
                    Layout.DEFAULT, clock));
            long setup = System.nanoTime();
            steady(pg, execution, lifecycle, epoch, mesh, clock);
            System.out.printf(Locale.ROOT, "delivery: %,d nodes, steady state in %.1f s; virtual host %s%n",
                    mesh.nodes().size(), (System.nanoTime() - setup) / 1e9, loopback.vhost());

            Node target = mesh.nodes().getLast();
            String module = movable(mesh, target.name());
            String queue = Topology.declareHost(broker, target.name());
            deliveries.to(broker1);

            List<Execution.Round> rounds = new ArrayList<>();
            Executor executor = Executor.start(execution, lifecycle, Duration.ofSeconds(1), new Executor.Listener() {
                @Override
                public void round(Execution.Round round) {
                    synchronized (rounds) {
                        rounds.add(round);
                    }
                }

                @Override
                public void failed(RuntimeException failure) {
                    System.err.println("round failed: " + failure.getMessage());
                }
            });
            Events events = (kind, payload) -> {
                natsEvents.publish(kind, payload);
                executor.changed();
            };
            try (Assembly assembly = Assembly.of(new Verbs.Ports(pg, Licences.NONE, lifecycle, events,
                    PgRequestRecords.fenced(store.dataSource(), store.lock()), Layout.DEFAULT, clock),
                    Identity.ANYONE, "bench")) {
                BrokerVerbs verbs = BrokerVerbs.start(broker, assembly.verbs(), Identity.ANYONE, "bench", lifecycle);
                Connection client = loopback.connect("bench-host-and-caller");
                try {
                    inventory.reset();
                    measure(client, queue, target.name(), module, executor, deliveries, roundStarts, warmup,
                            iterations, pause);
                    inventory.print();
                } finally {
                    client.abort();
                    verbs.close();
                }
            } finally {
                executor.close();
            }
        } finally {
            broker1.close();
            natsEvents.close();
        }
    }

    private static void measure(Connection client, String queue, String node, String module, Executor executor,
            Switch deliveries, BlockingQueue<Long> roundStarts, int warmup, int iterations, int pause)
            throws Exception {
        BlockingQueue<long[]> arrivals = new LinkedBlockingQueue<>();
        BlockingQueue<String> revisions = new LinkedBlockingQueue<>();
        Channel host = client.createChannel();
        host.basicConsume(queue, true, (tag, delivery) -> {
            arrivals.add(new long[] {System.nanoTime()});
            Object revision = delivery.getProperties().getHeaders().get("revision");
            revisions.add(String.valueOf(revision));
        }, tag -> { });
        Channel caller = client.createChannel();
        BlockingQueue<com.rabbitmq.client.Delivery> replies = new ArrayBlockingQueue<>(4);
        caller.basicConsume("amq.rabbitmq.reply-to", true, (tag, delivery) -> replies.add(delivery), tag -> { });

        List<Long> replyToArrival = new ArrayList<>();
        List<Long> verb = new ArrayList<>();
        List<Long> requestToArrival = new ArrayList<>();
        List<Long> requestToRound = new ArrayList<>();
        List<Long> roundToDeliver = new ArrayList<>();
        List<Long> publish = new ArrayList<>();
        int negative = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            String name = i % 2 == 0 ? "assign" : "unassign";
            byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + name + "\",\"arguments\":{\"module\":\"" + module + "\",\"node\":\"" + node + "\"}}}")
                    .getBytes(StandardCharsets.UTF_8);
            String correlation = "c-" + i;
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().replyTo("amq.rabbitmq.reply-to")
                    .correlationId(correlation).userId(Loopback.USER).messageId("bench-" + System.nanoTime())
                    .contentType("application/json").build();
            roundStarts.clear();
            long sent = System.nanoTime();
            caller.basicPublish("", Topology.VERBS, properties, body);
            com.rabbitmq.client.Delivery reply = replies.poll(10, TimeUnit.SECONDS);
            long replied = System.nanoTime();
            if (reply == null || !correlation.equals(reply.getProperties().getCorrelationId())) {
                throw new IllegalStateException("no reply to " + name + " in 10 s");
            }
            String answer = new String(reply.getBody(), StandardCharsets.UTF_8);
            if (!answer.contains("\"isError\":false") || !answer.contains("\"changed\":true")) {
                throw new IllegalStateException(name + " answered " + answer);
            }
            long[] arrival = arrivals.poll(10, TimeUnit.SECONDS);
            if (arrival == null) {
                throw new IllegalStateException("no declaration on " + queue + " within 10 s of " + name);
            }
            String revision = revisions.take();
            long[] call = deliveries.last();
            // The round that delivered: the last to start before the transport was called.
            long roundStart = 0;
            for (Long start : roundStarts) {
                if (start <= call[0]) {
                    roundStart = start;
                }
            }
            if (i >= warmup) {
                long latency = arrival[0] - replied;
                if (latency < 0) {
                    negative++;
                }
                replyToArrival.add(latency);
                verb.add(replied - sent);
                requestToArrival.add(arrival[0] - sent);
                if (roundStart != 0) {
                    requestToRound.add(roundStart - sent);
                    roundToDeliver.add(call[0] - roundStart);
                }
                publish.add(call[1] - call[0]);
            }
            // The host applied it: its report, recorded as ReportsIn hands it over.
            executor.record(new Report.Applied(node, revision, List.of(), Instant.now()));
            Thread.sleep(pause);
        }
        Loopback.Latencies target = Loopback.Latencies.of(replyToArrival);
        System.out.println();
        System.out.printf(Locale.ROOT, "%d iterations after %d of warm-up: %s / un%s of %s on %s%n", iterations, warmup,
                "assign", "assign", module, node);
        System.out.println(Loopback.Latencies.header());
        System.out.println(target.row("reply → declaration arrived (target)"));
        System.out.println(Loopback.Latencies.of(verb).row("request → reply (the verb)"));
        System.out.println(Loopback.Latencies.of(requestToArrival).row("request → declaration arrived"));
        System.out.println(Loopback.Latencies.of(requestToRound).row("request → the delivering round started"));
        System.out.println(Loopback.Latencies.of(roundToDeliver).row("round start → transport called"));
        System.out.println(Loopback.Latencies.of(publish).row("publish + confirm (BrokerDeliveries.deliver)"));
        if (negative > 0) {
            System.out.println(negative + " declaration(s) arrived before the reply (negative times)");
        }
        System.out.printf(Locale.ROOT, "declaration published <= 50 ms after the reply: p50 %.1f ms, p99 %.1f ms, max %.1f"
                        + " ms; target: %s at the median, %s at p99%n", target.quantileMs(0.5), target.quantileMs(0.99),
                target.quantileMs(1.0), Loopback.met(target.quantileMs(0.5) <= 50), Loopback.met(target.quantileMs(0.99)
                        <= 50));
    }

    /**
     * Brings the mesh to its steady state through the execution's own rounds: the builds it requests
     * finished, every node's processes reported running and healthy, every delivery acknowledged, until a
     * round is idle.
     */
    private static void steady(PgInventory inventory, Execution execution, Lifecycle lifecycle, long epoch, Mesh mesh,
            Clock clock) {
        Map<String, Set<String>> processes = new HashMap<>();
        for (Assignment assignment : mesh.assignments()) {
            processes.computeIfAbsent(assignment.node(), n -> new TreeSet<>())
                    .add("proc-" + assignment.module().substring("mod-".length()));
        }
        Map<String, String> revisions = new HashMap<>();
        for (int r = 0; r < 10; r++) {
            Execution.Round round = lifecycle.whileActive(() -> execution.run(epoch));
            for (String build : inventory.requested()) {
                inventory.finish(new Report.Build(build, true, "", "0".repeat(64), "file:///bench/" + build.substring(6),
                        Instant.now()));
            }
            round.delivered().forEach(d -> {
                inventory.acknowledge(d.node(), d.revision());
                revisions.put(d.node(), d.revision());
            });
            Instant now = clock.instant();
            List<Facts> facts = new ArrayList<>();
            for (Node node : mesh.nodes()) {
                List<ProcessState> running = processes.getOrDefault(node.name(), Set.of()).stream()
                        .map(p -> new ProcessState(p, ProcessState.State.RUNNING, now.minusSeconds(60), 12)).toList();
                facts.add(new Facts(node, revisions.getOrDefault(node.name(), ""), running, now));
            }
            inventory.report(facts);
            if (round.idle() && r > 0 && round.waiting().isEmpty()) {
                return;
            }
        }
        throw new IllegalStateException("the mesh did not settle in 10 rounds");
    }

    /** @return a module that claims no seat and is not on {@code node} */
    private static String movable(Mesh mesh, String node) {
        Set<String> on = new TreeSet<>();
        mesh.assignments().stream().filter(a -> a.node().equals(node)).forEach(a -> on.add(a.module()));
        for (int m = 1; m < SyntheticMesh.MODULES; m++) {
            if (m % 5 != 0 && !on.contains("mod-" + m)) {
                return "mod-" + m;
            }
        }
        throw new IllegalStateException("node " + node + " has every module");
    }

    /**
     * The store as the executor's rounds read it, each call timed on the executor's thread: where a
     * round's time goes. Also notes when each round started (its first read).
     */
    private static final class Timed extends ForwardingInventory {

        private final BlockingQueue<Long> roundStarts;
        private final Map<String, long[]> spent = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile long rounds;
        private volatile long roundStart;
        private volatile long roundTotal;

        Timed(PgInventory inventory, BlockingQueue<Long> roundStarts) {
            super(inventory);
            this.roundStarts = roundStarts;
        }

        void reset() {
            spent.clear();
            rounds = 0;
            roundTotal = 0;
        }

        void print() {
            System.out.println();
            System.out.printf(Locale.ROOT, "the rounds' store calls (%,d rounds, all the executor's, idle ones too):%n",
                    rounds);
            System.out.printf(Locale.ROOT, "a round, from its first read to its last (unsentBuilds): %.2f ms on average%n",
                    roundTotal / 1e6 / rounds);
            System.out.println("| call | calls per round | ms per round |\n|---|---:|---:|");
            spent.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
                    .forEach(e -> System.out.printf(Locale.ROOT, "| `%s` | %.2f | %.2f |%n", e.getKey(),
                            e.getValue()[0] / (double) rounds, e.getValue()[1] / 1e6 / rounds));
        }

        private <T> T timed(String name, java.util.function.Supplier<T> call) {
            if (!Thread.currentThread().getName().equals("mesh-executor")) {
                return call.get();
            }
            long start = System.nanoTime();
            try {
                return call.get();
            } finally {
                long took = System.nanoTime() - start;
                spent.compute(name, (k, v) -> v == null ? new long[] {1, took} : new long[] {v[0] + 1, v[1] + took});
            }
        }

        @Override
        public List<Node> nodes() {
            if (Thread.currentThread().getName().equals("mesh-executor")) {
                roundStart = System.nanoTime();
                roundStarts.add(roundStart);
                rounds++;
            }
            return timed("nodes", super::nodes);
        }

        @Override
        public List<dev.mesh.controller.manifest.Manifest> modules() {
            return timed("modules", super::modules);
        }

        @Override
        public List<Assignment> assignments() {
            return timed("assignments", super::assignments);
        }

        @Override
        public Map<String, Declaration> acknowledged() {
            return timed("acknowledged", super::acknowledged);
        }

        @Override
        public Map<String, dev.mesh.controller.core.Built> built() {
            return timed("built", super::built);
        }

        @Override
        public Map<String, dev.mesh.controller.core.Delivery> deliveries() {
            return timed("deliveries", super::deliveries);
        }

        @Override
        public Map<String, dev.mesh.controller.core.Sighting> sightings() {
            return timed("sightings", super::sightings);
        }

        @Override
        public java.util.Optional<Facts> facts(String node) {
            return timed("facts(node)", () -> super.facts(node));
        }

        @Override
        public boolean desire(Declaration declaration) {
            return timed("desire", () -> super.desire(declaration));
        }

        @Override
        public void delivered(dev.mesh.controller.core.Delivery delivery) {
            timed("delivered", () -> {
                super.delivered(delivery);
                return null;
            });
        }

        @Override
        public Set<String> requested() {
            return timed("requested", super::requested);
        }

        @Override
        public Set<String> unsentBuilds() {
            Set<String> unsent = timed("unsentBuilds", super::unsentBuilds);
            if (Thread.currentThread().getName().equals("mesh-executor")) {
                roundTotal += System.nanoTime() - roundStart;
            }
            return unsent;
        }

        @Override
        public Set<String> failedBuilds() {
            return timed("failedBuilds", super::failedBuilds);
        }
    }

    /**
     * The deliveries port, first accepting without sending (the steady state's deliveries), then the
     * broker's; remembers when the last call started and ended.
     */
    private static final class Switch implements Deliveries {

        private volatile Deliveries target = (declaration, epoch) -> { };
        private volatile long[] last = {0, 0};

        void to(Deliveries deliveries) {
            target = deliveries;
        }

        long[] last() {
            return last;
        }

        @Override
        public void deliver(Declaration declaration, long epoch) {
            long start = System.nanoTime();
            target.deliver(declaration, epoch);
            last = new long[] {start, System.nanoTime()};
        }
    }
}
