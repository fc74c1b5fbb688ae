package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.fail;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The controller's side of the wire, written with plain amqp-client and jnats as a test in another
 * language would: the topology of docs/design.md section 8, declarations and orders out, reports and facts in.
 */
final class Controller implements AutoCloseable {

    static final String NATS_URL = "nats://127.0.0.1:4222";
    private static final String NATS_START = "start-stop-daemon --start --oknodo --background --exec"
            + " /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log";
    static final String REPORTS = "mesh-controller.reports";
    static final String DEAD = "mesh-controller.dead";
    static final String DECLARATIONS = "mesh.declarations";
    static final String BUILDS = "mesh.builds";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** A report as it arrived: its properties and its body. */
    record Report(AMQP.BasicProperties properties, JsonNode body) {
    }

    private final Connection amqp;
    private final Channel channel;
    private final io.nats.client.Connection nats;
    private final BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
    private Subscription facts;

    private Controller(Connection amqp, Channel channel, io.nats.client.Connection nats) {
        this.amqp = amqp;
        this.channel = channel;
        this.nats = nats;
    }

    /** Connects as guest to the virtual host and to NATS, and listens to the facts under {@code prefix}. */
    static Controller open(RabbitVhost vhost, String prefix) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 4222), 2_000);
        } catch (IOException e) {
            fail("NATS does not answer at 127.0.0.1:4222 (" + e.getMessage() + "); start it: " + NATS_START);
        }
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitVhost.HOST);
        factory.setPort(RabbitVhost.PORT);
        factory.setVirtualHost(vhost.name());
        factory.setUsername(RabbitVhost.USER);
        factory.setPassword(RabbitVhost.USER);
        Connection amqp = factory.newConnection("simhost-it-controller");
        Channel channel = amqp.createChannel();
        channel.confirmSelect();
        Controller controller = new Controller(amqp, channel, Nats.connect(NATS_URL));
        controller.facts = controller.nats.subscribe(prefix + "mesh.nodes.*.facts");
        controller.nats.flush(Duration.ofSeconds(5));
        return controller;
    }

    /** Declares the controller's reports queue with its dead letters, and the two exchanges. */
    void declareTopology() throws IOException {
        channel.exchangeDeclare(DEAD, BuiltinExchangeType.FANOUT, true);
        channel.queueDeclare(DEAD, true, false, false, Map.of("x-queue-type", "quorum"));
        channel.queueBind(DEAD, DEAD, "");
        channel.queueDeclare(REPORTS, true, false, false, Map.of("x-queue-type", "quorum",
                "x-single-active-consumer", true, "x-delivery-limit", 5, "x-dead-letter-exchange", DEAD));
        channel.exchangeDeclare(DECLARATIONS, BuiltinExchangeType.DIRECT, true);
        channel.exchangeDeclare(BUILDS, BuiltinExchangeType.DIRECT, true);
        channel.basicConsume(REPORTS, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws IOException {
                reports.add(new Report(properties, MAPPER.readTree(body)));
                getChannel().basicAck(envelope.getDeliveryTag(), false);
            }
        });
    }

    /** Declares {@code mesh-host.<node>}, a quorum queue bound to {@code mesh.declarations} with key {@code node}. */
    void declareHost(String node) throws IOException {
        channel.queueDeclare("mesh-host." + node, true, false, false, Map.of("x-queue-type", "quorum"));
        channel.queueBind("mesh-host." + node, DECLARATIONS, node);
    }

    /** @return how many messages wait in {@code queue}, not counting those delivered and not acknowledged */
    long ready(String queue) throws IOException {
        return channel.queueDeclarePassive(queue).getMessageCount();
    }

    /**
     * Publishes a declaration as the controller does: persistent, confirmed, {@code user_id} its own user, headers
     * revision and epoch.
     */
    void declare(String node, String revision, long epoch, String body) throws Exception {
        declare(channel, RabbitVhost.USER, node, revision, epoch, body);
    }

    /** Publishes a declaration on {@code channel} (in confirm mode) with {@code userId} (none when null). */
    static void declare(Channel channel, String userId, String node, String revision, long epoch, String body)
            throws Exception {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("application/json")
                .deliveryMode(2).userId(userId).headers(Map.of("revision", revision, "epoch", epoch)).build();
        channel.basicPublish(DECLARATIONS, node, true, properties, body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(5_000);
    }

    /** Publishes a build order as the controller does: to {@code mesh.builds}, key the system, persistent. */
    void order(String system, String body) throws Exception {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("application/json")
                .deliveryMode(2).build();
        channel.basicPublish(BUILDS, system, true, properties, body.getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(5_000);
    }

    /** @return the next report, or {@code null} when none came within {@code timeout} */
    Report report(Duration timeout) throws InterruptedException {
        return reports.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * @return the first facts message that satisfies {@code condition}, skipping the others; fails the
     *         test when none does within {@code timeout}
     */
    JsonNode awaitFacts(Predicate<JsonNode> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            JsonNode next = left <= 0 ? null : facts(Duration.ofNanos(left));
            if (next == null) {
                return fail("no facts such as expected within " + timeout);
            }
            if (condition.test(next)) {
                return next;
            }
        }
    }

    /** @return the next facts message, or {@code null} when none came within {@code timeout} */
    JsonNode facts(Duration timeout) throws InterruptedException {
        Message message = facts.nextMessage(timeout);
        return message == null ? null : MAPPER.readTree(message.getData());
    }

    /** Forgets the facts received so far, after a round trip to the server (so what it had sent is in). */
    void dropFacts() throws Exception {
        // The client's reader queues what the server sent before it answers the flush's ping.
        nats.flush(Duration.ofSeconds(5));
        while (facts.nextMessage(Duration.ofMillis(1)) != null) {
            // dropped
        }
    }

    @Override
    public void close() throws IOException {
        try {
            nats.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        amqp.close();
    }
}
