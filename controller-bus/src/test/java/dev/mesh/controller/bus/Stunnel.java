package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code stunnel} process in the foreground: TLS endpoints on free loopback ports, one per service, each
 * with its own certificate, forwarding to the local RabbitMQ's plain port. A test on a machine without
 * stunnel fails, saying how to install it.
 */
final class Stunnel implements AutoCloseable {

    static final String INSTALL = "apt-get install -y stunnel4";
    private static final String READY = "Accepting new connections";

    /**
     * @param name the service's name, for {@link #port}
     * @param certificate the PEM certificate it presents (the leaf)
     * @param key that certificate's private key
     */
    record Service(String name, Path certificate, Path key) {
    }

    private final Process process;
    private final Map<String, Integer> ports;
    private final List<String> log;

    private Stunnel(Process process, Map<String, Integer> ports, List<String> log) {
        this.process = process;
        this.ports = ports;
        this.log = log;
    }

    /** @return stunnel, accepting on every service's port */
    static Stunnel start(Path directory, List<Service> services) {
        Map<String, Integer> ports = new HashMap<>();
        StringBuilder configuration = new StringBuilder("foreground = yes\npid =\ndebug = info\n");
        for (Service service : services) {
            int port = freePort();
            ports.put(service.name(), port);
            configuration.append("[").append(service.name()).append("]\n")
                    .append("accept = 127.0.0.1:").append(port).append("\n")
                    .append("connect = ").append(RabbitVhost.HOST).append(":").append(RabbitVhost.PORT).append("\n")
                    .append("cert = ").append(service.certificate()).append("\n")
                    .append("key = ").append(service.key()).append("\n");
        }
        Process process;
        try {
            Path file = Files.writeString(directory.resolve("stunnel.conf"), configuration);
            process = new ProcessBuilder("stunnel", file.toString()).redirectErrorStream(true).start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run stunnel (" + e.getMessage() + "); install it: " + INSTALL, e);
        }
        List<String> log = new ArrayList<>();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        // Read stunnel's log to its end, so it never blocks on a full pipe; it is ready once it says so.
        Thread.ofVirtual().name("stunnel-log").start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    synchronized (log) {
                        log.add(line);
                    }
                    if (line.contains(READY)) {
                        ready.complete(true);
                    }
                }
            } catch (IOException e) {
                // The process was stopped while its log was read: nothing more to read.
            }
            ready.complete(false);
        });
        Stunnel stunnel = new Stunnel(process, Map.copyOf(ports), log);
        try {
            if (!ready.get(30, TimeUnit.SECONDS)) {
                fail("stunnel stopped before it accepted connections:\n" + stunnel.log());
            }
        } catch (TimeoutException e) {
            stunnel.close();
            fail("stunnel did not accept connections in 30 s:\n" + stunnel.log());
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stunnel.close();
            fail("interrupted while waiting for stunnel");
        }
        return stunnel;
    }

    /** @return the loopback port of the service named so */
    int port(String service) {
        return ports.get(service);
    }

    /** @return what stunnel logged so far */
    String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    /** Stops stunnel and waits for it to end. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for stunnel", e);
        }
    }
}
