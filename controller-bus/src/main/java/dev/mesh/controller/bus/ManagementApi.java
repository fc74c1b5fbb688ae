package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The few calls of RabbitMQ's management API (HTTP, JSON) the controller makes to own the broker's permissions:
 * the users there are, the permissions of a virtual host, and setting or clearing one user's. Over HTTPS with the
 * broker's certificate pinned to the CA of {@code MESH_BROKER_CERTIFICATE} ({@link BrokerSettings.Transport.Tls}),
 * or plain HTTP to a loopback address only, as for AMQP. Each call connects within {@value #CONNECT_MS} ms and is
 * answered within {@value #ANSWER_MS} ms, or fails.
 *
 * <p>A failure is a {@link BusException} that names the call, the address and the fix; the password is never in
 * one.
 *
 * <p>Thread-safe.
 */
public final class ManagementApi {

    /** How long connecting may take, in milliseconds. */
    static final long CONNECT_MS = 1_000;
    /** How long an answer may take, in milliseconds. */
    static final long ANSWER_MS = 5_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;
    private final String user;
    private final String authorization;
    private final HttpClient client;

    /**
     * @param host the management API's host
     * @param port its port
     * @param user the user the controller logs in as ({@code MESH_BROKER_MANAGEMENT_FILE})
     * @param password that user's password
     * @param transport plain HTTP (loopback only) or HTTPS pinned to a CA
     * @throws IllegalArgumentException when the transport is plain and the host is not loopback
     */
    public ManagementApi(String host, int port, String user, Secret password, BrokerSettings.Transport transport) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(transport, "transport");
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(CONNECT_MS));
        String scheme;
        if (transport instanceof BrokerSettings.Transport.Tls tls) {
            builder.sslContext(BrokerTls.context(tls.certificate()));
            scheme = "https";
        } else if (BrokerSettings.isLoopback(host)) {
            scheme = "http";
        } else {
            throw new IllegalArgumentException("plain HTTP to the broker's management API at " + host + ":" + port
                    + " is refused: without TLS the controller talks to a loopback address only; set "
                    + "MESH_BROKER_CERTIFICATE to the CA the broker's TLS certificate chains to");
        }
        this.base = URI.create(scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/api/");
        this.user = user;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + password.reveal()).getBytes(StandardCharsets.UTF_8));
        this.client = builder.build();
    }

    /** @return {@code user@host:port}, for messages */
    public String where() {
        return user + "@" + base.getHost() + ":" + base.getPort();
    }

    /**
     * @return the names of the broker's users
     * @throws BusException when the API cannot be reached or refuses the call
     */
    public Set<String> users() {
        JsonNode users = call("GET", "users?columns=name", null, "list the broker's users");
        Set<String> names = new HashSet<>();
        for (JsonNode entry : users) {
            names.add(entry.path("name").asString());
        }
        return names;
    }

    /**
     * @param vhost the virtual host
     * @return each user's permissions in {@code vhost}, by user
     * @throws BusException when the API cannot be reached or refuses the call
     */
    public Map<String, Access> permissions(String vhost) {
        JsonNode list = call("GET", "vhosts/" + encode(vhost) + "/permissions", null,
                "list the permissions of virtual host " + vhost);
        Map<String, Access> permissions = new HashMap<>();
        for (JsonNode entry : list) {
            permissions.put(entry.path("user").asString(), new Access(entry.path("configure").asString(),
                    entry.path("write").asString(), entry.path("read").asString()));
        }
        return permissions;
    }

    /**
     * Sets what {@code principal} may do in {@code vhost}.
     *
     * @throws BusException when the API cannot be reached or refuses the call (the user does not exist, say)
     */
    public void set(String vhost, String principal, Access access) {
        String body = JSON.writeValueAsString(Map.of("configure", access.configure(), "write", access.write(),
                "read", access.read()));
        call("PUT", "permissions/" + encode(vhost) + "/" + encode(principal), body,
                "set the permissions of user " + principal + " in virtual host " + vhost);
    }

    /**
     * Takes every permission of {@code principal} in {@code vhost} away.
     *
     * @throws BusException when the API cannot be reached or refuses the call
     */
    public void clear(String vhost, String principal) {
        call("DELETE", "permissions/" + encode(vhost) + "/" + encode(principal), null,
                "clear the permissions of user " + principal + " in virtual host " + vhost);
    }

    private JsonNode call(String method, String path, String body, String what) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMillis(ANSWER_MS))
                .header("Authorization", authorization).header("Accept", "application/json");
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new BusException("cannot " + what + ": the broker's management API does not answer at "
                    + where() + " (" + (e instanceof HttpConnectTimeoutException ? "no connection within "
                    + CONNECT_MS + " ms" : "the connection was refused") + "); enable it (rabbitmq-plugins enable "
                    + "rabbitmq_management) or fix MESH_BROKER_MANAGEMENT_PORT", e);
        } catch (HttpTimeoutException e) {
            throw new BusException("cannot " + what + ": the broker's management API at " + where()
                    + " did not answer within " + ANSWER_MS + " ms; it is tried again", e);
        } catch (IOException e) {
            throw new BusException("cannot " + what + " through the broker's management API at " + where() + ": "
                    + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while trying to " + what, e);
        }
        int status = response.statusCode();
        if (status == 401) {
            throw new BusException("cannot " + what + ": the broker's management API refused user " + user
                    + " (401); fix MESH_BROKER_MANAGEMENT_FILE's user and password");
        }
        if (status == 403) {
            throw new BusException("cannot " + what + ": user " + user + " may not (403); tag it administrator "
                    + "(rabbitmqctl set_user_tags " + user + " administrator)");
        }
        if (status / 100 != 2) {
            throw new BusException("cannot " + what + ": the broker's management API at " + where() + " answered "
                    + status + " " + reason(response.body()));
        }
        if (response.body().isEmpty()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(response.body());
        } catch (JacksonException e) {
            throw new BusException("cannot " + what + ": the broker's management API at " + where()
                    + " answered something that is not JSON", e);
        }
    }

    /** @return the {@code reason} of a management API error body, or nothing */
    private static String reason(String body) {
        try {
            JsonNode error = JSON.readTree(body);
            return error.path("reason").isString() ? "(" + error.path("reason").asString() + ")" : "";
        } catch (JacksonException e) {
            return "";
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
