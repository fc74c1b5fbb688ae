package dev.mesh.controller.launcher;

import dev.mesh.controller.testing.LocalRabbit;
import dev.mesh.controller.testing.ServeEnvironment;
import dev.mesh.controller.testing.TestVhost;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A virtual host of its own on the local RabbitMQ (127.0.0.1:5672, {@code guest}) for one test, made and
 * deleted through the broker's management API ({@link LocalRabbit}), and the broker's variables that name it. A
 * test that cannot reach RabbitMQ fails, saying how to start it.
 */
final class RabbitVhost implements AutoCloseable {

    static final String HOST = "127.0.0.1";
    static final int PORT = 5672;

    private final TestVhost vhost;
    private final String name;

    private RabbitVhost(TestVhost vhost) {
        this.vhost = vhost;
        this.name = vhost.name();
    }

    /** @return a new virtual host that {@code guest} may use fully */
    static RabbitVhost create() {
        return new RabbitVhost(TestVhost.create("mesh-it"));
    }

    /** @return the virtual host's name */
    String name() {
        return name;
    }

    /**
     * Writes the broker's credentials file ({@code guest} on this virtual host, mode 0600) into {@code dir}.
     *
     * @return {@code MESH_BROKER_ADDRESS_FILE} and {@code MESH_BROKER_ADDRESS_PORT} naming it, plain on loopback
     */
    Map<String, String> environment(Path dir) {
        return ServeEnvironment.in(dir).broker(HOST, PORT, name, LocalRabbit.USER, LocalRabbit.PASSWORD).variables();
    }

    /** @return what {@code rabbitmqctl list_queues} says of this virtual host's queues: name, then the columns asked */
    List<String> queues(String... columns) {
        List<String> arguments = new ArrayList<>(List.of("list_queues", "-p", name, "--no-table-headers", "name"));
        arguments.addAll(List.of(columns));
        return LocalRabbit.rabbitmqctl(arguments.toArray(String[]::new)).lines().map(String::strip).filter(l -> !l.isEmpty())
                .sorted().toList();
    }

    /**
     * Runs Python statements with {@code channel}, a pika channel on this virtual host as {@code guest}:
     * a client in another language, as the mesh's other programs are (Debian's {@code python3-pika}, which
     * {@code bin/services} installs).
     *
     * @param statements one or more lines of Python
     */
    void python(String statements) {
        String script = "import pika\n"
                + "connection = pika.BlockingConnection(pika.ConnectionParameters('" + HOST + "', " + PORT + ", '"
                + name + "', pika.PlainCredentials('guest', 'guest')))\n"
                + "channel = connection.channel()\n"
                + "channel.confirm_delivery()\n"
                + statements + "\n"
                + "connection.close()\n";
        try {
            Process process = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                fail("python3 with pika failed: " + output + "\n(install it: apt-get install -y python3-pika)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run /usr/bin/python3 (apt-get install -y python3-pika): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while running python3");
        }
    }

    @Override
    public void close() {
        vhost.close();
    }
}
