package dev.mesh.controller.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The RabbitMQ on this machine, for tests and benchmarks: virtual hosts, users, permissions, queues and
 * connections through its management API (HTTP on 127.0.0.1:15672 as {@value #USER}, an administrator), which
 * answers in milliseconds where each {@code rabbitmqctl} call starts an Erlang VM for most of a second; and
 * {@link #rabbitmqctl} for what the API does not do (the broker's environment). Anything that fails fails the
 * test, saying how to start what is missing.
 */
public final class LocalRabbit {

    /** Where the broker is. */
    public static final String HOST = "127.0.0.1";
    /** Its AMQP port. */
    public static final int AMQP_PORT = 5672;
    /** Its management API's port. */
    public static final int MANAGEMENT_PORT = 15672;
    /** RabbitMQ's default user, an administrator that only loopback may use. */
    public static final String USER = "guest";
    /** Its password. */
    public static final String PASSWORD = "guest";

    private static final String START = "rabbitmq-server -detached (as root; then rabbitmqctl await_startup)";
    private static final String START_MANAGEMENT = "rabbitmq-plugins enable rabbitmq_management (as root; "
            + "bin/services does it)";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final LocalRabbit INSTANCE = new LocalRabbit();
    private static volatile boolean reached;

    // HTTP/1.1: the broker's web server closes a connection that asks to upgrade to HTTP/2 in the clear.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final String authorization = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD)
            .getBytes(StandardCharsets.UTF_8));

    private LocalRabbit() {
    }

    /**
     * @return the local broker, once its AMQP port and its management API answer
     * @throws AssertionError when either does not, saying how to start it
     */
    public static LocalRabbit get() {
        if (!reached) { // checked until it answers once: a test's later calls fail on their own if it stops
            answers(AMQP_PORT, "RabbitMQ", START);
            answers(MANAGEMENT_PORT, "RabbitMQ's management API", START_MANAGEMENT);
            reached = true;
        }
        return INSTANCE;
    }

    private static void answers(int port, String what, String start) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 2_000);
        } catch (IOException e) {
            throw new AssertionError(what + " does not answer at " + HOST + ":" + port + " (" + e.getMessage()
                    + "); start it: " + start, e);
        }
    }

    /** Makes a virtual host. */
    public void addVhost(String vhost) {
        call("PUT", "/api/vhosts/" + encode(vhost), "{}");
    }

    /** Deletes a virtual host and everything in it; one that is gone already is no failure. */
    public void deleteVhost(String vhost) {
        call("DELETE", "/api/vhosts/" + encode(vhost), null, 404);
    }

    /** Makes a user with that password and no tags, or sets the password of the one of that name. */
    public void addUser(String user, String password) {
        call("PUT", "/api/users/" + encode(user), JSON.writeValueAsString(Map.of("password", password, "tags", "")));
    }

    /** Deletes a user; one that is gone already is no failure. */
    public void deleteUser(String user) {
        call("DELETE", "/api/users/" + encode(user), null, 404);
    }

    /** Sets a user's permissions on a virtual host, as {@code rabbitmqctl set_permissions} does. */
    public void setPermissions(String vhost, String user, String configure, String write, String read) {
        call("PUT", "/api/permissions/" + encode(vhost) + "/" + encode(user), JSON.writeValueAsString(Map.of(
                "configure", configure, "write", write, "read", read)));
    }

    /** @return the names of a virtual host's queues, sorted */
    public List<String> queueNames(String vhost) {
        List<String> names = new ArrayList<>();
        JSON.readTree(call("GET", "/api/queues/" + encode(vhost) + "?columns=name", null)).forEach(queue ->
                names.add(queue.path("name").asString()));
        return names.stream().sorted().toList();
    }

    /** Removes every ready message of a queue. */
    public void purgeQueue(String vhost, String queue) {
        call("DELETE", "/api/queues/" + encode(vhost) + "/" + encode(queue) + "/contents", null);
    }

    /**
     * Has the broker close the connection from a client's local port to a virtual host, as a broker restart or a
     * cut network would (the client sees {@code CONNECTION_FORCED}). The management API lists a connection a
     * moment after it opened, so this waits for it up to 10 s.
     *
     * @param vhost the connection's virtual host
     * @param clientPort the connection's local port
     */
    public void closeConnection(String vhost, int clientPort) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        JsonNode listed;
        do {
            listed = JSON.readTree(call("GET", "/api/vhosts/" + encode(vhost) + "/connections?columns=name,peer_port",
                    null));
            for (JsonNode connection : listed) {
                if (connection.path("peer_port").asInt() == clientPort) {
                    call("DELETE", "/api/connections/" + encode(connection.path("name").asString()), null, 404);
                    return;
                }
            }
            pause();
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no connection from port " + clientPort + " to virtual host " + vhost + " in "
                + listed);
    }

    private static void pause() {
        try {
            Thread.sleep(50); // the management API's listing catches up with the broker within milliseconds
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Sets the broker's {@code max_message_size} (a channel opened from now on refuses a larger publish with 406),
     * as the mesh's broker module configures it.
     *
     * @param bytes the largest body a publisher may send
     * @return the size it was, to set back after
     */
    public static long maxMessageSize(long bytes) {
        String was = rabbitmqctl("eval", "application:get_env(rabbit, max_message_size).").trim();
        rabbitmqctl("eval", "application:set_env(rabbit, max_message_size, " + bytes + ").");
        Matcher size = Pattern.compile("\\{ok,(\\d+)\\}").matcher(was);
        return size.matches() ? Long.parseLong(size.group(1)) : 134_217_728L;
    }

    /**
     * Runs {@code rabbitmqctl -q ARGUMENTS}, for what the management API does not do.
     *
     * @return what it printed
     * @throws AssertionError when it fails or takes over 60 s
     */
    public static String rabbitmqctl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl", "-q"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not end in 60 s; is RabbitMQ up? start "
                        + "it: " + START);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
                        + output + "\nstart RabbitMQ with " + START + "; rabbitmqctl needs root");
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run rabbitmqctl (install RabbitMQ, run as root): " + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }

    private String call(String method, String path, String body, int... alsoFine) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + HOST + ":" + MANAGEMENT_PORT + path))
                .timeout(TIMEOUT).header("authorization", authorization).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " on RabbitMQ's management API failed (" + e + "); start "
                    + "it: " + START_MANAGEMENT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted during " + method + " " + path, e);
        }
        int status = response.statusCode();
        if (status / 100 == 2 || Arrays.stream(alsoFine).anyMatch(s -> s == status)) {
            return response.body();
        }
        throw new AssertionError(method + " " + path + " on RabbitMQ's management API answered " + status + ": "
                + response.body());
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
