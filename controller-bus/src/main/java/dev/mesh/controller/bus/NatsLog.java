package dev.mesh.controller.bus;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import java.time.Clock;
import java.util.function.BiConsumer;
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
    private final BiConsumer<String, String> moved;
    private final OncePerMinute often = new OncePerMinute(Clock.systemUTC());
    /** The server the connection was last on, {@code nats://host:port}; {@code ""} before it connected. */
    private volatile String server = "";

    /**
     * @param name the connection's name, e.g. {@code mesh-controller facts}
     * @param url the server's address, or the cluster's servers separated by commas
     * @param moved told, after the connection was made again, the server it was on and the one it is on now
     */
    NatsLog(String name, String url, BiConsumer<String, String> moved) {
        this.name = name;
        this.url = url;
        this.moved = moved;
    }

    @Override
    public void connectionEvent(Connection connection, Events event) {
        switch (event) {
            case CONNECTED -> server = connected(connection);
            case DISCONNECTED -> LOG.warn("nats disconnected name=\"{}\" url={} from={}; reconnecting every second",
                    name, url, server);
            case RECONNECTED -> {
                String from = server;
                server = connected(connection);
                LOG.info("nats reconnected name=\"{}\" url={} from={} to={}", name, url, from, server);
                moved.accept(from, server);
            }
            default -> LOG.debug("nats connection name=\"{}\" url={} event={}", name, url, event);
        }
    }

    /** @return the server the connection is on, {@code nats://host:port}; {@code ""} while on none */
    static String connected(Connection connection) {
        String at = connection.getConnectedUrl();
        return at == null ? "" : at;
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
