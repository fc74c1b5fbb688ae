package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.testing.LocalRabbit;
import dev.mesh.controller.testing.TestVhost;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A virtual host of its own on the local RabbitMQ for one test, and the users the test adds to it, made and
 * deleted through its management API ({@link LocalRabbit}). A test that cannot reach RabbitMQ fails, saying how
 * to start it.
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    static final int PORT = 5672;
    static final String USER = "guest";
    static final Secret PASSWORD = Secret.of("guest");
    /** The local broker, reached when a test first needs it. */
    private static final Supplier<LocalRabbit> RABBIT = LocalRabbit::get;

    private final TestVhost vhost;
    private final String name;

    private RabbitVhost(TestVhost vhost) {
        this.vhost = vhost;
        this.name = vhost.name();
    }

    /** @return a new virtual host that {@value #USER} may use fully */
    static RabbitVhost create() {
        return new RabbitVhost(TestVhost.create("mesh-it"));
    }

    /** @return the virtual host's name */
    String name() {
        return name;
    }

    /** @return the controller's settings on this virtual host, as {@value #USER}, in plain AMQP */
    BrokerSettings settings() {
        return new BrokerSettings(HOST, PORT, name, USER, PASSWORD, BrokerSettings.Transport.PLAIN);
    }

    /**
     * Adds a broker user with full permissions on this virtual host; it is deleted with the virtual host.
     *
     * @return the user's name; its password is the same
     */
    String addUser() {
        return vhost.addUser("it-" + UUID.randomUUID().toString().substring(0, 8));
    }

    /**
     * Has the broker close one client's connection to this virtual host, as a broker restart or a cut network
     * would (the client sees {@code CONNECTION_FORCED} and its automatic recovery starts).
     *
     * @param clientPort the connection's local port ({@code Connection.getLocalPort()})
     */
    void closeConnection(int clientPort) {
        RABBIT.get().closeConnection(name, clientPort);
    }


    /**
     * @param connection a connection with automatic recovery, as {@link Broker} opens them
     * @return a latch counted down once the client has connected again after the connection was lost
     */
    static java.util.concurrent.CountDownLatch recovery(com.rabbitmq.client.Connection connection) {
        java.util.concurrent.CountDownLatch recovered = new java.util.concurrent.CountDownLatch(1);
        ((com.rabbitmq.client.Recoverable) connection).addRecoveryListener(new com.rabbitmq.client.RecoveryListener() {
            @Override
            public void handleRecovery(com.rabbitmq.client.Recoverable recoverable) {
                recovered.countDown();
            }

            @Override
            public void handleRecoveryStarted(com.rabbitmq.client.Recoverable recoverable) {
            }
        });
        return recovered;
    }

    /**
     * @param user a user of this virtual host whose password is its name, as {@link #addUser()} makes them (or
     *     guest's)
     * @return a connection of its own to this virtual host as {@code user}; the caller closes it
     */
    com.rabbitmq.client.Connection connect(String user) throws IOException, java.util.concurrent.TimeoutException {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setHost(HOST);
        factory.setPort(PORT);
        factory.setVirtualHost(name);
        factory.setUsername(user);
        factory.setPassword(user);
        return factory.newConnection("it-" + user);
    }

    /**
     * Takes every message waiting in a queue, as a host or a builder reading it would.
     *
     * @param connection a plain connection to this virtual host
     * @param queue the queue
     * @return the messages, in order; none when the queue does not exist (nothing was ever routed to it)
     */
    static List<com.rabbitmq.client.GetResponse> drain(com.rabbitmq.client.Connection connection, String queue) {
        List<com.rabbitmq.client.GetResponse> got = new ArrayList<>();
        try {
            com.rabbitmq.client.Channel channel = connection.createChannel();
            try {
                for (var next = channel.basicGet(queue, true); next != null; next = channel.basicGet(queue, true)) {
                    got.add(next);
                }
            } finally {
                channel.abort();
            }
        } catch (IOException e) {
            // The broker closed the channel: the queue is not there.
            return List.of();
        }
        return got;
    }

    /** Gives {@code user} every permission on this virtual host again, as an operator following old docs would. */
    void permitAll(String user) {
        vhost.permit(user);
    }

    /** The management API's port on this machine. */
    static final int MANAGEMENT_PORT = 15672;

    /** @return the broker's management API as {@value #USER}, who is an administrator; fails when it does not answer */
    static ManagementApi management() {
        RABBIT.get();
        return new ManagementApi(HOST, MANAGEMENT_PORT, USER, PASSWORD, BrokerSettings.Transport.PLAIN);
    }

    @Override
    public void close() {
        vhost.close();
    }

    /**
     * Sets the broker's {@code max_message_size} (a channel opened from now on refuses a larger publish with 406),
     * as the broker module's configuration does (docs/security.md).
     *
     * @param bytes the largest body a publisher may send
     * @return the size it was, to set back after
     */
    static long maxMessageSize(long bytes) {
        return LocalRabbit.maxMessageSize(bytes);
    }
}
