package dev.mesh.controller.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** The wait for a process a test started (nats-server, stunnel) to listen on a loopback port. */
public final class Listening {

    private static final Duration POLL = Duration.ofMillis(50);

    private Listening() {
    }

    /**
     * Waits until something accepts connections on the loopback address's {@code port}.
     *
     * @param what the process, as a failure names it, e.g. {@code nats-server}
     * @param port the port
     * @param process the process that is to listen: its end stops the wait at once
     * @param wait how long at most
     * @param log what the process wrote, read only when the wait fails
     * @throws AssertionError when the process ended, or did not listen within {@code wait}: with its log
     */
    public static void await(String what, int port, Process process, Duration wait, Supplier<String> log) {
        try {
            Awaitility.await(what + " listening on port " + port).atMost(wait).pollInterval(POLL)
                    .pollInSameThread().until(() -> {
                        if (!process.isAlive()) {
                            throw new AssertionError(what + " exited " + process.exitValue() + " before it listened on "
                                    + port + ": " + log.get());
                        }
                        return accepts(port);
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " did not listen on port " + port + " within " + wait.toMillis()
                    + " ms: " + log.get(), e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }
}
