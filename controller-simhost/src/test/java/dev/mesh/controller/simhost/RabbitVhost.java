package dev.mesh.controller.simhost;

import dev.mesh.controller.testing.LocalRabbit;
import dev.mesh.controller.testing.TestVhost;

/**
 * A virtual host of its own on the local RabbitMQ for one test, and the users the test adds to it (deleted with
 * it), made through the broker's management API ({@link LocalRabbit}). A test that cannot reach RabbitMQ fails,
 * saying how to start it.
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = LocalRabbit.HOST;
    static final int PORT = LocalRabbit.AMQP_PORT;
    static final String USER = LocalRabbit.USER;

    private final TestVhost vhost;

    private RabbitVhost(TestVhost vhost) {
        this.vhost = vhost;
    }

    /** @return a new virtual host that {@value #USER} may use fully */
    static RabbitVhost create() {
        return new RabbitVhost(TestVhost.create("mesh-it"));
    }

    /** @return the virtual host's name */
    String name() {
        return vhost.name();
    }

    /** @return this virtual host as {@code user}, whose password is its name */
    BrokerSettings as(String user) {
        return new BrokerSettings(HOST, PORT, vhost.name(), user, user);
    }

    /**
     * Adds a broker user named {@code user} (its password the same) with full permissions on this
     * virtual host; it is deleted with the virtual host. Users are global to the broker: give names of
     * the test's own.
     */
    void addUser(String user) {
        vhost.addUser(user);
    }

    @Override
    public void close() {
        vhost.close();
    }
}
