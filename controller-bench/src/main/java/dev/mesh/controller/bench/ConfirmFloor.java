package dev.mesh.controller.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.mesh.controller.bus.Topology;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The floor of a mesh-wide delivery: the same messages published with the plain RabbitMQ client and publisher
 * confirms, as {@code BrokerDeliveries} publishes them — to {@link Topology#DECLARATIONS} with the node's name as
 * routing key, {@code mandatory}, persistent, {@code application/json}, {@code user_id} the publisher's user,
 * headers {@code revision} and {@code epoch} — without the store, the planner or the executor. Two ways:
 * {@link #oneAtATime} waits for each message's confirm before the next (what {@code ConfirmedPublisher} does), and
 * {@link #streamed} publishes every message and then waits for the confirms of all.
 *
 * <p>A message the broker returns or nacks, or confirms too late, fails the run.
 */
final class ConfirmFloor {

    private static final long CONFIRM_TIMEOUT_MS = 60_000;

    private ConfirmFloor() {
    }

    /** One message to publish: the node it is for, its body and its headers' values. */
    record Message(String node, byte[] body, String revision, long epoch) {
    }

    /**
     * Publishes each message and waits for its confirm before the next.
     *
     * @return {@link System#nanoTime()} when the last confirm came
     */
    static long oneAtATime(Connection connection, String user, List<Message> messages)
            throws IOException, InterruptedException, TimeoutException {
        return publish(connection, user, messages, true);
    }

    /**
     * Publishes every message, then waits for the confirms of all.
     *
     * @return {@link System#nanoTime()} when the last confirm came
     */
    static long streamed(Connection connection, String user, List<Message> messages)
            throws IOException, InterruptedException, TimeoutException {
        return publish(connection, user, messages, false);
    }

    private static long publish(Connection connection, String user, List<Message> messages, boolean awaitEach)
            throws IOException, InterruptedException, TimeoutException {
        Channel channel = channel(connection);
        AtomicReference<String> returned = returns(channel);
        try {
            for (Message message : messages) {
                channel.basicPublish(Topology.DECLARATIONS, message.node(), true, properties(user, message),
                        message.body());
                if (awaitEach) {
                    channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
                }
            }
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
            long last = System.nanoTime();
            requireNoReturn(returned);
            return last;
        } finally {
            channel.abort();
        }
    }

    private static Channel channel(Connection connection) throws IOException {
        Channel channel = connection.createChannel();
        channel.confirmSelect();
        return channel;
    }

    private static AtomicReference<String> returns(Channel channel) {
        AtomicReference<String> returned = new AtomicReference<>();
        channel.addReturnListener(back -> returned.compareAndSet(null, back.getRoutingKey() + ": "
                + back.getReplyCode() + " " + back.getReplyText()));
        return returned;
    }

    private static void requireNoReturn(AtomicReference<String> returned) {
        if (returned.get() != null) {
            throw new IllegalStateException("the broker returned a floor message (no queue for it): "
                    + returned.get());
        }
    }

    /** The properties {@code BrokerDeliveries} gives a declaration. */
    private static AMQP.BasicProperties properties(String user, Message message) {
        return new AMQP.BasicProperties.Builder()
                .deliveryMode(2)
                .contentType("application/json")
                .userId(user)
                .headers(Map.of("revision", message.revision(), "epoch", message.epoch()))
                .build();
    }
}
