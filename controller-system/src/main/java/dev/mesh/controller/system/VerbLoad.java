package dev.mesh.controller.system;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The driver's client side: an open-loop load of verbs over the broker, as the mesh's other programs
 * send them (plain {@code amqp-client}: default exchange, routing key {@code mesh-controller.verbs},
 * {@code reply_to} {@code amq.rabbitmq.reply-to}, {@code correlation_id} = {@code message_id}, unique,
 * {@code user_id} {@code guest}), and the recorder of everything that comes back: every reply with its
 * time and its {@code epoch} and {@code instance} headers, and every event on NATS {@code mesh.events.>}.
 *
 * <p>Open loop: request {@code i} is sent at {@code start + i / rate} whether or not the earlier ones
 * were answered. One in {@code pushEvery} (20 by default) is a {@code push} of a version of
 * its own of the module {@code handover-load} (a mutation whose effect is one row, and whose reply says
 * {@code changed: true} only the first time it runs: a second run of the same request is a duplicated
 * effect). Besides, once a second, an {@code assign} or {@code unassign} of {@code handover-app} on one
 * of the driver's nodes (facts sent on NATS every 2 s), so that the controllers plan and deliver under
 * the load. A request with no reply after {@link #RETRY_AFTER} is sent once more with the same
 * {@code message_id}; one with no reply after that retry is lost.
 */
final class VerbLoad implements AutoCloseable {

    static final Duration RETRY_AFTER = Duration.ofSeconds(2);
    static final String QUEUE = "mesh-controller.verbs";
    static final String LOAD_MODULE = "handover-load";
    static final String APP_MODULE = "handover-app";
    private static final int NODES = 8;
    /** How long the controllers may take to know the driver's nodes: a few of their readings of the principals. */
    private static final Duration KNOWN_WITHIN = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What a request is. */
    enum Kind { READ, PUSH, ASSIGN, UNASSIGN }

    /** One request and what came back; written by the sender and the reply thread, read after {@link #stop}. */
    static final class Call {
        final String id;
        final Kind kind;
        final String subject;
        final long sentNanos;
        volatile long retriedNanos;
        volatile long repliedNanos;
        volatile int replies;
        volatile long epoch = -1;
        volatile String instance = "";
        volatile boolean error;
        volatile String errorCode = "";
        volatile Boolean changed;
        /** Whether any reply, the first or a later one (to the retry), was not an error. */
        volatile boolean succeeded;

        Call(String id, Kind kind, String subject, long sentNanos) {
            this.id = id;
            this.kind = kind;
            this.subject = subject;
            this.sentNanos = sentNanos;
        }

        boolean answered() {
            return repliedNanos != 0;
        }

        boolean mutates() {
            return kind != Kind.READ;
        }
    }

    /** An event as heard on NATS. */
    record Event(long nanos, String kind, long epoch, String instance) {
    }

    private final String run;
    private final Connection connection;
    private final Channel channel;
    private final io.nats.client.Connection nats;
    private final double rate;
    private final int pushEvery;
    private final List<Call> sent = new ArrayList<>();
    private final Map<String, Call> calls = new ConcurrentHashMap<>();
    private final Queue<Event> events = new ConcurrentLinkedQueue<>();
    private final List<String> nodes = new ArrayList<>();
    private volatile boolean sending = true;
    private Thread sender;

    private VerbLoad(String run, Connection connection, io.nats.client.Connection nats, double rate, int pushEvery)
            throws IOException {
        this.run = run;
        this.connection = connection;
        this.channel = connection.createChannel();
        this.nats = nats;
        this.rate = rate;
        this.pushEvery = pushEvery;
        for (int n = 0; n < NODES; n++) {
            nodes.add(run + "-n" + n);
        }
        channel.basicConsume("amq.rabbitmq.reply-to", true, (tag, delivery) -> replied(delivery), tag -> { });
        Dispatcher dispatcher = nats.createDispatcher(message -> heard(message.getData()));
        dispatcher.subscribe("mesh.events.>");
    }

    /**
     * Connects and makes the driver's nodes known: enrolled, then their facts published until the inventory
     * holds every one of them (an active controller takes facts only from the principals it has read, and it
     * reads them again every few seconds); then sends nothing until {@link #start()}.
     *
     * @param mesh where
     * @param run a short name of the run's own, which names its nodes and versions
     * @param rate requests per second
     * @param pushEvery one request in this many is a {@code push}, the others {@code status}
     */
    static VerbLoad open(HandoverMesh mesh, String run, double rate, int pushEvery) throws IOException, TimeoutException,
            InterruptedException {
        io.nats.client.Connection nats = Nats.connect(new Options.Builder().server(HandoverMesh.NATS_URL)
                .connectionName("handover-driver").build());
        VerbLoad load = new VerbLoad(run, mesh.loopback().connect("handover-driver"), nats, rate, pushEvery);
        // Its nodes principals, so that the controllers take their facts (docs/security.md).
        mesh.enroll(load.nodes);
        nats.flush(Duration.ofSeconds(5));
        load.awaitNodesKnown(mesh, KNOWN_WITHIN);
        return load;
    }

    private void awaitNodesKnown(HandoverMesh mesh, Duration within) throws InterruptedException, TimeoutException {
        String known = "SELECT count(*) FROM nodes WHERE name IN ('" + String.join("', '", nodes) + "')";
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (true) {
                publishFacts();
                if (HandoverDriver.count(mesh, known) == nodes.size()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the driver's nodes were not in the inventory " + within.toSeconds()
                            + " s after their facts; is an active controller consuming mesh.nodes.*.facts?");
                }
                Thread.sleep(500);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the run's inventory: " + e.getMessage(), e);
        }
    }


    /** Starts the open-loop sender (and the facts, every 2 s). */
    void start() {
        sender = Thread.ofPlatform().name("handover-load").start(this::send);
    }

    /**
     * Sends one request now, outside the load (the set-up's {@code push} of the app), and waits for its reply.
     *
     * @param subject a push's {@code module:version}, an assignment's node
     */
    Call callAndWait(Kind kind, String subject, Duration timeout) throws IOException, InterruptedException {
        Call call = publish(kind, subject, System.nanoTime());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!call.answered() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return call;
    }

    private void send() {
        long start = System.nanoTime();
        long period = (long) (1e9 / rate);
        long nextFacts = start;
        long nextToggle = start + 1_000_000_000L;
        int toggles = 0;
        int retryCursor = 0;
        try {
            for (long i = 0; sending; i++) {
                long due = start + i * period;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                long now = System.nanoTime();
                if (i % pushEvery == pushEvery - 1) {
                    publish(Kind.PUSH, LOAD_MODULE + ":" + run + "-v" + i, now);
                } else {
                    publish(Kind.READ, "", now);
                }
                if (now >= nextToggle) {
                    String node = nodes.get((toggles / 2) % nodes.size());
                    publish(toggles % 2 == 0 ? Kind.ASSIGN : Kind.UNASSIGN, node, now);
                    toggles++;
                    nextToggle += 1_000_000_000L;
                }
                if (now >= nextFacts) {
                    publishFacts();
                    nextFacts += 2_000_000_000L;
                }
                retryCursor = retryDue(retryCursor, now);
            }
            // Retries are still due for the last requests after the load stops.
            long end = System.nanoTime() + RETRY_AFTER.toNanos() + 100_000_000L;
            while (System.nanoTime() < end) {
                retryCursor = retryDue(retryCursor, System.nanoTime());
                Thread.sleep(20);
            }
        } catch (IOException e) {
            System.err.println("handover driver: the load's channel failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends the one retry of every request sent at least {@link #RETRY_AFTER} ago and still unanswered. */
    private int retryDue(int cursor, long now) throws IOException {
        int at = cursor;
        while (at < sent.size() && now - sent.get(at).sentNanos >= RETRY_AFTER.toNanos()) {
            Call call = sent.get(at);
            if (!call.answered() && call.retriedNanos == 0) {
                call.retriedNanos = now;
                channel.basicPublish("", QUEUE, properties(call.id), body(call));
            }
            at++;
        }
        return at;
    }

    private Call publish(Kind kind, String subject, long now) throws IOException {
        String id = run + "-" + sent.size();
        Call call = new Call(id, kind, subject, now);
        sent.add(call);
        calls.put(id, call);
        channel.basicPublish("", QUEUE, properties(id), body(call));
        return call;
    }

    private static AMQP.BasicProperties properties(String id) {
        return new AMQP.BasicProperties.Builder().replyTo("amq.rabbitmq.reply-to").correlationId(id).messageId(id)
                .userId(Loopback.USER).contentType("application/json").build();
    }

    private static byte[] body(Call call) {
        String arguments = switch (call.kind) {
            case READ -> "{}";
            case PUSH -> "{\"manifest\": {\"module\": \"" + call.subject.substring(0, call.subject.indexOf(':'))
                    + "\", \"version\": \"" + call.subject.substring(call.subject.indexOf(':') + 1) + "\"}}";
            case ASSIGN, UNASSIGN -> "{\"module\": \"" + APP_MODULE + "\", \"node\": \"" + call.subject + "\"}";
        };
        String name = switch (call.kind) {
            case READ -> "status";
            case PUSH -> "push";
            case ASSIGN -> "assign";
            case UNASSIGN -> "unassign";
        };
        return ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"" + name
                + "\", \"arguments\": " + arguments + "}}").getBytes(StandardCharsets.UTF_8);
    }

    private void replied(Delivery delivery) {
        long now = System.nanoTime();
        Call call = calls.get(String.valueOf(delivery.getProperties().getCorrelationId()));
        if (call == null) {
            return;
        }
        call.replies++;
        JsonNode reply = JSON.readTree(delivery.getBody());
        JsonNode result = reply.path("result");
        if (!reply.has("error") && !result.path("isError").asBoolean()) {
            call.succeeded = true;
        }
        if (call.repliedNanos != 0) {
            return;
        }
        Map<String, Object> headers = delivery.getProperties().getHeaders();
        if (headers != null) {
            if (headers.get("epoch") instanceof Number epoch) {
                call.epoch = epoch.longValue();
            }
            call.instance = String.valueOf(headers.get("instance"));
        }
        if (reply.has("error")) {
            call.error = true;
            call.errorCode = "jsonrpc " + reply.path("error").path("code").asString();
        } else if (result.path("isError").asBoolean()) {
            call.error = true;
            call.errorCode = result.path("structuredContent").path("code").asString();
        } else if (result.path("structuredContent").has("changed")) {
            call.changed = result.path("structuredContent").path("changed").asBoolean();
        }
        call.repliedNanos = now;
    }

    private void heard(byte[] data) {
        long now = System.nanoTime();
        JsonNode event = JSON.readTree(data);
        events.add(new Event(now, event.path("kind").asString(), event.path("epoch").asLong(-1),
                event.path("instance").asString()));
    }

    private void publishFacts() {
        String at = Instant.now().toString();
        for (int n = 0; n < nodes.size(); n++) {
            String node = nodes.get(n);
            nats.publish("mesh.nodes." + node + ".facts", ("{\"node\": \"" + node + "\", \"address\": \"10.9.0."
                    + (n + 1) + "\", \"system\": \"debian-12\", \"revision\": null, \"processes\": [], "
                    + "\"at\": \"" + at + "\"}").getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Stops sending, sends the retries still due, then waits up to {@code patience} for the last replies.
     *
     * @return every request sent, in order
     */
    List<Call> stop(Duration patience) throws InterruptedException {
        sending = false;
        if (sender != null) {
            sender.join();
        }
        long deadline = System.nanoTime() + patience.toNanos();
        while (sent.stream().anyMatch(c -> !c.answered()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return List.copyOf(sent);
    }

    /** @return the events heard so far, in the order heard */
    List<Event> events() {
        return List.copyOf(events);
    }


    @Override
    public void close() {
        connection.abort();
        try {
            nats.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
