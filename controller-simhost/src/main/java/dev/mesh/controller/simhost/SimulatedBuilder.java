package dev.mesh.controller.simhost;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A builder for one artifact {@code system} that builds nothing but speaks docs/design.md section 8: it
 * consumes the queue {@code mesh-builder.<system>} (a quorum queue bound to the direct exchange {@code mesh.builds}
 * with its system as the routing key, which the controller declares; the builder declares it when it is not there
 * yet, which needs the permission to configure it) and, for each order, reports
 * {@code {"kind": "build", "build", "status": "succeeded", "detail": "", "sha256", "location", "at"}} to
 * {@code mesh-controller.reports} as its broker user — the archive {@link #archives(Function) its archives}
 * name for the build, by default {@link Archive#simulated} — or {@code "failed"} with detail
 * {@code "simulated failure"} when {@link #failing(boolean) failing}. An order is acknowledged after the
 * broker confirmed its report; an unreadable one is rejected without requeue.
 *
 * <p>Thread-safe. Orders are handled one at a time, on the client's consumer thread.
 */
public final class SimulatedBuilder implements AutoCloseable {

    /** The exchange builds are ordered on. */
    public static final String EXCHANGE = "mesh.builds";
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedBuilder.class);
    private static final Pattern SYSTEM = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

    private final String system;
    private final String queue;
    private final Connection amqp;
    private final Reporter reporter;
    private final Clock clock = Clock.systemUTC();
    private final Object lock = new Object();
    private final List<String> orders = new ArrayList<>();
    private volatile boolean failing;
    private volatile Function<String, Archive> archives = Archive::simulated;
    private Channel channel;

    private SimulatedBuilder(String system, Connection amqp, BrokerSettings broker) {
        this.system = system;
        this.queue = "mesh-builder." + system;
        this.amqp = amqp;
        this.reporter = new Reporter(amqp, broker.user());
    }

    /**
     * Connects as {@code broker}'s user (a principal granted {@code build}), declares and binds
     * {@code mesh-builder.<system>}, and consumes it.
     *
     * @param system the artifact system it builds for, e.g. {@code debian-12}: the routing key of its orders
     * @throws IllegalArgumentException when the system is not 1 to 63 of {@code a-z 0-9 . _ -}
     * @throws SimulationException      when the broker cannot be reached, refuses the user, or the queue cannot be set up
     */
    public static SimulatedBuilder open(String system, BrokerSettings broker) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(broker, "broker");
        if (!SYSTEM.matcher(system).matches()) {
            throw new IllegalArgumentException("the system \"" + system + "\" is not 1 to 63 of a-z, 0-9, '.', '_', '-'");
        }
        Connection amqp = Connections.amqp(broker, "simbuilder-" + system);
        SimulatedBuilder builder = new SimulatedBuilder(system, amqp, broker);
        try {
            builder.consume();
        } catch (IOException | ShutdownSignalException e) {
            Connections.close(amqp);
            throw new SimulationException("the simulated builder for " + system + " cannot set up its queue "
                    + builder.queue + " on " + broker.where() + " (" + e + "); may the user configure, write and read"
                    + " the virtual host? (rabbitmqctl set_permissions)", e);
        }
        LOG.info("simulated builder consuming system={} queue={} exchange={} broker={}", system, builder.queue,
                EXCHANGE, broker.where());
        return builder;
    }

    private void consume() throws IOException {
        channel = amqp.createChannel();
        try {
            // The controller declares the queue before its first order for the system; a builder granted only to
            // read it (docs/security.md) cannot declare it, and need not.
            channel.queueDeclarePassive(queue);
        } catch (IOException e) {
            // Not there yet (404 closed the channel): declared here, as the controller does, so neither refuses
            // the other's; this needs the permission to configure it.
            channel = amqp.createChannel();
            channel.exchangeDeclare(EXCHANGE, BuiltinExchangeType.DIRECT, true);
            channel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
            channel.queueBind(queue, EXCHANGE, system);
        }
        channel.basicQos(1);
        channel.basicConsume(queue, false, new Orders(channel));
    }

    /**
     * Says what each build from now on makes: the archive a success names, by build id. An order for
     * which it throws {@link IllegalArgumentException} is reported failed, with its message.
     */
    public void archives(Function<String, Archive> made) {
        archives = Objects.requireNonNull(made, "made");
    }

    /** Makes every order from now on fail ({@code true}) or succeed ({@code false}). */
    public void failing(boolean fail) {
        failing = fail;
    }

    /** @return the system it builds for */
    public String system() {
        return system;
    }

    /** @return the build ids of the orders it reported on (the broker confirmed the report), in order, repeats included */
    public List<String> orders() {
        synchronized (lock) {
            return List.copyOf(orders);
        }
    }

    /**
     * Waits until it reported {@code count} orders (the broker confirmed each report), at most {@code timeout}.
     *
     * @return whether it did; {@code false} also when interrupted (the flag restored)
     */
    public boolean awaitOrders(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (orders.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** Closes its connection; an order it had not acknowledged goes back to its queue. Idempotent. */
    @Override
    public void close() {
        reporter.close();
        Connections.close(channel);
        Connections.close(amqp);
    }

    private final class Orders extends DefaultConsumer {

        Orders(Channel channel) {
            super(channel);
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                throws IOException {
            String build;
            try {
                build = Wire.order(body);
            } catch (IllegalArgumentException e) {
                LOG.warn("simulated builder rejected an order system={} reason={}", system, e.getMessage());
                getChannel().basicReject(envelope.getDeliveryTag(), false);
                return;
            }
            String detail = failing ? "simulated failure" : "";
            Archive archive = null;
            if (detail.isEmpty()) {
                try {
                    archive = archives.apply(build);
                } catch (IllegalArgumentException e) {
                    detail = e.getMessage();
                }
            }
            String status = archive == null ? "failed" : "succeeded";
            byte[] report = Wire.buildReport(build, status, detail, archive, clock.instant());
            if (!reporter.report(report, "build " + build + " status=" + status)) {
                getChannel().basicNack(envelope.getDeliveryTag(), false, true);
                return;
            }
            synchronized (lock) {
                orders.add(build);
                lock.notifyAll();
            }
            LOG.info("simulated builder reported system={} build={} status={}", system, build, status);
            getChannel().basicAck(envelope.getDeliveryTag(), false);
        }
    }
}
