package dev.mesh.controller.testing;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A virtual host of one test on the local RabbitMQ ({@link LocalRabbit}), with a name of its own and
 * {@value LocalRabbit#USER} allowed everything on it; the users a test adds are deleted with it by {@link #close()}.
 * Each module's broker fixture wraps one, adding what its tests speak (the controller's settings, a mesh's
 * environment, the lab host's settings).
 *
 * <p>Thread-safe.
 */
public final class TestVhost implements AutoCloseable {

    private final LocalRabbit rabbit;
    private final String name;
    private final List<String> users = new CopyOnWriteArrayList<>();

    private TestVhost(LocalRabbit rabbit, String name) {
        this.rabbit = rabbit;
        this.name = name;
    }

    /**
     * Makes the virtual host, reaching the broker first (a test that cannot reach it fails with the command
     * that starts it).
     *
     * @param prefix the name's start, e.g. {@code mesh-it}; a random part follows it
     * @return the virtual host, {@value LocalRabbit#USER} allowed everything on it
     */
    public static TestVhost create(String prefix) {
        TestVhost vhost = new TestVhost(LocalRabbit.get(), prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
        vhost.rabbit.addVhost(vhost.name);
        vhost.permit(LocalRabbit.USER);
        return vhost;
    }

    /** @return the virtual host's name */
    public String name() {
        return name;
    }

    /**
     * Adds a broker user allowed everything on this virtual host; it is deleted with the virtual host.
     *
     * @param user the user's name, which is also its password
     * @return {@code user}
     */
    public String addUser(String user) {
        return addUser(user, ".*", ".*", ".*");
    }

    /**
     * Adds a broker user with exactly these permissions on this virtual host (regular expressions over
     * resource names, as the broker takes them); it is deleted with the virtual host.
     *
     * @param user the user's name, which is also its password
     * @return {@code user}
     */
    public String addUser(String user, String configure, String write, String read) {
        rabbit.addUser(user, user);
        users.add(user);
        rabbit.setPermissions(name, user, configure, write, read);
        return user;
    }

    /** Allows {@code user} everything on this virtual host. */
    public void permit(String user) {
        rabbit.setPermissions(name, user, ".*", ".*", ".*");
    }

    /** @return the broker this virtual host is on */
    public LocalRabbit rabbit() {
        return rabbit;
    }

    /** Deletes the users added, then the virtual host and everything in it. */
    @Override
    public void close() {
        for (String user : users) {
            rabbit.deleteUser(user);
        }
        rabbit.deleteVhost(name);
    }
}
