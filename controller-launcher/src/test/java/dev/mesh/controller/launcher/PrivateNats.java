package dev.mesh.controller.launcher;

import dev.mesh.controller.testing.Listening;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@code nats-server} of the test's own, on a free loopback port, with the configuration a mesh's bus module
 * runs: a {@code nats.conf} beside genesis's {@code authorization.conf} that includes it. The shared server on
 * 4222 has no authorization; this one has exactly genesis's. Stopped with SIGTERM at {@link #close()}.
 */
final class PrivateNats implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/sbin/nats-server");
    private final Process process;
    private final int port;

    private PrivateNats(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * @param bus genesis's {@code bus/} directory, which holds {@code authorization.conf}
     * @param log where the server logs
     */
    static PrivateNats start(Path bus, Path log) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: apt-get install nats-server");
        }
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path conf = Files.writeString(bus.resolve("nats.conf"), "# the bus module's server configuration, for a test\n"
                + "listen: \"127.0.0.1:" + port + "\"\ninclude \"authorization.conf\"\n");
        // Checked first, as an operator would: nats-server -t parses the configuration and exits.
        Process check = new ProcessBuilder(BINARY.toString(), "-c", conf.toString(), "-t").redirectErrorStream(true)
                .start();
        String checked = new String(check.getInputStream().readAllBytes());
        if (!check.waitFor(10, TimeUnit.SECONDS) || check.exitValue() != 0) {
            throw new AssertionError("nats-server refused genesis's configuration: " + checked);
        }
        Process process = new ProcessBuilder(BINARY.toString(), "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        PrivateNats nats = new PrivateNats(process, port);
        try {
            Listening.await("nats-server", port, process, Duration.ofSeconds(10), () -> read(log));
        } catch (AssertionError e) {
            nats.close();
            throw e;
        }
        return nats;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(its log " + log + " could not be read: " + e.getMessage() + ")";
        }
    }

    /** @return {@code nats://127.0.0.1:<port>} */
    String url() {
        return "nats://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
