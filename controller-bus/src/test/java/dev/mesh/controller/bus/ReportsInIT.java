package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reports in from the real RabbitMQ, on a virtual host of its own, with broker users made for the test's
 * nodes and builders. The senders are plain {@code amqp-client} code, as a host or builder in another
 * language would write them: default exchange, routing key {@code mesh-controller.reports}, {@code user_id}.
 */
class ReportsInIT {

    private static final String REPORTS = "mesh-controller.reports";
    private static final String DEAD = "mesh-controller.dead";
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final String POISON = "sha256:poison";

    private final MemoryIdentity identity = new MemoryIdentity();
    private final BlockingQueue<Report> recorded = new LinkedBlockingQueue<>();
    private final AtomicInteger poisonAttempts = new AtomicInteger();
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile long unavailableUntil = System.nanoTime();
    private final List<Connection> senders = new ArrayList<>();
    private final BlockingQueue<Delivery> deadArrived = new LinkedBlockingQueue<>();
    private final Map<String, Delivery> dead = new HashMap<>();
    private RabbitVhost vhost;
    private Broker broker;
    private ReportsIn in;
    private Channel guest;

    @BeforeEach
    void start() throws Exception {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        in = ReportsIn.start(broker, identity, this::record, Clock.systemUTC());
        guest = sender("guest");
        guest.basicConsume(DEAD, true, (tag, delivery) -> deadArrived.add(delivery), tag -> { });
    }

    @AfterEach
    void stop() throws Exception {
        in.close();
        for (Connection sender : senders) {
            sender.abort();
        }
        broker.close();
        vhost.close();
    }

    /**
     * The sink: fails as a store that is down would until {@link #unavailableUntil}; then records the report, or
     * refuses the poison revision for good.
     */
    private boolean record(Report report) {
        attempts.incrementAndGet();
        if (System.nanoTime() - unavailableUntil < 0) {
            throw new VerbException(VerbException.Code.UNAVAILABLE, "the inventory does not answer", "");
        }
        if (report instanceof Report.Applied applied && applied.revision().equals(POISON)) {
            poisonAttempts.incrementAndGet();
            throw new VerbException(VerbException.Code.INVALID, "this report can never be recorded", "");
        }
        recorded.add(report);
        return true;
    }

    @Test
    void hostReports_fromTheirNode_reachTheSink_withTheExactFields() throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);

        send(host, n1, "m-applied", applied(n1, "sha256:1", "{\"id\": \"" + n1 + "/process:mesh-store\", \"status\":"
                + " \"done\", \"detail\": \"started\"}"));
        send(host, n1, "m-failed", "{\"kind\": \"failed\", \"node\": \"" + n1 + "\", \"revision\": \"sha256:2\","
                + " \"steps\": [{\"id\": \"" + n1 + "/process:a\", \"status\": \"done\"}, {\"id\": \"" + n1
                + "/process:b\", \"status\": \"failed\", \"detail\": \"exit 3\"}], \"at\": \"2026-12-01T10:00:01Z\","
                + " \"unknown\": true}");

        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1",
                List.of(new Report.Step(n1 + "/process:mesh-store", true, "started")), AT));
        assertThat(next()).isEqualTo(new Report.Failed(n1, "sha256:2", List.of(new Report.Step(n1 + "/process:a",
                true, ""), new Report.Step(n1 + "/process:b", false, "exit 3")), AT.plusSeconds(1)));
        ReportsIn.Counts counts = settled();
        assertThat(counts.received()).isEqualTo(3);
        assertThat(counts.accepted()).isEqualTo(2);
        assertThat(counts.requeued()).isZero();
        assertThat(counts.rejected()).containsOnlyKeys(ReportsIn.Rejection.values()).allSatisfy((reason, n) ->
                assertThat(n).as(reason.label()).isEqualTo(reason == ReportsIn.Rejection.NO_USER_ID ? 1 : 0));
        assertThat(guest.queueDeclarePassive(REPORTS).getMessageCount()).as("acknowledged").isZero();
    }

    @Test
    void hostReport_aboutAnotherNode_isDeadAtOnce_andCounted_andTheNextStillGoesThrough() throws Exception {
        String n1 = vhost.addUser();
        String n2 = vhost.addUser();

        send(sender(n2), n2, "m-mismatch", applied(n1, "sha256:1", ""));
        send(sender(n1), n1, "m-good", applied(n1, "sha256:1", ""));

        assertRejected(deadLetter("m-mismatch"));
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
        assertThat(settled().rejected(ReportsIn.Rejection.NODE_MISMATCH)).isEqualTo(1);
        assertThat(recorded).as("only the good one").isEmpty();
    }

    @Test
    void buildReport_fromAPrincipalGrantedBuild_isAccepted_fromOneWithout_isDead() throws Exception {
        String builder = vhost.addUser();
        String stranger = vhost.addUser();
        identity.add(builder);
        identity.grant(builder, "build");
        identity.add(stranger);
        identity.grant(stranger, "status", "nodes");
        String build = "{\"kind\": \"build\", \"build\": \"build:mesh-store@1.2.0/server\", \"status\": \"failed\","
                + " \"detail\": \"cargo: exit 101\", \"at\": \"2026-12-01T10:00:00Z\"}";

        send(sender(stranger), stranger, "m-stranger", build);
        send(sender(builder), builder, "m-builder", build);

        assertRejected(deadLetter("m-stranger"));
        assertThat(next()).isEqualTo(new Report.Build("build:mesh-store@1.2.0/server", false, "cargo: exit 101", null, null,
                AT));
        assertThat(settled().rejected(ReportsIn.Rejection.NOT_A_BUILDER)).isEqualTo(1);
    }

    @Test
    void unreadableBodies_andNoUserId_areDeadAtOnce_andCounted_andTheNextStillGoesThrough() throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);

        send(host, n1, "m-not-json", "not json {");
        send(host, n1, "m-no-steps", "{\"kind\": \"applied\", \"node\": \"" + n1 + "\", \"revision\": \"sha256:1\","
                + " \"at\": \"2026-12-01T10:00:00Z\"}");
        send(host, n1, "m-unknown-kind", "{\"kind\": \"rebooted\", \"node\": \"" + n1 + "\"}");
        send(guest, null, "m-no-user-id", applied(n1, "sha256:1", ""));
        send(host, n1, "m-good", applied(n1, "sha256:1", ""));

        for (String id : List.of("m-not-json", "m-no-steps", "m-unknown-kind", "m-no-user-id")) {
            assertRejected(deadLetter(id));
        }
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
        ReportsIn.Counts counts = settled();
        assertThat(counts.rejected(ReportsIn.Rejection.UNREADABLE)).isEqualTo(3);
        assertThat(counts.rejected(ReportsIn.Rejection.NO_USER_ID)).as("one, and the fence").isEqualTo(2);
        assertThat(counts.accepted()).isEqualTo(1);
    }

    @Test
    void reportTheSinkRefusesForGood_isDeliveredAgain_untilTheDeliveryLimit_thenDead_andTheConsumerKeepsWorking()
            throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);

        send(host, n1, "m-poison", applied(n1, POISON, ""));

        Delivery poison = deadLetter("m-poison");
        assertThat(poison.getProperties().getHeaders().get("x-first-death-reason")).hasToString("delivery_limit");
        // RabbitMQ 3.10 dead-letters a message returned more than x-delivery-limit times: the first delivery
        // and five more.
        assertThat(poisonAttempts.get()).isEqualTo(Topology.DELIVERY_LIMIT + 1);
        send(host, n1, "m-good", applied(n1, "sha256:1", ""));
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
        ReportsIn.Counts counts = settled();
        assertThat(counts.requeued()).isEqualTo(Topology.DELIVERY_LIMIT + 1);
        assertThat(counts.paused()).as("not for a refusal other than unavailable").isZero();
        assertThat(counts.accepted()).isEqualTo(1);
        assertThat(counts.received()).isEqualTo(Topology.DELIVERY_LIMIT + 1 + 2);
    }

    @Test
    void consumerCancelledByTheBroker_theQueueDeletedAndDeclaredAgain_takesReportsAgain() throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);
        Channel consuming = in.consuming();
        CountDownLatch left = new CountDownLatch(1);
        consuming.addShutdownListener(signal -> left.countDown());

        // Injected: the reports' queue deleted under the running consumer (the broker cancels it), then, once
        // the consumer left that channel, declared again.
        guest.queueDelete(REPORTS);
        assertThat(left.await(10, TimeUnit.SECONDS)).as("the consumer left the cancelled consumer's channel").isTrue();
        Topology.declare(broker);

        // Seen: a report sent now is recorded and acknowledged.
        send(host, n1, "m-after", applied(n1, "sha256:1", ""));
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
        assertThat(settled().accepted()).isEqualTo(1);
        assertThat(in.consuming()).isNotSameAs(consuming);
    }

    @Test
    void consumingChannelClosedByTheBroker_isReopened_andReportsAreRecordedAgain() throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);
        Channel consuming = in.consuming();
        CountDownLatch closed = new CountDownLatch(1);
        consuming.addShutdownListener(signal -> closed.countDown());

        // Injected: a channel error on the consuming channel (an acknowledgement of a delivery tag it never had:
        // 406 PRECONDITION_FAILED closes that channel, not the connection).
        consuming.basicAck(999_999, false);
        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the broker closed the channel").isTrue();
        assertThat(((AMQP.Channel.Close) consuming.getCloseReason().getReason()).getReplyCode()).isEqualTo(406);

        // Seen: the report is recorded once the channel is back (after 1 s).
        send(host, n1, "m-after", applied(n1, "sha256:1", ""));
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
        assertThat(in.consuming().isOpen()).isTrue();
    }

    @Test
    void sinkUnavailableForTenSeconds_longerThanSixDeliveriesTake_noReportIsDead_andAllAreRecordedAfterwards()
            throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);
        // Injected: the sink throws unavailable (as Executor.record does on a standby, or with the store down)
        // for 10 s; six deliveries of a report, one a second, would take about 6 s.
        long outage = TimeUnit.SECONDS.toNanos(10);
        unavailableUntil = System.nanoTime() + outage;
        long start = System.nanoTime();

        send(host, n1, "m-1", applied(n1, "sha256:1", ""));
        awaitAttempts(1);
        for (int i = 2; i <= 5; i++) {
            send(host, n1, "m-" + i, applied(n1, "sha256:" + i, ""));
        }

        // Seen: while it is unavailable, the consumer takes nothing more (it cancelled itself: the reports sent
        // after the first wait in the queue, not in its prefetch) ...
        awaitReady(4);
        assertThat(in.counts().received()).isEqualTo(1);
        assertThat(recorded).isEmpty();
        // ... and afterwards every report is recorded, in order, none of them dead.
        for (int i = 1; i <= 5; i++) {
            Report report = recorded.poll(30, TimeUnit.SECONDS);
            assertThat(report).as("report " + i + " recorded").isEqualTo(new Report.Applied(n1, "sha256:" + i,
                    List.of(), AT));
        }
        assertThat(System.nanoTime() - start).as("not before the outage ended").isGreaterThanOrEqualTo(outage);
        ReportsIn.Counts counts = settled();
        assertThat(counts.accepted()).isEqualTo(5);
        assertThat(counts.requeued()).as("none given back").isZero();
        assertThat(counts.paused()).isEqualTo(1);
        assertThat(counts.received()).as("each delivered once, and the fence").isEqualTo(6);
        assertThat(attempts.get() - 4).as("the first report tried about once a second, the others once")
                .isBetween(9, 13);
        assertThat(dead.keySet()).as("only the fence is dead").allSatisfy(id -> assertThat(id).startsWith("fence-"));
        assertThat(guest.queueDeclarePassive(REPORTS).getConsumerCount()).as("consuming again").isEqualTo(1);
        send(host, n1, "m-6", applied(n1, "sha256:6", ""));
        assertThat(next()).isEqualTo(new Report.Applied(n1, "sha256:6", List.of(), AT));
    }

    @Test
    void reportHeldWhileUnavailable_isGivenBack_whenAnotherControllerConsumesTheQueue() throws Exception {
        String n1 = vhost.addUser();
        Channel host = sender(n1);
        BlockingQueue<Report> recordedByOther = new LinkedBlockingQueue<>();
        unavailableUntil = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        // Another controller, consuming after this one: with a single active consumer it waits.
        try (Broker otherBroker = Broker.connect(vhost.settings(), "it-other");
                ReportsIn other = ReportsIn.start(otherBroker, identity, report -> recordedByOther.add(report),
                        Clock.systemUTC())) {

            send(host, n1, "m-1", applied(n1, "sha256:1", ""));

            // Seen: this one, unavailable, stops and gives the report back; the other records it.
            Report report = recordedByOther.poll(30, TimeUnit.SECONDS);
            assertThat(report).isEqualTo(new Report.Applied(n1, "sha256:1", List.of(), AT));
            assertThat(recorded).isEmpty();
            assertThat(in.counts().paused()).isEqualTo(1);
            assertThat(in.counts().requeued()).isEqualTo(1);
            assertThat(other.counts().received()).as("delivered to the other once").isEqualTo(1);
        }
    }

    /** Waits up to 10 s for the reports' queue to have that many messages ready, polling the broker. */
    private void awaitReady(int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long ready = guest.queueDeclarePassive(REPORTS).getMessageCount();
        while (ready != expected && System.nanoTime() < deadline) {
            ready = guest.queueDeclarePassive(REPORTS).getMessageCount();
        }
        assertThat(ready).as("messages ready in " + REPORTS).isEqualTo(expected);
    }

    /** Waits up to 10 s for the sink to have been called that many times. */
    private void awaitAttempts(int expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (attempts.get() < expected && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(attempts.get()).as("sink calls").isGreaterThanOrEqualTo(expected);
    }

    private static String applied(String node, String revision, String steps) {
        return "{\"kind\": \"applied\", \"node\": \"" + node + "\", \"revision\": \"" + revision + "\", \"steps\": ["
                + steps + "], \"at\": \"2026-12-01T10:00:00Z\"}";
    }

    /** @return a channel on a connection of its own as {@code user}, whose password is its name (or guest's) */
    private Channel sender(String user) throws Exception {
        Connection connection = vhost.connect(user);
        senders.add(connection);
        return connection.createChannel();
    }

    /** Publishes as a host or builder does; {@code userId} {@code null} for none. */
    private static void send(Channel channel, String userId, String messageId, String body) throws Exception {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().userId(userId).messageId(messageId)
                .contentType("application/json").deliveryMode(2).build();
        channel.basicPublish("", REPORTS, properties, body.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the next report the sink recorded, failing after 10 s */
    private Report next() throws InterruptedException {
        Report report = recorded.poll(10, TimeUnit.SECONDS);
        assertThat(report).as("a report recorded in 10 s").isNotNull();
        return report;
    }

    /** @return the dead letter with that message id, failing after 30 s */
    private Delivery deadLetter(String messageId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!dead.containsKey(messageId)) {
            Delivery arrived = deadArrived.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            assertThat(arrived).as("dead letter " + messageId + " in 30 s").isNotNull();
            dead.put(arrived.getProperties().getMessageId(), arrived);
        }
        return dead.get(messageId);
    }

    private static void assertRejected(Delivery deadLetter) {
        assertThat(deadLetter.getProperties().getHeaders().get("x-first-death-reason")).hasToString("rejected");
        assertThat(deadLetter.getProperties().getHeaders().get("x-first-death-queue")).hasToString(REPORTS);
    }

    /**
     * Sends a fence (a message without {@code user_id}, rejected at once) and waits for it to be dead: the
     * consumer handles one message at a time, so everything sent before is counted by then.
     *
     * @return the counts then
     */
    private ReportsIn.Counts settled() throws Exception {
        String fence = "fence-" + UUID.randomUUID();
        send(guest, null, fence, "{}");
        assertRejected(deadLetter(fence));
        return in.counts();
    }
}
