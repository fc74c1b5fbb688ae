package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.TopologyRecoveryException;
import com.rabbitmq.client.impl.ForgivingExceptionHandler;
import dev.mesh.controller.bus.BrokerSettings.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One AMQP connection to the broker, for the topology and the transports on it. AMQP heartbeats every
 * {@value #HEARTBEAT_SECONDS} s, so a broker or a controller that froze is found in seconds (docs/design.md
 * section 10), and the client's automatic recovery with topology recovery: after a dropped connection
 * the client reconnects every {@value #RECOVERY_INTERVAL_MS} ms and restores channels and consumers. Over
 * {@link Transport.Tls TLS}, the broker's certificate must chain to the one CA of the settings and be made
 * out for the host connected to.
 *
 * <p>Thread-safe: channels may be opened from any thread.
 */
public final class Broker implements AutoCloseable {

    /**
     * The AMQP heartbeat asked for by default, in seconds (the handover's settings may ask for another). RabbitMQ
     * closes a connection it heard nothing from for two to three heartbeats, and only then feeds the next
     * single-active consumer: the heartbeat bounds how long a frozen controller (SIGSTOP) holds the verbs
     * (docs/handover.md, docs/benchmarks.md). A live controller is not at risk of being dropped for it: it
     * publishes a tick every tick period (its {@link dev.mesh.controller.core.FeedPolicy}), and any traffic counts as a heartbeat; only a
     * process stalled for two heartbeats is.
     */
    public static final int HEARTBEAT_SECONDS = 1;
    /** How long to wait between reconnection attempts, in milliseconds. */
    public static final long RECOVERY_INTERVAL_MS = 1_000;
    /**
     * The largest message body the client takes in, in bytes (4 MiB): a larger one is refused when its header
     * arrives, before any of it is read into memory, so what the consumers hold unacknowledged is bounded by
     * their prefetch times this (docs/security.md, "Bounded bodies"). The client then drops the connection (it
     * has no way to refuse one message), so the broker's own {@code max_message_size} must be this too: then such
     * a message is refused at its publisher and never reaches a queue.
     */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private final BrokerSettings settings;
    private final Connection connection;
    private final AtomicLong recoveries = new AtomicLong();
    private final List<BiConsumer<String, String>> onRecovery = new CopyOnWriteArrayList<>();
    /** The member the connection is on: {@code host:port}, renewed at each recovery. */
    private volatile String node;

    private Broker(BrokerSettings settings, Connection connection) {
        this.settings = settings;
        this.connection = connection;
        this.node = nodeOf(connection);
        if (connection instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(new RecoveryListener() {
                @Override
                public void handleRecovery(Recoverable recovered) {
                    recovered();
                }

                @Override
                public void handleRecoveryStarted(Recoverable recovering) {
                    // told when it ends
                }
            });
        }
    }

    private void recovered() {
        String from = node;
        String to = nodeOf(connection);
        node = to;
        long count = recoveries.incrementAndGet();
        LOG.warn("broker connection recovered at={} from={} to={} recoveries={}", settings.where(), from, to, count);
        onRecovery.forEach(listener -> listener.accept(from, to));
    }

    private static String nodeOf(Connection connection) {
        return new dev.mesh.controller.core.settings.Variables.Address(connection.getAddress().getHostAddress(),
                connection.getPort()).text();
    }

    /** @return the broker's member the connection is on now, {@code host:port} */
    public String node() {
        return node;
    }

    /** @return how many times the connection was lost and made again since it was first made */
    public long recoveries() {
        return recoveries.get();
    }

    /**
     * @param listener told, after each recovery of the connection, the member it was on and the one it is on now
     *     ({@code host:port}, the same when the member came back); called on the client's recovery thread, it
     *     must not block
     */
    public void onRecovery(BiConsumer<String, String> listener) {
        onRecovery.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Connects.
     *
     * @param settings where the broker is and who to be on it
     * @param name the connection's name, shown by {@code rabbitmqctl list_connections}, e.g. the instance id
     * @return the open connection
     * @throws BusException when the broker cannot be reached in {@value #CONNECT_TIMEOUT_MS} ms or refuses
     *     the user, its password or the virtual host; over TLS also when the CA's file cannot be read (before
     *     connecting), or the broker's certificate does not chain to that CA, is not for the host connected to,
     *     or is not valid now, or the TLS handshake fails otherwise
     */
    public static Broker connect(BrokerSettings settings, String name) {
        return connect(settings, name, Duration.ofSeconds(HEARTBEAT_SECONDS));
    }

    /**
     * Connects as {@link #connect(BrokerSettings, String)} does, asking for {@code heartbeat}.
     *
     * @param settings where the broker is and who to be on it
     * @param name the connection's name
     * @param heartbeat the AMQP heartbeat to ask for, in whole seconds (AMQP's unit), 1 or more
     * @return the open connection
     * @throws BusException as {@link #connect(BrokerSettings, String)} does
     * @throws IllegalArgumentException when {@code heartbeat} is not a whole number of seconds, 1 or more
     */
    public static Broker connect(BrokerSettings settings, String name, Duration heartbeat) {
        if (heartbeat.toSeconds() < 1 || heartbeat.toMillis() % 1_000 != 0) {
            throw new IllegalArgumentException("the AMQP heartbeat is whole seconds, 1 or more, not " + heartbeat);
        }
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(name, "name");
        ConnectionFactory factory = new ConnectionFactory();
        factory.setVirtualHost(settings.vhost());
        factory.setUsername(settings.user());
        factory.setPassword(settings.password().reveal());
        factory.setRequestedHeartbeat(Math.toIntExact(heartbeat.toSeconds()));
        factory.setMaxInboundMessageBodySize(MAX_BODY_BYTES);
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL_MS);
        factory.setExceptionHandler(new OneLineExceptionHandler());
        if (settings.transport() instanceof Transport.Tls tls) {
            factory.useSslProtocol(BrokerTls.context(tls.certificate()));
            factory.setSocketConfigurator(factory.getSocketConfigurator().andThen(BrokerTls::configure));
        }
        try {
            // Tried in the order given, and again in that order whenever the connection is recovered.
            Connection connection = factory.newConnection(settings.addresses().stream()
                    .map(address -> new Address(address.host(), address.port())).toList(), name);
            LOG.info("broker connected at={} to={} name={} tls={} heartbeatSeconds={}", settings.where(),
                    connection.getAddress().getHostAddress() + ":" + connection.getPort(), name,
                    settings.transport() instanceof Transport.Tls, connection.getHeartbeat());
            return new Broker(settings, connection);
        } catch (AuthenticationFailureException e) {
            throw new BusException("the broker at " + settings.hosts() + " refused user \""
                    + settings.user() + "\": wrong password or no such user; check the broker credentials", e);
        } catch (IOException e) {
            if (settings.transport() instanceof Transport.Tls tls) {
                Optional<String> refused = BrokerTls.explain(settings, tls.certificate(), e);
                if (refused.isPresent()) {
                    throw new BusException(refused.get(), e);
                }
            }
            throw new BusException("cannot connect to the broker as " + settings.where() + ": " + reason(e)
                    + "; check that RabbitMQ runs there, that the virtual host exists and that the user may use it", e);
        } catch (TimeoutException e) {
            throw new BusException("the broker at " + settings.hosts() + " did not answer in "
                    + CONNECT_TIMEOUT_MS + " ms; check that RabbitMQ runs there", e);
        }
    }

    /** @return the settings it connected with */
    public BrokerSettings settings() {
        return settings;
    }

    /**
     * Whether the broker refuses a message body over {@link #MAX_BODY_BYTES}, as the mesh's broker module
     * configures it ({@code max_message_size}; docs/security.md, "Bounded bodies"). Neither the management API
     * nor AMQP tells the setting, so this asks the broker itself: it publishes one byte more than that, to the
     * default exchange and no queue, on a channel of its own in confirm mode, and sees whether the broker closes
     * the channel for it (406, refused) or confirms it (taken, and dropped: no queue has the name). Costs that
     * many bytes sent once.
     *
     * @return {@code true} when the broker refuses such a body, {@code false} when it takes it
     * @throws BusException when the broker says neither within 5 s, or the channel fails otherwise
     */
    public boolean refusesLargeBodies() {
        Channel channel = null;
        try {
            channel = connection.createChannel();
            channel.confirmSelect();
            channel.basicPublish("", "mesh-controller.body-limit-probe", false, new AMQP.BasicProperties.Builder()
                    .deliveryMode(1).build(), new byte[MAX_BODY_BYTES + 1]);
            channel.waitForConfirmsOrDie(CONNECT_TIMEOUT_MS);
            return false;
        } catch (ShutdownSignalException | IOException e) {
            ShutdownSignalException signal = e instanceof ShutdownSignalException s ? s
                    : e.getCause() instanceof ShutdownSignalException s ? s : null;
            if (signal != null && !signal.isHardError() && signal.getReason() instanceof AMQP.Channel.Close close
                    && close.getReplyCode() == AMQP.PRECONDITION_FAILED) {
                return true;
            }
            throw new BusException("cannot tell whether the broker at " + settings.where() + " refuses bodies over "
                    + MAX_BODY_BYTES + " bytes: " + reason(e), e);
        } catch (TimeoutException e) {
            throw new BusException("the broker at " + settings.where() + " neither confirmed nor refused a body of "
                    + (MAX_BODY_BYTES + 1) + " bytes in " + CONNECT_TIMEOUT_MS + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while asking the broker about its body limit", e);
        } finally {
            abort(channel);
        }
    }

    /** @return the connection, for the topology and the transports of this package */
    Connection connection() {
        return connection;
    }

    /** Closes the connection and every channel on it; does nothing when already closed. */
    @Override
    public void close() {
        // abort rather than close: it never throws, and a connection already lost has nothing to flush.
        connection.abort(CONNECT_TIMEOUT_MS);
        LOG.info("broker disconnected at={}", settings.where());
    }

    /**
     * Closes a channel without waiting and without failing: what it held goes back to its queues.
     *
     * @param channel an open or closed channel, or {@code null}
     */
    static void abort(Channel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.abort();
        } catch (IOException e) {
            // The client declares it but swallows every failure of its own abort; nothing is left to do.
            LOG.debug("broker channel abort failed reason={}", reason(e));
        }
    }

    /**
     * The client's own handling (a channel whose consumer threw is closed, and so on), logged in one line each
     * rather than with the client's stack traces: a thawed controller's reset connection printed some hundred
     * lines. A topology recovery that fails on a channel closed meanwhile is DEBUG: the queues are durable, and
     * {@link Topology#declare} and the transports declare what they need.
     */
    private static final class OneLineExceptionHandler extends ForgivingExceptionHandler {

        @Override
        protected void log(String message, Throwable e) {
            LOG.warn("broker client: {} reason=\"{}\"", message, reason(e));
        }

        @Override
        public void handleTopologyRecoveryException(Connection connection, Channel channel,
                TopologyRecoveryException e) {
            LOG.debug("broker topology not recovered reason=\"{}\"", reason(e));
        }
    }

    /** @return the client's failure in a few words, with its cause's when it only wraps one */
    static String reason(Throwable e) {
        Throwable shown = e.getMessage() == null && e.getCause() != null ? e.getCause() : e;
        return shown.getMessage() == null ? shown.getClass().getSimpleName() : shown.getMessage();
    }
}
