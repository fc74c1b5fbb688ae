package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A virtual host of its own on the local RabbitMQ for one test, made and deleted with {@code rabbitmqctl},
 * and the users the test adds to it (deleted with it). A test that cannot reach RabbitMQ fails, saying
 * how to start it. (controller-bus's test helper of the same name, without the project's types.)
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    static final int PORT = 5672;
    static final String USER = "guest";
    private static final String START = "rabbitmq-server -detached (as root; then rabbitmqctl await_startup)";

    private final String name = "mesh-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> users = new ArrayList<>();

    private RabbitVhost() {
    }

    /** @return a new virtual host that {@value #USER} may use fully */
    static RabbitVhost create() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, PORT), 2_000);
        } catch (IOException e) {
            fail("RabbitMQ does not answer at " + HOST + ":" + PORT + " (" + e.getMessage() + "); start it: " + START);
        }
        RabbitVhost vhost = new RabbitVhost();
        rabbitmqctl("add_vhost", vhost.name);
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
        rabbitmqctl("add_user", user, user);
        users.add(user);
        permit(user);
    }

    private void permit(String user) {
        rabbitmqctl("set_permissions", "-p", name, user, ".*", ".*", ".*");
    }

    @Override
    public void close() {
        for (String user : users) {
            rabbitmqctl("delete_user", user);
        }
        rabbitmqctl("delete_vhost", name);
    }

    private static void rabbitmqctl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl", "-q"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not end in 60 s; is RabbitMQ up? start it: " + START);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                fail(String.join(" ", command) + " failed (exit " + process.exitValue() + "): " + output
                        + "\nstart RabbitMQ with " + START + "; the tests run rabbitmqctl, so run them as root");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run rabbitmqctl (install RabbitMQ, run the tests as root): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while running " + String.join(" ", command));
        }
    }
}
