package dev.mesh.controller.simhost;

import dev.mesh.controller.testing.LocalRabbit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A virtual host of its own on the local RabbitMQ for one test, and the users the test adds to it (deleted with
 * it), made through the broker's management API ({@link LocalRabbit}). A test that cannot reach RabbitMQ fails,
 * saying how to start it.
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = LocalRabbit.HOST;
    static final int PORT = LocalRabbit.AMQP_PORT;
    static final String USER = LocalRabbit.USER;

    private final LocalRabbit rabbit = LocalRabbit.get();
    private final String name = "mesh-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> users = new ArrayList<>();

    private RabbitVhost() {
    }

    /** @return a new virtual host that {@value #USER} may use fully */
    static RabbitVhost create() {
        RabbitVhost vhost = new RabbitVhost();
        vhost.rabbit.addVhost(vhost.name);
        vhost.permit(USER);
        return vhost;
    }

    /** @return the virtual host's name */
    String name() {
        return name;
    }

    /** @return this virtual host as {@code user}, whose password is its name */
    BrokerSettings as(String user) {
        return new BrokerSettings(HOST, PORT, name, user, user);
    }

    /**
     * Adds a broker user named {@code user} (its password the same) with full permissions on this
     * virtual host; it is deleted with the virtual host. Users are global to the broker: give names of
     * the test's own.
     */
    void addUser(String user) {
        rabbit.addUser(user, user);
        users.add(user);
        permit(user);
    }

    private void permit(String user) {
        rabbit.setPermissions(name, user, ".*", ".*", ".*");
    }

    @Override
    public void close() {
        for (String user : users) {
            rabbit.deleteUser(user);
        }
        rabbit.deleteVhost(name);
    }
}
