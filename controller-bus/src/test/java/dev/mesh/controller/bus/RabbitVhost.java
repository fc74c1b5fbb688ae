package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.fail;

import dev.mesh.controller.core.Secret;
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
 * and the users the test adds to it. A test that cannot reach RabbitMQ fails, saying how to start it.
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    static final int PORT = 5672;
    static final String USER = "guest";
    static final Secret PASSWORD = Secret.of("guest");
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
        String user = "it-" + UUID.randomUUID().toString().substring(0, 8);
        rabbitmqctl("add_user", user, user);
        users.add(user);
        permit(user);
        return user;
    }

    /**
     * Has the broker close one client's connection to this virtual host, as a broker restart or a cut network
     * would (the client sees {@code CONNECTION_FORCED} and its automatic recovery starts).
     *
     * @param clientPort the connection's local port ({@code Connection.getLocalPort()})
     */
    void closeConnection(int clientPort) {
        String listing = rabbitmqctl("list_connections", "--no-table-headers", "pid", "peer_port", "vhost");
        for (String line : listing.split("\n")) {
            String[] columns = line.trim().split("\t");
            if (columns.length == 3 && columns[1].equals(Integer.toString(clientPort)) && columns[2].equals(name)) {
                rabbitmqctl("close_connection", columns[0], "closed by the test");
                return;
            }
        }
        fail("no connection from port " + clientPort + " to virtual host " + name + " in:\n" + listing);
    }

    private void permit(String user) {
        rabbitmqctl("set_permissions", "-p", name, user, ".*", ".*", ".*");
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

    /** Gives {@code user} every permission on this virtual host again, as an operator following old docs would. */
    void permitAll(String user) {
        permit(user);
    }

    /** The management API's port on this machine. */
    static final int MANAGEMENT_PORT = 15672;
    private static final String MANAGEMENT_START = "rabbitmq-plugins enable rabbitmq_management (as root; bin/services "
            + "does it)";

    /** @return the broker's management API as {@value #USER}, who is an administrator; fails when it does not answer */
    static ManagementApi management() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, MANAGEMENT_PORT), 2_000);
        } catch (IOException e) {
            fail("RabbitMQ's management API does not answer at " + HOST + ":" + MANAGEMENT_PORT + " (" + e.getMessage()
                    + "); start it: " + MANAGEMENT_START);
        }
        return new ManagementApi(HOST, MANAGEMENT_PORT, USER, PASSWORD, BrokerSettings.Transport.PLAIN);
    }

    @Override
    public void close() {
        for (String user : users) {
            rabbitmqctl("delete_user", user);
        }
        rabbitmqctl("delete_vhost", name);
    }

    /**
     * Sets the broker's {@code max_message_size} (a channel opened from now on refuses a larger publish with 406),
     * as the broker module's configuration does (docs/security.md).
     *
     * @param bytes the largest body a publisher may send
     * @return the size it was, to set back after
     */
    static long maxMessageSize(long bytes) {
        String was = rabbitmqctl("eval", "application:get_env(rabbit, max_message_size).").trim();
        rabbitmqctl("eval", "application:set_env(rabbit, max_message_size, " + bytes + ").");
        java.util.regex.Matcher size = java.util.regex.Pattern.compile("\\{ok,(\\d+)\\}").matcher(was);
        return size.matches() ? Long.parseLong(size.group(1)) : 134_217_728L;
    }

    /** @return what it printed */
    private static String rabbitmqctl(String... arguments) {
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
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run rabbitmqctl (install RabbitMQ, run the tests as root): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while running " + String.join(" ", command));
        }
    }
}
