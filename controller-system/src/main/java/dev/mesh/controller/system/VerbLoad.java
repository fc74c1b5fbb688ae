package dev.mesh.controller.system;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import com.rabbitmq.client.ShutdownSignalException;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
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
 *
 * <p>On a broker cluster ({@link Sending#UNTIL_ANSWERED}) a member going takes the load's own connection along
 * sometimes, and with it the replies on its way ({@code amq.rabbitmq.reply-to} is the connection's): the sender
 * makes the connection again (to a member that answers), the requests are sent with publisher confirms, and one
 * with no reply is sent again every {@link #RETRY_AFTER} until it has one (its {@code message_id} the same, so a
 * mutation is answered from its record). A request is <b>acknowledged</b> once the broker confirmed one of its sends; only an acknowledged request
 * with no reply is lost. One the broker never confirmed (no member took it: the majority gone) is told apart.
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

    /** How requests are sent and sent again. */
    enum Sending {
        /** Published as they are (no confirms), sent once more after {@link #RETRY_AFTER}: the handover driver's. */
        ONE_RETRY,
        /** Published with confirms, sent again every {@link #RETRY_AFTER} until answered: the cluster driver's. */
        UNTIL_ANSWERED
    }

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
        /** Whether the broker took it: always without confirms; with them, once a send of it was confirmed. */
        volatile boolean acknowledged = true;
        /** How many times it was published, and the last time. */
        int sends;
        long lastSentNanos;
        /** The first reply's {@code structuredContent}, kept only for a call made with {@link #callAndWait}. */
        volatile JsonNode answer;
        boolean keep;

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

    /** How often a connection lost is made again, with {@link Sending#UNTIL_ANSWERED}. */
    private static final long RECONNECT_EVERY_NANOS = 500_000_000L;

    private final String run;
    private final MeshBroker broker;
    /** The broker connection and its channel: made again by the sender after a member took them along. */
    private Connection connection;
    private Channel channel;
    private long connectedNanos;
    private final io.nats.client.Connection nats;
    private final double rate;
    private final int pushEvery;
    private final Sending sending;
    private final List<Call> sent = new ArrayList<>();
    private final Map<String, Call> calls = new ConcurrentHashMap<>();
    /** Sends not yet confirmed, by their publish sequence number (with confirms). */
    private final ConcurrentNavigableMap<Long, Call> unconfirmed = new ConcurrentSkipListMap<>();
    /** The calls not answered yet, in the order of their last send (with {@link Sending#UNTIL_ANSWERED}). */
    private final Deque<Call> unanswered = new ArrayDeque<>();
    private volatile long drainUntil;
    private final Queue<Event> events = new ConcurrentLinkedQueue<>();
    private final List<String> nodes = new ArrayList<>();
    private volatile boolean loading = true;
    private Thread sender;

    private VerbLoad(String run, MeshBroker broker, io.nats.client.Connection nats, double rate, int pushEvery,
            Sending sending) {
        this.run = run;
        this.broker = broker;
        this.sending = sending;
        this.nats = nats;
        this.rate = rate;
        this.pushEvery = pushEvery;
        for (int n = 0; n < NODES; n++) {
            nodes.add(run + "-n" + n);
        }
        Dispatcher dispatcher = nats.createDispatcher(message -> heard(message.getData()));
        dispatcher.subscribe("mesh.events.>");
    }

    /**
     * Connects to the broker: a channel consuming its direct replies, with confirms when sending {@link
     * Sending#UNTIL_ANSWERED}. Not the client's automatic recovery: a channel recovered publishes before its
     * reply consumer is back, and the broker closes a channel that publishes with no reply consumer.
     */
    private synchronized void connect() throws IOException, TimeoutException {
        connectedNanos = System.nanoTime();
        unconfirmed.clear();
        Connection made = broker.connect("handover-driver");
        Channel opened = made.createChannel();
        opened.basicConsume("amq.rabbitmq.reply-to", true, (tag, delivery) -> replied(delivery), tag -> { });
        if (sending == Sending.UNTIL_ANSWERED) {
            opened.confirmSelect();
            opened.addConfirmListener((tag, multiple) -> confirmed(tag, multiple, true),
                    (tag, multiple) -> confirmed(tag, multiple, false));
            // A connection gone takes its confirms along.
            opened.addShutdownListener(cause -> unconfirmed.clear());
        }
        connection = made;
        channel = opened;
    }

    /** @return whether the channel is open, after making it again when it is not and the last try is 0.5 s old */
    private boolean connected(long now) {
        if (channel.isOpen()) {
            return true;
        }
        if (now - connectedNanos < RECONNECT_EVERY_NANOS) {
            return false;
        }
        connection.abort();
        try {
            connect();
            return true;
        } catch (IOException | TimeoutException e) {
            return false;
        }
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
        return open(mesh, run, rate, pushEvery, Sending.ONE_RETRY);
    }

    /** The same, sending as {@code sending} says; the mesh's NATS servers all given to the driver's connection. */
    static VerbLoad open(HandoverMesh mesh, String run, double rate, int pushEvery, Sending sending)
            throws IOException, TimeoutException, InterruptedException {
        io.nats.client.Connection nats = Nats.connect(new Options.Builder().server(mesh.nats())
                .connectionName("handover-driver").maxReconnects(-1).build());
        VerbLoad load = new VerbLoad(run, mesh.broker(), nats, rate, pushEvery, sending);
        load.connect();
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


    /** @return the broker member the load's connection is on now, {@code host:port} */
    synchronized String member() {
        return connection.getAddress().getHostAddress() + ":" + connection.getPort();
    }

    /** @return the driver's nodes, whose facts it publishes */
    List<String> nodes() {
        return List.copyOf(nodes);
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
        Call call = publish(kind, subject, System.nanoTime(), true);
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
            for (long i = 0; loading; i++) {
                long due = start + i * period;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                long now = System.nanoTime();
                if (i % pushEvery == pushEvery - 1) {
                    publish(Kind.PUSH, LOAD_MODULE + ":" + run + "-v" + i, now, false);
                } else {
                    publish(Kind.READ, "", now, false);
                }
                if (now >= nextToggle) {
                    String node = nodes.get((toggles / 2) % nodes.size());
                    publish(toggles % 2 == 0 ? Kind.ASSIGN : Kind.UNASSIGN, node, now, false);
                    toggles++;
                    nextToggle += 1_000_000_000L;
                }
                if (now >= nextFacts) {
                    publishFacts();
                    nextFacts += 2_000_000_000L;
                }
                retryCursor = retry(retryCursor, now);
            }
            // Retries are still due for the last requests after the load stops: the one retry's, or until answered.
            long end = sending == Sending.ONE_RETRY ? System.nanoTime() + RETRY_AFTER.toNanos() + 100_000_000L
                    : drainUntil;
            while (System.nanoTime() < end && (sending == Sending.ONE_RETRY || !allAnswered())) {
                retryCursor = retry(retryCursor, System.nanoTime());
                Thread.sleep(20);
            }
        } catch (IOException e) {
            System.err.println("handover driver: the load's channel failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int retry(int cursor, long now) throws IOException {
        return sending == Sending.ONE_RETRY ? retryDue(cursor, now) : retryUnanswered(now);
    }

    /** Sends the one retry of every request sent at least {@link #RETRY_AFTER} ago and still unanswered. */
    private synchronized int retryDue(int cursor, long now) throws IOException {
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

    /** Sends again every request whose last send was {@link #RETRY_AFTER} ago or more and that has no reply yet. */
    private synchronized int retryUnanswered(long now) throws IOException {
        while (!unanswered.isEmpty() && now - unanswered.peekFirst().lastSentNanos >= RETRY_AFTER.toNanos()) {
            Call call = unanswered.pollFirst();
            if (!call.answered()) {
                if (call.retriedNanos == 0) {
                    call.retriedNanos = now;
                }
                send(call, now);
            }
        }
        return 0;
    }

    private synchronized boolean allAnswered() {
        unanswered.removeIf(Call::answered);
        return unanswered.isEmpty();
    }

    private synchronized Call publish(Kind kind, String subject, long now, boolean keep) throws IOException {
        String id = run + "-" + sent.size();
        Call call = new Call(id, kind, subject, now);
        call.keep = keep;
        sent.add(call);
        calls.put(id, call);
        if (sending == Sending.ONE_RETRY) {
            channel.basicPublish("", QUEUE, properties(id), body(call));
        } else {
            call.acknowledged = false;
            send(call, now);
        }
        return call;
    }

    /**
     * Publishes a call with confirms, and queues it to be sent again: a publish the channel refuses (its connection
     * gone, recovering) is a send the broker never got, and the next try comes {@link #RETRY_AFTER} later.
     */
    private void send(Call call, long now) throws IOException {
        call.sends++;
        call.lastSentNanos = now;
        unanswered.addLast(call);
        if (!connected(now)) {
            return;
        }
        long sequence = channel.getNextPublishSeqNo();
        unconfirmed.put(sequence, call);
        try {
            channel.basicPublish("", QUEUE, properties(call.id), body(call));
        } catch (IOException | ShutdownSignalException refused) {
            unconfirmed.remove(sequence);
        }
    }

    /** The broker's confirm (or nack) of one send, or of every send up to {@code tag}. */
    private void confirmed(long tag, boolean multiple, boolean ack) {
        Map<Long, Call> settled = multiple ? unconfirmed.headMap(tag, true) : unconfirmed.subMap(tag, true, tag, true);
        if (ack) {
            settled.values().forEach(call -> call.acknowledged = true);
        }
        settled.clear();
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
        if (call.keep) {
            call.answer = result.path("structuredContent");
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
        drainUntil = System.nanoTime() + patience.toNanos();
        loading = false;
        if (sender != null) {
            sender.join();
        }
        long deadline = System.nanoTime() + patience.toNanos();
        while (snapshot().stream().anyMatch(c -> !c.answered()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return snapshot();
    }

    private synchronized List<Call> snapshot() {
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
