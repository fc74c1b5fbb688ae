package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryIdentity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class McpHttpServerTest {

    private static final String ASSIGN = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"beta\"}}}";

    private final Fixtures fixtures = new Fixtures();
    private final BearerToken token = BearerToken.random();
    private final McpHttpServer server = McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE),
            McpHttpServer.Config.loopback(0, token, "dev"));
    private final McpClient client = McpClient.of(server.endpoint(), token, Duration.ofSeconds(2),
            Duration.ofSeconds(10));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @AfterEach
    void stop() {
        // The server first: a client closing its connections while the server stops makes the stop wait its grace.
        server.close();
        client.close();
        http.close();
    }

    private HttpResponse<String> post(String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.endpoint()).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postWithToken(String body, String... headers)
            throws IOException, InterruptedException {
        String[] all = Arrays.copyOf(headers, headers.length + 4);
        all[headers.length] = "Authorization";
        all[headers.length + 1] = token.header();
        all[headers.length + 2] = "Content-Type";
        all[headers.length + 3] = "application/json";
        return post(body, all);
    }

    private static JsonNode json(HttpResponse<String> response) {
        return Fixtures.JSON.readTree(response.body());
    }

    private void pushExamples() {
        for (JsonNode manifest : Fixtures.exampleManifests()) {
            ObjectNode args = Fixtures.JSON.createObjectNode();
            args.set("manifest", manifest);
            client.callTool("push", args);
        }
    }

    @Test
    void pushAssignPlan_roundTripOverHttp() {
        pushExamples();
        for (Assignment a : Fixtures.exampleAssignments()) {
            client.callTool("assign", Fixtures.JSON.readTree("{\"module\": \"%s\", \"node\": \"%s\"}"
                    .formatted(a.module(), a.node())));
        }

        JsonNode plan = client.callTool("plan", Fixtures.JSON.createObjectNode());

        assertThat(plan.path("problems").isEmpty()).isTrue();
        assertThat(plan.path("text").asString()).contains("+ gamma/process:mesh-controller");
        assertThat(fixtures.inventory.assignments()).hasSize(7);
        assertThat(fixtures.inventory.modules()).hasSize(5);
    }

    @Test
    void client_initialize_agreesOnTheLatestVersion_andGetsASessionId() {
        McpClient.Session session = client.initialize();

        assertThat(session.protocolVersion()).isEqualTo("2025-06-18");
        assertThat(session.serverName()).isEqualTo("mesh-controller");
        assertThat(session.serverVersion()).isEqualTo(Fixtures.VERSION);
        assertThat(session.sessionId()).matches("[0-9a-f-]{36}");
    }

    @Test
    void client_listTools_isTheVerbsTools() {
        assertThat(client.listTools()).extracting(Tool::name)
                .containsExactlyElementsOf(fixtures.verbs.tools().stream().map(Tool::name).toList());
        assertThat(client.listTools().get(8).inputSchema()).isEqualTo(fixtures.verbs.tools().get(8).inputSchema());
    }

    @Test
    void client_verbFailure_isTheVerbException() {
        pushExamples();

        assertThatThrownBy(() -> client.callTool("assign", Fixtures.JSON.readTree("{\"module\": \"mesh-bus\"}")))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo("/node");
                    assertThat(e.getMessage()).isEqualTo("the argument \"node\" is required: a non-empty string");
                });
    }

    @Test
    void client_sameRequestIdTwice_runsTheVerbOnce() {
        pushExamples();
        JsonNode args = Fixtures.JSON.readTree("{\"module\": \"mesh-bus\", \"node\": \"beta\"}");

        JsonNode first = client.callTool("assign", args, "cli-42");
        int events = fixtures.events.events().size();
        JsonNode second = client.callTool("assign", args, "cli-42");

        assertThat(second).isEqualTo(first);
        assertThat(fixtures.events.events()).hasSize(events);
    }

    @Test
    void client_badParams_isAProtocolErrorWithItsCode() {
        assertThatThrownBy(() -> client.callTool("status", Fixtures.JSON.readTree("[1]")))
                .isInstanceOfSatisfying(McpException.class, e -> {
                    assertThat(e.kind()).isEqualTo(McpException.Kind.PROTOCOL);
                    assertThat(e.rpcCode()).isEqualTo(-32602);
                    assertThat(e.getMessage()).isEqualTo("tools/call status failed at " + server.endpoint()
                            + ": invalid params: \"arguments\" of tools/call must be an object, not array");
                });
    }

    @Test
    void theTokenHoldersPrincipal_isWhomIdentityChecks() {
        MemoryIdentity identity = new MemoryIdentity();
        identity.add("dev");
        identity.grant("dev", "status");
        try (McpHttpServer guarded = McpHttpServer.start(fixtures.dispatcher(identity),
                McpHttpServer.Config.loopback(0, token, "dev"));
                McpClient caller = McpClient.of(guarded.endpoint(), token)) {
            assertThat(caller.callTool("status", null).path("modules").asInt()).isZero();
            assertThatThrownBy(() -> caller.callTool("build", Fixtures.JSON.readTree("{\"module\": \"x\"}")))
                    .isInstanceOfSatisfying(VerbException.class, e -> {
                        assertThat(e.code()).isEqualTo(VerbException.Code.UNAUTHORIZED);
                        assertThat(e.getMessage()).startsWith("\"dev\" may not call build");
                    });
        }
    }

    @Test
    void client_wrongToken_isUnauthorized() {
        try (McpClient wrong = McpClient.of(server.endpoint(), BearerToken.random())) {
            assertThatThrownBy(wrong::listTools).isInstanceOfSatisfying(McpException.class, e -> {
                assertThat(e.kind()).isEqualTo(McpException.Kind.UNAUTHORIZED);
                assertThat(e.getMessage()).startsWith(server.endpoint() + " refused the request (HTTP 401: ");
            });
        }
    }

    @Test
    void client_noController_isUnreachable_sayingWhereItTried() {
        URI endpoint = server.endpoint();
        server.close();

        try (McpClient lonely = McpClient.of(endpoint, token, Duration.ofSeconds(2), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> lonely.callTool("status", null)).isInstanceOfSatisfying(McpException.class,
                    e -> {
                        assertThat(e.kind()).isEqualTo(McpException.Kind.UNREACHABLE);
                        assertThat(e.getMessage()).startsWith("cannot connect to the controller at " + endpoint)
                                .endsWith("is it running? start it with mesh-controller serve --dev");
                    });
        }
    }

    @Test
    void noToken_is401WithWwwAuthenticate_andChangesNothing() throws Exception {
        pushExamples();
        Fixtures.Snapshot before = fixtures.snapshot();

        HttpResponse<String> response = post(ASSIGN, "Content-Type", "application/json");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"mesh-controller\"");
        assertThat(json(response).path("error").path("message").asString()).isEqualTo("unauthorized: send "
                + "Authorization: Bearer <token>, the token in the controller's state directory (file token)");
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void wrongToken_is401_andChangesNothing() throws Exception {
        pushExamples();
        Fixtures.Snapshot before = fixtures.snapshot();

        HttpResponse<String> response = post(ASSIGN, "Content-Type", "application/json", "Authorization",
                BearerToken.random().header());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void foreignOrigin_is403_andChangesNothing() throws Exception {
        pushExamples();
        Fixtures.Snapshot before = fixtures.snapshot();

        HttpResponse<String> response = postWithToken(ASSIGN, "Origin", "http://evil.example");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(json(response).path("error").path("message").asString()).isEqualTo("forbidden: the origin "
                + "http://evil.example is not this machine; the verbs are served to loopback origins only");
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void loopbackOrigin_isServed() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}",
                "Origin", "http://localhost:5173");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(json(response).path("result").isObject()).isTrue();
    }

    @Test
    void declaredBodyOverOneMebibyte_is413_beforeTheBodyIsSent() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.endpoint().getHost(), server.port()), 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + token.header()
                    + "\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n{\"jsonrpc\"")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();

            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);

            assertThat(status).isEqualTo("HTTP/1.1 413");
        }
    }

    @Test
    void chunkedBodyOverOneMebibyte_is413_andChangesNothing() throws Exception {
        byte[] big = new byte[McpDispatcher.MAX_MESSAGE_BYTES + 1];
        Arrays.fill(big, (byte) ' ');
        Fixtures.Snapshot before = fixtures.snapshot();
        HttpRequest request = HttpRequest.newBuilder(server.endpoint()).timeout(Duration.ofSeconds(10))
                .header("Authorization", token.header()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build();

        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(json(response).path("error").path("message").asString()).isEqualTo("content too large: the "
                + "message is larger than the limit; the limit is 1 MiB (1048576 bytes)");
        assertThat(fixtures.snapshot()).isEqualTo(before);
    }

    @Test
    void get_is405() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(server.endpoint())
                .header("Authorization", token.header()).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).contains("POST");
    }

    @Test
    void otherPath_is404() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(server.endpoint().resolve("/other"))
                .header("Authorization", token.header()).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void notification_is202WithNoBody() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\": \"2.0\", \"method\": "
                + "\"notifications/initialized\"}");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void initialize_issuesASessionId_andRequestsAreServedWithOrWithoutOne() throws Exception {
        HttpResponse<String> initialized = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
                + "\"initialize\", \"params\": {\"protocolVersion\": \"2025-03-26\"}}");
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();

        HttpResponse<String> with = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}",
                "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-03-26");
        HttpResponse<String> without = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\"}");

        assertThat(json(initialized).path("result").path("protocolVersion").asString()).isEqualTo("2025-03-26");
        assertThat(with.statusCode()).isEqualTo(200);
        assertThat(without.statusCode()).isEqualTo(200);
        assertThat(without.headers().firstValue("Mcp-Session-Id")).isEmpty();
    }

    @Test
    void unsupportedProtocolVersionHeader_is400() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}",
                "MCP-Protocol-Version", "2023-01-01");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).path("error").path("message").asString()).isEqualTo("bad request: "
                + "MCP-Protocol-Version 2023-01-01 is not spoken here; the versions are 2025-06-18, 2025-03-26, "
                + "2024-11-05");
    }

    @Test
    void notJsonContent_is415() throws Exception {
        HttpResponse<String> response = post("{}", "Authorization", token.header(), "Content-Type", "text/plain");

        assertThat(response.statusCode()).isEqualTo(415);
    }

    @Test
    void acceptWithoutJson_is406() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}",
                "Accept", "text/event-stream");

        assertThat(response.statusCode()).isEqualTo(406);
    }

    @Test
    void malformedMessage_is400WithTheParseError() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\"");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).path("error").path("code").asInt()).isEqualTo(-32700);
    }

    @Test
    void unknownMethod_is200WithTheJsonRpcError() throws Exception {
        HttpResponse<String> response = postWithToken("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"x\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).path("error").path("code").asInt()).isEqualTo(-32601);
    }

    @Test
    void start_nonLoopbackAddressWithoutPermission_isRefused() {
        McpHttpServer.Config everywhere = new McpHttpServer.Config(new InetSocketAddress("0.0.0.0", 0), false, token,
                "dev", 4);

        assertThatThrownBy(() -> McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE), everywhere))
                .isInstanceOfSatisfying(McpException.class, e -> {
                    assertThat(e.kind()).isEqualTo(McpException.Kind.SETUP);
                    assertThat(e.getMessage()).isEqualTo("refusing to serve the verbs on 0.0.0.0, which is not a "
                            + "loopback address: anyone who reaches it could try the token; listen on 127.0.0.1, or "
                            + "allow non-loopback addresses explicitly");
                });
    }

    @Test
    void stop_stopsServing_andMayBeCalledAgain() {
        client.listTools();

        server.stop();
        server.stop();

        assertThatThrownBy(client::listTools).isInstanceOfSatisfying(McpException.class,
                e -> assertThat(e.kind()).isEqualTo(McpException.Kind.UNREACHABLE));
    }

}
