package dev.mesh.controller.bus;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the NATS client reports about a controller connection, in the controller's log: one line each through
 * SLF4J, never the client's default {@code java.util.logging} lines (raw {@code SEVERE} text on standard error).
 * A lost connection is WARN and its return INFO; errors and discarded messages are WARN at
 * most once a minute per kind. Thread-safe.
 */
final class NatsLog implements ErrorListener, ConnectionListener {

    private static final Logger LOG = LoggerFactory.getLogger(NatsLog.class);

    private final String name;
    private final String url;
    private final OncePerMinute often = new OncePerMinute(Clock.systemUTC());

    /**
     * @param name the connection's name, e.g. {@code mesh-controller facts}
     * @param url the server's address
     */
    NatsLog(String name, String url) {
        this.name = name;
        this.url = url;
    }

    @Override
    public void connectionEvent(Connection connection, Events event) {
        switch (event) {
            case DISCONNECTED -> LOG.warn("nats disconnected name=\"{}\" url={}; reconnecting every second", name, url);
            case RECONNECTED -> LOG.info("nats reconnected name=\"{}\" url={}", name, url);
            default -> LOG.debug("nats connection name=\"{}\" url={} event={}", name, url, event);
        }
    }

    @Override
    public void errorOccurred(Connection connection, String error) {
        if (often.due("error")) {
            LOG.warn("nats error name=\"{}\" url={} error=\"{}\"", name, url, error);
        }
    }

    @Override
    public void exceptionOccurred(Connection connection, Exception exception) {
        if (often.due("exception")) {
            LOG.warn("nats connection failed name=\"{}\" url={} error=\"{}\"", name, url, Broker.reason(exception));
        }
    }

    @Override
    public void slowConsumerDetected(Connection connection, Consumer consumer) {
        if (often.due("slow")) {
            LOG.warn("nats slow consumer name=\"{}\" url={} pending={}; messages beyond the client's limit are dropped",
                    name, url, consumer.getPendingMessageCount());
        }
    }

    @Override
    public void messageDiscarded(Connection connection, Message message) {
        if (often.due("discarded")) {
            LOG.warn("nats message discarded name=\"{}\" url={} subject={}", name, url, message.getSubject());
        }
    }

    @Override
    public void socketWriteTimeout(Connection connection) {
        if (often.due("write")) {
            LOG.warn("nats write timed out name=\"{}\" url={}", name, url);
        }
    }
}
