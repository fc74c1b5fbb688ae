package dev.mesh.controller.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.system.Loopback;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 12, target 1: {@code status} over the broker against a raw AMQP echo, in one run.
 *
 * <ul>
 *   <li>{@code status} — a caller (plain {@code amqp-client}, its own connection) publishes a
 *       {@code tools/call} of {@code status} to the default exchange, routing key
 *       {@code mesh-controller.verbs}, {@code reply_to} {@code amq.rabbitmq.reply-to}, a
 *       {@code correlation_id}, {@code user_id} and {@code message_id}, and waits for its reply:
 *       {@link BrokerVerbs} (the controller's transport) on {@link BenchStore}'s 10,000 nodes, the
 *       verbs built by the controller's one {@link Assembly}, answers it.</li>
 *   <li>{@code echo} (the floor) — the same caller and bytes to a queue of the same arguments as
 *       {@code mesh-controller.verbs} (quorum, single active consumer, delivery limit 5, dead-letter
 *       exchange), consumed with the same client library and the same prefetch (16) by an echo that sends
 *       the body back to {@code reply_to} with the {@code correlation_id} and the same headers, waits
 *       for the broker's confirm of that reply, then acknowledges the request — what the controller's
 *       transport does, without the dispatcher.</li>
 * </ul>
 *
 * <p>One caller: every call timed, one echo and one {@code status} in turn, for {@code --rounds} ×
 * {@code --round} seconds each after {@code --warmup} seconds each. Then {@code --callers} callers (16),
 * each on a connection of its own, one request in flight each: calls per second, in rounds of 1 s of
 * each in turn (as many as the seconds before).
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.bench.BrokerVerbsBench [--rounds 3] [--round 5] [--warmup 10]
 *     [--callers 16] [--nodes 10000]
 * </pre>
 */
public final class BrokerVerbsBench {

    private static final String ECHO_QUEUE = "bench.echo";
    private static final byte[] STATUS = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"status\",\"arguments\":{}}}").getBytes(StandardCharsets.UTF_8);

    private BrokerVerbsBench() {
    }

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = Loopback.option(args, "rounds", 3);
        int round = Loopback.option(args, "round", 5);
        int warmup = Loopback.option(args, "warmup", 10);
        int callers = Loopback.option(args, "callers", 16);
        int nodes = Loopback.option(args, "nodes", 10_000);
        try (BenchStore store = BenchStore.create(nodes); Loopback loopback = Loopback.open()) {
            Lifecycle lifecycle = LocalLifecycle.active(store.lock(), "bench", Clock.systemUTC());
            try (Assembly assembly = Assembly.of(new Verbs.Ports(store.inventory(), Licences.NONE, lifecycle,
                    new MemoryEvents(), RequestRecords.NONE, Layout.DEFAULT, Clock.systemUTC()), Identity.ANYONE,
                    "bench");
                    Broker broker = Broker.connect(loopback.broker(), "bench-controller")) {
                Topology.declare(broker);
                BrokerVerbs verbs = BrokerVerbs.start(broker, assembly.verbs(), Identity.ANYONE, "bench", lifecycle);
                Echo echo = Echo.start(loopback, lifecycle.status());
                try {
                    run(loopback, rounds, round, warmup, callers);
                } finally {
                    echo.close();
                    verbs.close();
                }
            }
        }
    }

    private static void run(Loopback loopback, int rounds, int round, int warmup, int callers) throws Exception {
        System.out.printf(Locale.ROOT, "broker verbs: one caller %d s of each in turn after %d s warm-up, then %d "
                + "callers %d rounds of 1 s of each in turn; virtual host %s%n", rounds * round, warmup, callers,
                rounds * round, loopback.vhost());
        // The callers hold a caller's permissions alone, as the controller sets them (docs/security.md).
        String user = loopback.addCaller("bench-caller-" + loopback.vhost().substring("mesh-bench-".length()));
        List<BrokerCaller> all = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            all.add(new BrokerCaller(loopback.connect("bench-caller-" + c, user, user), user));
        }
        try {
            BrokerCaller one = all.getFirst();
            String answer = new String(one.call(Topology.VERBS, STATUS), StandardCharsets.UTF_8);
            if (!answer.contains("\"isError\":false")) {
                throw new IllegalStateException("status failed: " + answer);
            }
            // One caller, every call timed.
            List<Long> echoTimes = new ArrayList<>();
            List<Long> statusTimes = new ArrayList<>();
            // One call of each in turn, so that what else runs on the machine weighs on both alike.
            alternating(one, 2 * warmup, null, null);
            alternating(one, 2 * rounds * round, echoTimes, statusTimes);
            Loopback.Latencies echo = Loopback.Latencies.of(echoTimes);
            Loopback.Latencies status = Loopback.Latencies.of(statusTimes);
            System.out.println();
            System.out.println("one caller:");
            System.out.println(Loopback.Latencies.header());
            System.out.println(echo.row("`echo` (floor)"));
            System.out.println(status.row("`status`"));
            double p50 = status.quantileMs(0.5) / echo.quantileMs(0.5);
            double p99 = status.quantileMs(0.99) / echo.quantileMs(0.99);
            System.out.printf(Locale.ROOT, "status p50 / echo p50 = %.2f; target <= 1.25: %s%n", p50,
                    Loopback.met(p50 <= 1.25));
            System.out.printf(Locale.ROOT, "status p99 / echo p99 = %.2f; target <= 2.0: %s%n", p99,
                    Loopback.met(p99 <= 2.0));

            // Many callers, calls per second.
            double echoRate = 0;
            double statusRate = 0;
            concurrent(all, ECHO_QUEUE, Math.max(2, warmup / 2));
            concurrent(all, Topology.VERBS, Math.max(2, warmup / 2));
            List<String> perRound = new ArrayList<>();
            // Rounds of 1 s each, in turn, as many as the one-caller part had seconds.
            int shortRounds = rounds * round;
            for (int r = 0; r < shortRounds; r++) {
                double e = concurrent(all, ECHO_QUEUE, 1);
                double s = concurrent(all, Topology.VERBS, 1);
                perRound.add(String.format(Locale.ROOT, "echo %,.0f / status %,.0f", e, s));
                echoRate += e / shortRounds;
                statusRate += s / shortRounds;
            }
            System.out.println();
            System.out.println(callers + " callers (one request in flight each), calls per second:");
            System.out.println("| benchmark | calls/s (mean of rounds) |\n|---|---:|");
            System.out.printf(Locale.ROOT, "| `echo` (floor) | %,.0f |%n| `status` | %,.0f |%n", echoRate, statusRate);
            System.out.println("per round: " + String.join("; ", perRound));
            double ratio = statusRate / echoRate;
            System.out.printf(Locale.ROOT, "status / echo throughput = %.2f; target >= 0.7: %s%n", ratio,
                    Loopback.met(ratio >= 0.7));
        } finally {
            for (BrokerCaller caller : all) {
                caller.close();
            }
        }
    }

    /** Calls the echo and {@code status} in turn for {@code seconds}, adding each call's time when given. */
    private static void alternating(BrokerCaller caller, int seconds, List<Long> echoTimes, List<Long> statusTimes)
            throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            caller.call(ECHO_QUEUE, STATUS);
            long middle = System.nanoTime();
            caller.call(Topology.VERBS, STATUS);
            long took = System.nanoTime() - middle;
            if (echoTimes != null) {
                echoTimes.add(middle - start);
                statusTimes.add(took);
            }
        }
    }

    /** @return calls per second of all callers together over {@code seconds} */
    private static double concurrent(List<BrokerCaller> callers, String queue, int seconds) throws Exception {
        AtomicLong calls = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (BrokerCaller caller : callers) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        caller.call(queue, STATUS);
                        calls.incrementAndGet();
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        // Let every caller get going, then count over the window.
        Thread.sleep(200);
        long before = calls.get();
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        long after = calls.get();
        long took = System.nanoTime() - start;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            throw failures.getFirst();
        }
        return (after - before) / (took / 1e9);
    }

    /**
     * The floor: consumes a queue declared with the arguments of {@code mesh-controller.verbs}, prefetch
     * 16, and sends each body back to its {@code reply_to} with its {@code correlation_id}, on a channel
     * in confirm mode, acknowledging the request once the broker confirmed the reply — one at a time, on
     * the client's consumer thread, as {@link BrokerVerbs} does.
     */
    private static final class Echo implements AutoCloseable {

        private final Connection connection;

        private Echo(Connection connection) {
            this.connection = connection;
        }

        static Echo start(Loopback loopback, Lifecycle.Status status) throws IOException, TimeoutException {
            Connection connection = loopback.connect("bench-echo");
            Channel declare = connection.createChannel();
            declare.queueDeclare(ECHO_QUEUE, true, false, false, Map.of("x-queue-type", "quorum",
                    "x-single-active-consumer", true, "x-delivery-limit", Topology.DELIVERY_LIMIT,
                    "x-dead-letter-exchange", Topology.DEAD));
            declare.close();
            Channel replies = connection.createChannel();
            replies.confirmSelect();
            Channel channel = connection.createChannel();
            channel.basicQos(BrokerVerbs.PREFETCH);
            Map<String, Object> headers = Map.of("epoch", status.epoch(), "instance", status.instance());
            channel.basicConsume(ECHO_QUEUE, false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) throws IOException {
                    AMQP.BasicProperties reply = new AMQP.BasicProperties.Builder().contentType("application/json")
                            .correlationId(properties.getCorrelationId()).headers(headers).build();
                    replies.basicPublish("", properties.getReplyTo(), false, reply, body);
                    try {
                        replies.waitForConfirmsOrDie(5_000);
                    } catch (InterruptedException | TimeoutException e) {
                        channel.basicReject(envelope.getDeliveryTag(), true);
                        return;
                    }
                    channel.basicAck(envelope.getDeliveryTag(), false);
                }
            });
            return new Echo(connection);
        }

        @Override
        public void close() {
            connection.abort();
        }
    }
}
