package dev.mesh.controller.system;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 23's flood: large request bodies from one node's user against a controller running as a process of the
 * bundle ({@code serve}, its default heap), while a caller asks {@code status} in a loop. Publishers (each on a
 * connection of its own, as the node {@code flood-<run>}, which holds a caller's permissions alone) send {@code
 * --bodies} bodies of {@code --size-mb} MB to {@code mesh-controller.verbs}, confirmed. With {@code --broker-limit
 * on} (the default) the broker's {@code max_message_size} is the controller's limit ({@link Broker#MAX_BODY_BYTES}),
 * as the broker module's configuration sets it (docs/security.md), and each large publish is refused at its
 * publisher; with {@code off} the bodies reach the queue and the controller's client refuses each at its header
 * (its connection dropped, the message dead-lettered past the delivery limit).
 *
 * <p>Printed: the {@code status} calls before and during the flood (p50, p99, max, the ones not answered within
 * 10 s), and the controller's resident memory (VmRSS, sampled every 100 ms) before and at its largest during.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.system.FloodDriver [--bodies 40] [--size-mb 50] [--publishers 4]
 *     [--broker-limit on|off] [BUNDLE_LAUNCHER]
 * </pre>
 */
public final class FloodDriver {

    private static final byte[] STATUS = ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"status\", \"arguments\": {}}}").getBytes(StandardCharsets.UTF_8);
    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private FloodDriver() {
    }

    public static void main(String[] args) throws Exception {
        int bodies = Loopback.option(args, "bodies", 40);
        int sizeMb = Loopback.option(args, "size-mb", 50);
        int publishers = Loopback.option(args, "publishers", 4);
        boolean brokerLimit = !List.of(args).contains("off");
        Path bundle = Path.of("controller-launcher/target/mesh-controller/mesh-controller");
        for (String arg : args) {
            if (arg.endsWith("/mesh-controller")) {
                bundle = Path.of(arg);
            }
        }
        Path dir = Files.createTempDirectory("flood-");
        long wasLimit = brokerLimit ? Loopback.maxMessageSize(Broker.MAX_BODY_BYTES) : -1;
        try (HandoverMesh mesh = HandoverMesh.create(bundle, dir)) {
            ControllerProcess controller = ControllerProcess.launch(mesh, "flooded").awaitReady();
            String node = "flood-" + mesh.loopback().vhost().substring("mesh-bench-".length());
            mesh.loopback().addCaller(node);
            System.out.printf(Locale.ROOT, "flood: %d bodies of %d MB from %d publishers as %s, broker limit %s; "
                    + "controller pid %d; logs in %s%n", bodies, sizeMb, publishers, node,
                    brokerLimit ? Broker.MAX_BODY_BYTES + " bytes" : "off (128 MiB)", controller.pid(), dir);
            try (Caller caller = new Caller(mesh.loopback().connect("flood-status"))) {
                for (int i = 0; i < 200; i++) {
                    caller.call();
                }
                Memory memory = Memory.watch(controller.pid());
                List<Long> before = caller.callFor(5_000);
                long rssBefore = memory.largest();
                memory.reset();
                AtomicLong refused = new AtomicLong();
                AtomicLong accepted = new AtomicLong();
                List<Thread> threads = new ArrayList<>();
                byte[] body = new byte[sizeMb * 1024 * 1024];
                for (int p = 0; p < publishers; p++) {
                    int share = bodies / publishers + (p < bodies % publishers ? 1 : 0);
                    threads.add(Thread.ofPlatform().name("flood-" + p).start(() -> flood(mesh.loopback(), node, share,
                            body, accepted, refused)));
                }
                AtomicBoolean flooding = new AtomicBoolean(true);
                List<Long> during = Collections.synchronizedList(new ArrayList<>());
                Thread asking = Thread.ofPlatform().name("flood-status").start(() -> {
                    while (flooding.get()) {
                        during.add(caller.call());
                    }
                });
                long started = System.nanoTime();
                for (Thread thread : threads) {
                    thread.join();
                }
                long floodMs = (System.nanoTime() - started) / 1_000_000;
                // The backstop's redeliveries go on after the last publish: keep asking for as long again.
                Thread.sleep(brokerLimit ? 2_000 : Math.max(5_000, floodMs));
                flooding.set(false);
                asking.join();
                long rssDuring = memory.largest();
                memory.close();
                System.out.printf(Locale.ROOT, "published %d s: %d accepted by the broker, %d refused at the "
                        + "publisher%n", floodMs / 1000, accepted.get(), refused.get());
                print("status before", before);
                print("status during", new ArrayList<>(during));
                System.out.printf(Locale.ROOT, "controller VmRSS: before %d MB, largest during %d MB; alive %s%n",
                        rssBefore / 1024, rssDuring / 1024, controller.process().isAlive());
            }
            controller.stop();
        } finally {
            if (wasLimit > 0) {
                Loopback.maxMessageSize(wasLimit);
            }
        }
    }

    private static void flood(Loopback loopback, String node, int count, byte[] body, AtomicLong accepted,
            AtomicLong refused) {
        try (Connection connection = loopback.connect("flood-publisher", node, node)) {
            Channel channel = null;
            for (int i = 0; i < count; i++) {
                if (channel == null || !channel.isOpen()) {
                    channel = connection.createChannel();
                    channel.confirmSelect();
                    // Direct reply-to needs its consumer on the publishing channel, else the broker refuses (406).
                    channel.basicConsume("amq.rabbitmq.reply-to", true, (tag, d) -> { }, tag -> { });
                }
                AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().userId(node)
                        .replyTo("amq.rabbitmq.reply-to").correlationId("flood-" + i).messageId("flood-" + node + "-"
                                + Thread.currentThread().getName() + "-" + i).build();
                try {
                    channel.basicPublish("", Topology.VERBS, properties, body);
                    channel.waitForConfirmsOrDie(60_000);
                    accepted.incrementAndGet();
                } catch (IOException | java.util.concurrent.TimeoutException
                        | com.rabbitmq.client.ShutdownSignalException e) {
                    if (refused.incrementAndGet() == 1) {
                        System.out.println("first refusal: " + reason(e));
                    }
                }
            }
        } catch (IOException | java.util.concurrent.TimeoutException | InterruptedException e) {
            throw new IllegalStateException("a publisher failed: " + e, e);
        }
    }

    private static String reason(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof com.rabbitmq.client.ShutdownSignalException signal) {
                return signal.getMessage();
            }
        }
        return e.toString();
    }

    private static void print(String what, List<Long> nanos) {
        List<Long> answered = nanos.stream().filter(n -> n >= 0).sorted().toList();
        long lost = nanos.size() - answered.size();
        if (answered.isEmpty()) {
            System.out.printf(Locale.ROOT, "%s: %d calls, none answered%n", what, nanos.size());
            return;
        }
        System.out.printf(Locale.ROOT, "%s: %d calls, p50 %.2f ms, p99 %.2f ms, max %.1f ms, %d not answered "
                + "within 10 s%n", what, nanos.size(), ms(answered, 0.50), ms(answered, 0.99),
                answered.getLast() / 1e6, lost);
    }

    private static double ms(List<Long> sorted, double quantile) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1)) / 1e6;
    }

    /** A {@code status} caller with direct reply-to, one call at a time. */
    private static final class Caller implements AutoCloseable {

        private final Connection connection;
        private final Channel channel;
        private final BlockingQueue<String> replies = new ArrayBlockingQueue<>(16);
        private long next;

        Caller(Connection connection) throws IOException {
            this.connection = connection;
            this.channel = connection.createChannel();
            channel.basicConsume("amq.rabbitmq.reply-to", true, (tag, d) -> replies.offer(
                    d.getProperties().getCorrelationId()), tag -> { });
        }

        /** @return how long a call took in ns, or -1 when it was not answered within 10 s */
        long call() {
            String correlation = "s-" + next++;
            long started = System.nanoTime();
            try {
                channel.basicPublish("", Topology.VERBS, new AMQP.BasicProperties.Builder()
                        .replyTo("amq.rabbitmq.reply-to").correlationId(correlation).userId(Loopback.USER).build(),
                        STATUS);
                long deadline = started + TimeUnit.SECONDS.toNanos(10);
                while (true) {
                    String got = replies.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    if (got == null) {
                        return -1;
                    }
                    if (got.equals(correlation)) {
                        return System.nanoTime() - started;
                    }
                }
            } catch (IOException e) {
                return -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }

        List<Long> callFor(long ms) {
            List<Long> took = new ArrayList<>();
            long end = System.nanoTime() + ms * 1_000_000;
            while (System.nanoTime() < end) {
                took.add(call());
            }
            return took;
        }

        @Override
        public void close() throws IOException {
            connection.abort();
        }
    }

    /** The largest VmRSS of a process, sampled every 100 ms, in kB. */
    private static final class Memory implements AutoCloseable {

        private final Path status;
        private final AtomicLong largest = new AtomicLong();
        private final Thread sampler;
        private volatile boolean running = true;

        private Memory(long pid) {
            this.status = Path.of("/proc/" + pid + "/status");
            this.sampler = Thread.ofPlatform().daemon().name("flood-rss").unstarted(this::sample);
        }

        static Memory watch(long pid) {
            Memory memory = new Memory(pid);
            memory.sampler.start();
            return memory;
        }

        private void sample() {
            while (running) {
                try {
                    Matcher rss = RSS.matcher(Files.readString(status));
                    if (rss.find()) {
                        largest.accumulateAndGet(Long.parseLong(rss.group(1)), Math::max);
                    }
                    Thread.sleep(100);
                } catch (IOException e) {
                    return; // the process is gone
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long largest() {
            return largest.get();
        }

        void reset() {
            largest.set(0);
        }

        @Override
        public void close() {
            running = false;
            sampler.interrupt();
        }
    }
}
