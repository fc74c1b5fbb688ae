package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import dev.mesh.controller.core.Lifecycle;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Publishes the verbs' replies and waits for the broker to confirm each: on a channel of its own in
 * confirm mode, reopened when the broker closed it. A reply to a queue is published {@code mandatory}, so
 * one the broker cannot route (the caller's reply queue is gone) comes back and counts as not sent.
 *
 * <p>Not thread-safe: used by the one consumer thread of {@link BrokerVerbs}'s channel.
 */
final class Replies implements AutoCloseable {

    /**
     * The prefix of direct reply-to names. The broker routes those to the caller's channel, not through a
     * queue, and would return a {@code mandatory} reply it delivered; when the caller is gone, the reply is
     * dropped, as nobody could read it.
     */
    static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";
    /** How long the broker has to confirm a reply, in milliseconds. */
    static final long CONFIRM_TIMEOUT_MS = 5_000;

    private final Connection connection;
    /** What the broker returned for the reply in flight, {@code null} for nothing. */
    private final AtomicReference<String> returned = new AtomicReference<>();
    private Channel channel;

    Replies(Connection connection) {
        this.connection = connection;
    }

    /**
     * Sends one reply and waits for the broker to confirm it.
     *
     * @param replyTo the request's {@code reply_to}
     * @param correlationId the request's {@code correlation_id}, or {@code null}
     * @param body the JSON-RPC response
     * @param status the answering controller, for the {@code epoch} and {@code instance} headers
     * @throws BusException when the broker does not take it, returns it or does not confirm it in time
     */
    void send(String replyTo, String correlationId, byte[] body, Lifecycle.Status status) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .contentType("application/json")
                .correlationId(correlationId)
                .headers(Map.of("epoch", status.epoch(), "instance", status.instance()))
                .build();
        try {
            Channel open = channel();
            returned.set(null);
            open.basicPublish("", replyTo, !replyTo.startsWith(DIRECT_REPLY_TO), properties, body);
            // A return comes before the confirm of the same message, on the connection's thread.
            open.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
        } catch (IOException | ShutdownSignalException e) {
            throw new BusException("cannot send the reply to " + replyTo + ": " + Broker.reason(e)
                    + "; the request is delivered again", e);
        } catch (TimeoutException e) {
            throw new BusException("the broker did not confirm the reply to " + replyTo + " in " + CONFIRM_TIMEOUT_MS
                    + " ms; the request is delivered again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while waiting for the broker to confirm the reply to " + replyTo
                    + "; the request is delivered again", e);
        }
        String why = returned.getAndSet(null);
        if (why != null) {
            throw new BusException("the broker could not route the reply to " + replyTo + " (" + why + "): the "
                    + "caller's reply queue does not exist; the request is delivered again, up to the delivery limit");
        }
    }

    /**
     * Opens the channel now rather than at the first reply: a standby that takes over answers its first
     * request without two more round trips to the broker.
     *
     * @throws IOException when the broker does not open it
     */
    void open() throws IOException {
        channel();
    }

    private Channel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            Broker.abort(channel);
            Channel fresh = connection.createChannel();
            fresh.confirmSelect();
            fresh.addReturnListener(back -> returned.set(back.getReplyCode() + " " + back.getReplyText()));
            channel = fresh;
        }
        return channel;
    }

    @Override
    public void close() {
        Broker.abort(channel);
    }
}
