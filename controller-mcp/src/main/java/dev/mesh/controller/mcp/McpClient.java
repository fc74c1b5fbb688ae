package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.mcp.internal.Handshake;
import dev.mesh.controller.mcp.internal.JsonRpc;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client of {@link McpHttpServer}, for the command line and the stdio bridge: it initializes a
 * session on first use, then lists and calls the verbs. A verb's failure comes back as the same
 * {@link VerbException} the verb threw in the controller; anything else as an {@link McpException}
 * whose kind says whether the controller was unreachable, refused the token, or broke the protocol.
 *
 * <p>Thread-safe.
 */
public final class McpClient implements Upstream {

    /** How long connecting may take by default. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a request may take by default, connection included. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String CLIENT_VERSION = "1";

    private final URI endpoint;
    private final BearerToken token;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final AtomicLong ids = new AtomicLong();
    private volatile Session session;

    /**
     * What {@code initialize} agreed.
     *
     * @param protocolVersion the protocol version the server chose
     * @param serverName the server's name
     * @param serverVersion the server's version
     * @param sessionId the {@code Mcp-Session-Id} the server issued, or {@code ""}
     */
    public record Session(String protocolVersion, String serverName, String serverVersion, String sessionId) {
        /** Checks the parts. */
        public Session {
            Objects.requireNonNull(protocolVersion, "protocolVersion");
            Objects.requireNonNull(serverName, "serverName");
            Objects.requireNonNull(serverVersion, "serverVersion");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    private McpClient(URI endpoint, BearerToken token, Duration connectTimeout, Duration requestTimeout) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.token = Objects.requireNonNull(token, "token");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.http = HttpClient.newBuilder().connectTimeout(Objects.requireNonNull(connectTimeout, "connectTimeout"))
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * @param endpoint the server's endpoint, e.g. {@code http://127.0.0.1:7411/mcp}
     * @param token the bearer token
     * @return a client with the default timeouts
     */
    public static McpClient of(URI endpoint, BearerToken token) {
        return of(endpoint, token, DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
    }

    /**
     * @param endpoint the server's endpoint
     * @param token the bearer token
     * @param connectTimeout how long connecting may take
     * @param requestTimeout how long one request may take
     * @return a client
     */
    public static McpClient of(URI endpoint, BearerToken token, Duration connectTimeout, Duration requestTimeout) {
        return new McpClient(endpoint, token, connectTimeout, requestTimeout);
    }

    /** @return the endpoint this client calls */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Initializes a session (again, when there is one): {@code initialize} then
     * {@code notifications/initialized}.
     *
     * @return what was agreed
     * @throws McpException when the controller is unreachable, refuses the token, or answers badly
     */
    public Session initialize() {
        ObjectNode params = NODES.objectNode();
        params.put("protocolVersion", Handshake.VERSIONS.getFirst());
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "mesh-controller-client").put("version", CLIENT_VERSION);
        Reply reply = post(request("initialize", params), "");
        JsonNode result = result(reply.message(), "initialize");
        String version = result.path("protocolVersion").asString("");
        if (!Handshake.VERSIONS.contains(version)) {
            throw McpException.protocol(JsonRpc.INVALID_REQUEST, endpoint + " chose the protocol version \"" + version
                    + "\", which this client does not speak (" + String.join(", ", Handshake.VERSIONS) + ")");
        }
        Session agreed = new Session(version, result.path("serverInfo").path("name").asString(""),
                result.path("serverInfo").path("version").asString(""), reply.sessionId());
        ObjectNode initialized = NODES.objectNode();
        initialized.put("jsonrpc", "2.0");
        initialized.put("method", "notifications/initialized");
        post(initialized, agreed.sessionId());
        session = agreed;
        return agreed;
    }

    /**
     * @return the verbs as the controller lists them
     * @throws McpException when the controller is unreachable, refuses the token, or answers badly
     */
    public List<Tool> listTools() {
        JsonNode result = result(exchange(request("tools/list", NODES.objectNode())).orElseThrow(), "tools/list");
        List<Tool> tools = new ArrayList<>();
        for (JsonNode tool : result.path("tools")) {
            tools.add(new Tool(tool.path("name").asString(""), tool.path("description").asString(""),
                    tool.path("inputSchema"), tool.path("outputSchema")));
        }
        return List.copyOf(tools);
    }

    /**
     * Calls a verb with no request id: a mutating verb runs each time.
     *
     * @param name the verb
     * @param arguments its arguments, an object
     * @return its structured result
     * @throws VerbException when the verb failed: the code, message and pointer it failed with
     * @throws McpException when the controller is unreachable, refuses the token, or answers badly
     */
    public JsonNode callTool(String name, JsonNode arguments) {
        return callTool(name, arguments, null);
    }

    /**
     * Calls a verb; a mutating verb with a request id runs at most once however often it is sent.
     *
     * @param name the verb
     * @param arguments its arguments, an object
     * @param requestId the idempotency key, sent as {@code _meta["dev.mesh/request-id"]}, or {@code null}
     * @return its structured result
     * @throws VerbException when the verb failed: the code, message and pointer it failed with
     * @throws McpException when the controller is unreachable, refuses the token, or answers badly
     */
    public JsonNode callTool(String name, JsonNode arguments, String requestId) {
        ObjectNode params = NODES.objectNode();
        params.put("name", Objects.requireNonNull(name, "name"));
        params.set("arguments", arguments == null ? NODES.objectNode() : arguments);
        if (requestId != null) {
            params.putObject("_meta").put(McpDispatcher.REQUEST_ID_META, requestId);
        }
        JsonNode result = result(exchange(request("tools/call", params)).orElseThrow(), "tools/call " + name);
        JsonNode structured = result.path("structuredContent");
        if (result.path("isError").asBoolean(false)) {
            throw verbFailure(name, structured);
        }
        if (!structured.isObject()) {
            throw McpException.protocol(JsonRpc.INVALID_REQUEST, "the answer of " + endpoint + " to tools/call "
                    + name + " has no structuredContent object");
        }
        return structured;
    }

    /**
     * Sends one message as it is, in the session (initializing one first when there is none).
     *
     * @param message a JSON-RPC request or notification
     * @return the response, or empty for a notification
     * @throws McpException when the controller is unreachable, refuses the token, or its answer is not JSON
     */
    @Override
    public Optional<JsonNode> exchange(JsonNode message) {
        Session current = session;
        if (current == null) {
            current = initialize();
        }
        return Optional.ofNullable(post(message, current.sessionId()).message());
    }

    /** @return the controller's endpoint URL */
    @Override
    public String describe() {
        return endpoint.toString();
    }

    /** Closes the HTTP client; calls after this fail. */
    @Override
    public void close() {
        http.close();
    }

    private ObjectNode request(String method, ObjectNode params) {
        ObjectNode request = NODES.objectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", method);
        request.set("params", params);
        return request;
    }

    private record Reply(JsonNode message, String sessionId) {
    }

    private Reply post(JsonNode message, String sessionId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", token.header())
                .POST(HttpRequest.BodyPublishers.ofByteArray(JsonRpc.write(message)));
        Session current = session;
        if (current != null) {
            request.header("MCP-Protocol-Version", current.protocolVersion());
        }
        if (!sessionId.isEmpty()) {
            request.header("Mcp-Session-Id", sessionId);
        }
        HttpResponse<byte[]> response = send(request.build());
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw McpException.unauthorized(endpoint + " refused the request (HTTP " + status + ": "
                    + errorMessage(response.body()) + "); check the token in the controller's state directory");
        }
        if (status == 202 && response.body().length == 0) {
            return new Reply(null, "");
        }
        JsonNode answer;
        try {
            answer = JsonRpc.MAPPER.readTree(response.body());
        } catch (JacksonException e) {
            answer = null;
        }
        if (answer == null || !answer.isObject()) {
            throw McpException.protocol(JsonRpc.INVALID_REQUEST, endpoint + " answered HTTP " + status
                    + " without a JSON-RPC message; is it a mesh controller?");
        }
        return new Reply(answer, response.headers().firstValue("Mcp-Session-Id").orElse(""));
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw McpException.unreachable("the controller at " + endpoint + " did not answer within "
                    + requestTimeout.toSeconds() + " s (" + e.getMessage() + "); is it running and not stuck?", e);
        } catch (ConnectException e) {
            throw McpException.unreachable("cannot connect to the controller at " + endpoint + " (" + e
                    + "); is it running? start it with mesh-controller serve --dev", e);
        } catch (IOException e) {
            throw McpException.unreachable("the exchange with the controller at " + endpoint + " failed (" + e
                    + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw McpException.unreachable("interrupted while waiting for the controller at " + endpoint, e);
        }
    }

    private JsonNode result(JsonNode response, String what) {
        JsonNode error = response.get("error");
        if (error != null) {
            throw McpException.protocol(error.path("code").asInt(JsonRpc.INTERNAL_ERROR), what + " failed at "
                    + endpoint + ": " + error.path("message").asString("(no message)"));
        }
        JsonNode result = response.get("result");
        if (result == null || !result.isObject()) {
            throw McpException.protocol(JsonRpc.INVALID_REQUEST, "the answer of " + endpoint + " to " + what
                    + " has no result object");
        }
        return result;
    }

    private RuntimeException verbFailure(String name, JsonNode structured) {
        String label = structured.path("code").asString("");
        try {
            return new VerbException(VerbException.Code.of(label), structured.path("message").asString(""),
                    structured.path("pointer").asString(""));
        } catch (IllegalArgumentException e) {
            return McpException.protocol(JsonRpc.INVALID_REQUEST, "the answer of " + endpoint + " to tools/call "
                    + name + " is an error with the unknown code \"" + label + "\": "
                    + structured.path("message").asString(""));
        }
    }

    private static String errorMessage(byte[] body) {
        try {
            return JsonRpc.MAPPER.readTree(body).path("error").path("message").asString("no message");
        } catch (JacksonException e) {
            return "no message";
        }
    }
}
