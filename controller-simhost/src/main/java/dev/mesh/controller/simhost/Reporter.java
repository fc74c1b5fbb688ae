package dev.mesh.controller.simhost;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes reports to {@code mesh-controller.reports} on the default exchange: persistent, with
 * {@code user_id}, {@code mandatory}, publisher-confirmed. Used by one thread at a time.
 */
final class Reporter {

    static final String QUEUE = "mesh-controller.reports";
    private static final Logger LOG = LoggerFactory.getLogger(Reporter.class);
    private static final long CONFIRM_TIMEOUT_MS = 5_000;

    private final Connection connection;
    private final String user;
    private Channel channel;
    private volatile boolean returned;

    Reporter(Connection connection, String user) {
        this.connection = connection;
        this.user = user;
    }

    /**
     * @return whether the broker confirmed the report and routed it to the reports queue; {@code false}
     *         (logged) when it was not confirmed in 5 s, was returned (no such queue), or the channel failed
     */
    boolean report(byte[] body, String what) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("application/json")
                .deliveryMode(2).userId(user).build();
        try {
            Channel open = channel();
            returned = false;
            open.basicPublish("", QUEUE, true, properties, body);
            open.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
            // A basic.return comes before the confirm of the same message, so the flag is set by now.
            if (returned) {
                LOG.warn("report returned queue={} report={} reason=no-such-queue", QUEUE, what);
                return false;
            }
            return true;
        } catch (IOException | TimeoutException | ShutdownSignalException e) {
            LOG.warn("report not confirmed queue={} report={} error={}", QUEUE, what, e.toString());
            Connections.close(channel);
            channel = null;
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Channel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            channel = connection.createChannel();
            channel.confirmSelect();
            channel.addReturnListener(r -> returned = true);
        }
        return channel;
    }

    void close() {
        Connections.close(channel);
    }
}
