package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A caller of the verbs over the broker, written with the plain RabbitMQ client as a client in another
 * language would be: publishes to the default exchange with routing key {@code mesh-controller.verbs},
 * {@code reply_to} = {@code amq.rabbitmq.reply-to}, and reads the replies.
 */
final class Caller implements AutoCloseable {

    static final String VERBS = "mesh-controller.verbs";
    static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

    private final Connection connection;
    private final Channel channel;
    private final String user;
    private final BlockingQueue<Delivery> replies = new LinkedBlockingQueue<>();

    Caller(String vhost, String user, String password) throws IOException, TimeoutException {
        this(RabbitVhost.PORT, vhost, user, password);
    }

    /** A caller of the broker on another port of this machine: a member of a test cluster. */
    Caller(int port, String vhost, String user, String password) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitVhost.HOST);
        factory.setPort(port);
        factory.setVirtualHost(vhost);
        factory.setUsername(user);
        factory.setPassword(password);
        this.user = user;
        this.connection = factory.newConnection("it-caller");
        this.channel = connection.createChannel();
        channel.basicConsume(DIRECT_REPLY_TO, true, (tag, delivery) -> replies.add(delivery), tag -> { });
    }

    /** @return the properties of a request as the wire contract has them, with a fresh correlation id */
    AMQP.BasicProperties.Builder request(String messageId) {
        return new AMQP.BasicProperties.Builder().replyTo(DIRECT_REPLY_TO).correlationId(UUID.randomUUID().toString())
                .userId(user).messageId(messageId).contentType("application/json");
    }

    /** Publishes a request and waits for its reply, which must be the reply to this request, the only one. */
    Delivery call(AMQP.BasicProperties properties, String body) throws IOException, InterruptedException {
        send(properties, body);
        Delivery reply = reply();
        if (!properties.getCorrelationId().equals(reply.getProperties().getCorrelationId())) {
            throw new AssertionError("the reply has correlation_id " + reply.getProperties().getCorrelationId()
                    + ", the request " + properties.getCorrelationId() + ": a reply to another request, or a second");
        }
        return reply;
    }

    void send(AMQP.BasicProperties properties, String body) throws IOException {
        channel.basicPublish("", VERBS, properties, body.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the next reply, failing after 10 s */
    Delivery reply() throws InterruptedException {
        Delivery reply = replies.poll(10, TimeUnit.SECONDS);
        if (reply == null) {
            throw new AssertionError("no reply in 10 s");
        }
        return reply;
    }

    /** @return the next reply within {@code ms}, or {@code null} when none came */
    Delivery poll(long ms) throws InterruptedException {
        return replies.poll(ms, TimeUnit.MILLISECONDS);
    }

    /** @return the channel, to publish what a well-behaved caller would not */
    Channel channel() {
        return channel;
    }

    @Override
    public void close() throws IOException {
        connection.close();
    }
}
