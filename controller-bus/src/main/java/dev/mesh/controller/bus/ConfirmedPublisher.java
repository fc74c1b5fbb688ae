package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Publishes persistent messages {@code mandatory} and waits for the broker to confirm each, for what the
 * controller sends that must not be lost (declarations, build orders): on a channel of its own in confirm
 * mode. A message the broker nacks, returns (no queue is bound for its routing key) or does not confirm in
 * {@value #CONFIRM_TIMEOUT_MS} ms, or a channel that fails, is a {@link BusException}; after a timeout or a
 * failed channel the channel is dropped and the next publish opens another.
 *
 * <p>Thread-safe: publishes are serialized, one in flight at a time, so a return and a confirm always
 * belong to the message being waited for.
 */
final class ConfirmedPublisher implements AutoCloseable {

    /** How long the broker has to confirm a message, in milliseconds (as for the verbs' replies). */
    static final long CONFIRM_TIMEOUT_MS = 5_000;

    private final Broker broker;
    /** What the broker returned for the message in flight, {@code null} for nothing; set on the connection's thread. */
    private volatile String returned;
    /** Guarded by {@code this}. */
    private Channel channel;

    ConfirmedPublisher(Broker broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
    }

    /**
     * Publishes one message {@code mandatory} and waits for the broker to confirm it.
     *
     * @param exchange the exchange
     * @param routingKey the routing key
     * @param properties the message's properties (persistent for what must survive a broker restart)
     * @param body the body
     * @param what the message in a few words, for failures, e.g. {@code declaration sha256:… of node n1}
     * @param unroutable why a returned message had no queue, and the fix, e.g. {@code no builder consumes …}
     * @throws BusException when the channel fails, or the broker nacks the message, returns it, or does not
     *     confirm it in time; the message says which, where, and what to do
     */
    synchronized void publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body,
            String what, String unroutable) {
        String vhost = broker.settings().vhost();
        boolean confirmed;
        try {
            Channel open = channel();
            returned = null;
            open.basicPublish(exchange, routingKey, true, properties, body);
            // The broker sends a return before the confirm of the same message; the client handles both in order.
            confirmed = open.waitForConfirms(CONFIRM_TIMEOUT_MS);
        } catch (IOException | ShutdownSignalException e) {
            drop();
            throw new BusException("cannot publish the " + what + " to exchange " + exchange + " in virtual host "
                    + vhost + ": " + Broker.reason(e) + "; it was not stored: check that RabbitMQ runs and that the "
                    + "exchange exists (prepare declares it), then send it again", e);
        } catch (TimeoutException e) {
            drop();
            throw new BusException("the broker did not confirm the " + what + " in " + CONFIRM_TIMEOUT_MS
                    + " ms (exchange " + exchange + ", virtual host " + vhost + "); it may have been stored or not: "
                    + "send it again, which is safe", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drop();
            throw new BusException("interrupted while waiting for the broker to confirm the " + what + " (exchange "
                    + exchange + ", virtual host " + vhost + "); it may have been stored or not: send it again", e);
        }
        if (!confirmed) {
            throw new BusException("the broker refused to store the " + what + " (nack; exchange " + exchange
                    + ", virtual host " + vhost + "); send it again, and when it keeps refusing look at the broker's "
                    + "log (a disk or memory alarm, a queue over its length limit)");
        }
        String why = returned;
        if (why != null) {
            throw new BusException("the broker could not route the " + what + " to a queue (" + why + "; exchange "
                    + exchange + ", routing key " + routingKey + ", virtual host " + vhost + "): " + unroutable);
        }
    }

    private Channel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            drop();
            Channel fresh = broker.connection().createChannel();
            fresh.confirmSelect();
            fresh.addReturnListener(back -> returned = back.getReplyCode() + " " + back.getReplyText());
            channel = fresh;
        }
        return channel;
    }

    /** Closes the channel, if any, so the next publish opens another: a late confirm then counts for nothing. */
    private void drop() {
        Broker.abort(channel);
        channel = null;
    }

    /** Closes the channel; does nothing when closed already. */
    @Override
    public synchronized void close() {
        drop();
    }
}
