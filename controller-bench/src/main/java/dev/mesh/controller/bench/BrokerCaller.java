package dev.mesh.controller.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A caller of the verbs over the broker, as the drivers time it: its own connection, direct reply-to, one
 * request in flight; each request with a {@code correlation_id}, {@code user_id} and a fresh {@code message_id}.
 * Confined to one thread.
 */
final class BrokerCaller implements AutoCloseable {

    private final Connection connection;
    private final String user;
    private final Channel channel;
    private final BlockingQueue<Delivery> replies = new ArrayBlockingQueue<>(16);
    private long next;

    BrokerCaller(Connection connection, String user) throws IOException {
        this.connection = connection;
        this.user = user;
        this.channel = connection.createChannel();
        channel.basicConsume("amq.rabbitmq.reply-to", true, (tag, delivery) -> replies.add(delivery), tag -> { });
    }

    /** @return the body of the reply to {@code body}, published to {@code queue} */
    byte[] call(String queue, byte[] body) throws IOException, InterruptedException {
        String correlation = Long.toString(next++);
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().replyTo("amq.rabbitmq.reply-to")
                .correlationId(correlation).userId(user).messageId("m-" + correlation + "-"
                        + System.nanoTime()).contentType("application/json").build();
        channel.basicPublish("", queue, properties, body);
        Delivery reply = replies.poll(10, TimeUnit.SECONDS);
        if (reply == null) {
            throw new IllegalStateException("no reply from " + queue + " in 10 s");
        }
        if (!correlation.equals(reply.getProperties().getCorrelationId())) {
            throw new IllegalStateException("a reply to another request: " + reply.getProperties().getCorrelationId());
        }
        return reply.getBody();
    }

    @Override
    public void close() throws IOException {
        connection.abort();
    }
}
