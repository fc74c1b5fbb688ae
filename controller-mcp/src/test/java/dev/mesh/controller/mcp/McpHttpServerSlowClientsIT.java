package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Clients that send half a request and stall: they may not take the server's workers from the others,
 * and the server closes them once the read timeout has passed. Real sockets on loopback.
 */
class McpHttpServerSlowClientsIT {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    /** More than {@link McpHttpServer.Config#DEFAULT_MAX_CONCURRENT}: enough to take every worker of old. */
    private static final int SLOW_CLIENTS = 70;

    private final Fixtures fixtures = new Fixtures();
    private final BearerToken token = BearerToken.random();
    private final McpHttpServer server = McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE),
            McpHttpServer.Config.loopback(0, token, "dev").withReadTimeout(READ_TIMEOUT));
    private final McpClient client = McpClient.of(server.endpoint(), token, Duration.ofSeconds(2),
            Duration.ofSeconds(10));
    private final List<Socket> slow = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : slow) {
            socket.close();
        }
        server.close();
        client.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"half the headers", "a short body with the token", "a short body without the token"})
    void stalledClients_doNotDelayOthers_andAreClosedAfterTheReadTimeout(String stall) throws IOException {
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            slow.add(stall(partialRequest(stall)));
        }

        long started = System.nanoTime();
        int modules = client.callTool("status", null).path("modules").asInt(-1);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(modules).isZero();
        assertThat(took).as("a status call among %d stalled clients", SLOW_CLIENTS).isLessThan(READ_TIMEOUT);
        long deadline = System.nanoTime() + READ_TIMEOUT.plusSeconds(10).toNanos();
        for (Socket socket : slow) {
            String answer = readUntilClosed(socket, deadline);
            if (stall.endsWith("without the token")) {
                assertThat(answer).startsWith("HTTP/1.1 401");
            } else {
                assertThat(answer).isEmpty();
            }
        }
    }

    private String partialRequest(String stall) {
        return switch (stall) {
            case "half the headers" -> "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty";
            case "a short body with the token" -> "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                    + token.header() + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"";
            default -> "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"jsonrpc\"";
        };
    }

    private Socket stall(String partial) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(server.endpoint().getHost(), server.port()), 2000);
        OutputStream out = socket.getOutputStream();
        out.write(partial.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** @return what the server sent before it closed the connection; fails when it is still open at the deadline */
    private static String readUntilClosed(Socket socket, long deadline) throws IOException {
        StringBuilder answer = new StringBuilder();
        byte[] buffer = new byte[4096];
        InputStream in = socket.getInputStream();
        while (true) {
            long left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
            assertThat(left).as("the server still has a stalled connection open").isPositive();
            socket.setSoTimeout((int) left);
            int read;
            try {
                read = in.read(buffer);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (SocketException e) {
                // A reset is the server closing too, with bytes of ours it never read.
                return answer.toString();
            }
            if (read < 0) {
                return answer.toString();
            }
            answer.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
        }
    }
}
