package dev.mesh.controller.system;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.mesh.controller.bus.BrokerSettings;
import dev.mesh.controller.bus.NatsSettings;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.testing.LocalRabbit;
import dev.mesh.controller.testing.TestVhost;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * The loopback services the bus drivers run against, each in a part of its own: a RabbitMQ virtual
 * host made for the run through the broker's management API (as {@code guest}, deleted by {@link #close()}), a NATS
 * subject prefix of its own; and what the drivers print: latencies as mean, p50, p99 in ms.
 */
public final class Loopback implements MeshBroker {

    public static final String HOST = "127.0.0.1";
    public static final int AMQP_PORT = 5672;
    public static final String USER = LocalRabbit.USER;
    public static final String PASSWORD = LocalRabbit.PASSWORD;
    public static final String NATS_URL = System.getenv().getOrDefault("MESH_BENCH_NATS", "nats://127.0.0.1:4222");

    private final String id = UUID.randomUUID().toString().substring(0, 8);
    private final TestVhost vhost;

    private Loopback(TestVhost vhost) {
        this.vhost = vhost;
    }

    /** @return a new virtual host {@value #USER} may use fully */
    public static Loopback open() {
        return new Loopback(TestVhost.create("mesh-bench"));
    }

    @Override
    public String vhost() {
        return vhost.name();
    }

    /** @return {@value #HOST}:{@value #AMQP_PORT}, the one member */
    @Override
    public String members() {
        return HOST + ":" + AMQP_PORT;
    }

    /** @return the controller's broker settings on the virtual host */
    public BrokerSettings broker() {
        return new BrokerSettings(HOST, AMQP_PORT, vhost(), USER, Secret.of(PASSWORD), BrokerSettings.Transport.PLAIN);
    }

    /** @return a plain client connection to the virtual host, as a program in another language makes one */
    @Override
    public Connection connect(String name) throws IOException, TimeoutException {
        return connect(name, USER, PASSWORD);
    }

    /** @return a connection of its own as {@code user}, whose password is {@code password} */
    public Connection connect(String name, String user, String password) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(HOST);
        factory.setPort(AMQP_PORT);
        factory.setVirtualHost(vhost());
        factory.setUsername(user);
        factory.setPassword(password);
        factory.setRequestedHeartbeat(5);
        return factory.newConnection(name);
    }

    /**
     * Adds a broker user (its password its name) with exactly a caller's permissions on this virtual host, as the
     * controller sets them ({@link dev.mesh.controller.bus.Access}): publish to the default exchange, nothing more.
     *
     * @return the user's name
     */
    public String addCaller(String user) {
        dev.mesh.controller.bus.Access access = dev.mesh.controller.bus.Access.of(user, false, false);
        return vhost.addUser(user, access.configure(), access.write(), access.read());
    }

    /** @return the controller's NATS settings with a subject prefix of this run's */
    public NatsSettings nats() {
        return NatsSettings.of(NATS_URL).withSubjectPrefix(prefix());
    }

    /** @return the NATS subject prefix of this run, e.g. {@code bench-1a2b3c4d.} */
    public String prefix() {
        return "bench-" + id + ".";
    }

    /**
     * Adds a broker user of the virtual host, its password its name, as a node's host connects: removed
     * with the virtual host's close.
     *
     * @return its settings, as the lab's hosts take them
     */
    public dev.mesh.controller.simhost.BrokerSettings addUser(String user) {
        vhost.addUser(user);
        return new dev.mesh.controller.simhost.BrokerSettings(HOST, AMQP_PORT, vhost(), user, user);
    }

    /** @return the settings of the broker's own user on the virtual host, as the lab's builder takes them */
    public dev.mesh.controller.simhost.BrokerSettings simhost() {
        return new dev.mesh.controller.simhost.BrokerSettings(HOST, AMQP_PORT, vhost(), USER, PASSWORD);
    }

    @Override
    public void close() {
        vhost.close();
    }

    /**
     * Sets the broker's {@code max_message_size}, as the broker module's configuration does (docs/security.md); a
     * channel opened from then on refuses a larger publish.
     *
     * @return the size it was, to set back after
     */
    public static long maxMessageSize(long bytes) {
        return LocalRabbit.maxMessageSize(bytes);
    }

    /** Latencies in nanoseconds, summarised as the drivers print them. */
    public record Latencies(long[] nanos) {

        public static Latencies of(List<Long> samples) {
            return new Latencies(samples.stream().mapToLong(Long::longValue).toArray());
        }

        public double meanMs() {
            return Arrays.stream(nanos).average().orElse(Double.NaN) / 1e6;
        }

        /** @param q the quantile, 0 to 1 @return it in ms, the nearest rank */
        public double quantileMs(double q) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            if (sorted.length == 0) {
                return Double.NaN;
            }
            int rank = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank))] / 1e6;
        }

        /** @return {@code | name | mean | p50 | p99 | max | samples |} */
        public String row(String name) {
            return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %,d |", name, meanMs(),
                    quantileMs(0.50), quantileMs(0.99), quantileMs(1.0), nanos.length);
        }

        public static String header() {
            return "| benchmark | mean (ms) | p50 (ms) | p99 (ms) | max (ms) | samples |\n|---|---:|---:|---:|---:|---:|";
        }
    }

    /** @return {@code met} or {@code not met} */
    public static String met(boolean met) {
        return met ? "met" : "not met";
    }

    /** @return the value of {@code --name VALUE} among {@code args}, else {@code otherwise} */
    public static int option(String[] args, String name, int otherwise) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--" + name)) {
                return Integer.parseInt(args[i + 1].replace("_", "").replace(",", ""));
            }
        }
        return otherwise;
    }
}
