package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.McpException;
import dev.mesh.controller.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mesh-controller serve --dev} from the assembled bundle, as a process of its own: one
 * controller started on the example mesh serves the verbs, refuses every kind of bad request
 * without changing the store, stops on SIGTERM, and continues where it stopped when started again
 * on the same state directory. Each start runs the embedded PostgreSQL, so the class starts as few
 * as it can: the ordered tests share one controller.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServeDevIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> VERBS = List.of("tools", "status", "nodes", "node", "modules", "seats",
            "builds", "plan", "assign", "unassign", "push", "build");

    @TempDir
    static Path dir;

    private Path state;
    private ServeProcess serve;
    private McpClient client;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();
    /** What the store held before the controller was stopped, to compare with the restart. */
    private Snapshot beforeStop;
    private long firstEpoch;

    @BeforeAll
    void start() {
        state = dir.resolve("state");
        serve = ServeProcess.start(state, dir, "--mesh", "../examples/mesh.json");
        client = McpClient.of(serve.endpoint(), BearerToken.read(state));
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (serve != null) {
            serve.close();
        }
        http.close();
    }

    @Test
    @Order(1)
    void start_loadsTheMesh_printsTheReadyLine_writesUrlAndToken() throws IOException {
        assertThat(serve.out).containsExactly(
                "loaded 3 nodes, 5 modules, 7 assignments from ../examples/mesh.json",
                "mesh-controller ready: " + serve.endpoint() + " (dev, state " + state.toAbsolutePath() + ", epoch "
                        + serve.epoch() + ")");
        assertThat(serve.epoch()).isPositive();
        assertThat(Files.readString(state.resolve("url"))).isEqualTo(serve.endpoint() + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("url")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("token"))))
                .isEqualTo("rw-------");
        assertThat(serve.err()).contains("controller started mode=dev").doesNotContain(
                Files.readString(state.resolve("token")).strip());
    }

    @Test
    @Order(2)
    void initialize_agreesOnTheLatestVersion() {
        McpClient.Session session = client.initialize();

        assertThat(session.protocolVersion()).isEqualTo("2025-06-18");
        assertThat(session.serverName()).isEqualTo("mesh-controller");
        assertThat(session.serverVersion()).isNotEmpty();
        assertThat(session.sessionId()).isNotEmpty();
    }

    @Test
    @Order(3)
    void toolsList_listsTheTwelveVerbs() {
        List<Tool> tools = client.listTools();

        assertThat(tools).extracting(Tool::name).containsExactlyElementsOf(VERBS);
        assertThat(tools).allSatisfy(tool -> assertThat(tool.inputSchema().path("type").asString()).isEqualTo("object"));
    }

    @Test
    @Order(4)
    void nodes_areTheMeshsAndLocal() {
        assertThat(nodeNames()).containsExactly("alpha", "beta", "gamma", "local");
    }

    @Test
    @Order(5)
    void plan_hasChanges_agreesWithStatus() {
        JsonNode plan = client.callTool("plan", object());
        JsonNode status = client.callTool("status", object());

        assertThat(plan.path("problems").isEmpty()).isTrue();
        assertThat(plan.path("text").asString()).isNotBlank();
        assertThat(plan.path("plan").path("summary").isEmpty()).isFalse();
        assertThat(status.path("plan")).isEqualTo(plan.path("plan").path("summary"));
        assertThat(status.path("nodes").asInt()).isEqualTo(4);
        assertThat(status.path("modules").asInt()).isEqualTo(5);
        assertThat(status.path("assignments").asInt()).isEqualTo(7);
        assertThat(status.path("epoch").asLong()).isEqualTo(serve.epoch());
    }

    @Test
    @Order(10)
    void noToken_is401() {
        unchanged(() -> {
            HttpResponse<String> response = post(pushRequest("{\"module\": \"sneaky\", \"version\": \"1.0.0\"}"),
                    Map.of());

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"mesh-controller\"");
        });
    }

    @Test
    @Order(11)
    void wrongToken_is401() {
        unchanged(() -> {
            HttpResponse<String> response = post(pushRequest("{\"module\": \"sneaky\", \"version\": \"1.0.0\"}"),
                    Map.of("Authorization", "Bearer not-the-token"));
            assertThat(response.statusCode()).isEqualTo(401);

            try (McpClient wrong = McpClient.of(serve.endpoint(), BearerToken.of("not-the-token"))) {
                assertThatThrownBy(() -> wrong.callTool("status", object()))
                        .isInstanceOfSatisfying(McpException.class,
                                e -> assertThat(e.kind()).isEqualTo(McpException.Kind.UNAUTHORIZED))
                        .hasMessageContaining("HTTP 401");
            }
        });
    }

    @Test
    @Order(12)
    void notJson_isParseError() {
        unchanged(() -> assertRpcError(post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", ",
                withToken()), 400, -32700));
    }

    @Test
    @Order(13)
    void invalidRequest_isInvalidRequest() {
        unchanged(() -> assertRpcError(post(pushRequest("{\"module\": \"sneaky\", \"version\": \"1.0.0\"}")
                .replace("\"2.0\"", "\"1.0\""), withToken()), 400, -32600));
    }

    @Test
    @Order(14)
    void unknownMethod_isMethodNotFound() {
        unchanged(() -> assertRpcError(post("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"resources/list\"}",
                withToken()), 200, -32601));
    }

    @Test
    @Order(15)
    void badParams_areInvalidParams() {
        unchanged(() -> {
            assertRpcError(post("{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"tools/call\", \"params\": "
                    + "{\"arguments\": {\"module\": \"mesh-host\", \"node\": \"local\"}}}", withToken()), 200, -32602);
            assertRpcError(post("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"tools/call\", \"params\": "
                    + "{\"name\": \"assign\", \"arguments\": [\"mesh-host\", \"local\"]}}", withToken()), 200, -32602);
        });
    }

    @Test
    @Order(16)
    void overOneMebibyte_is413() {
        String push = pushRequest("{\"module\": \"big\", \"version\": \"1.0.0\"}");
        // Valid JSON, a push that would succeed, padded with whitespace past the limit.
        String big = push.substring(0, push.length() - 1) + " ".repeat(1_048_576) + "}";
        unchanged(() -> {
            HttpRequest request = HttpRequest.newBuilder(serve.endpoint()).timeout(Duration.ofSeconds(30))
                    .header("Authorization", BearerToken.read(state).header())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(
                            () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                    .build();

            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(JSON.readTree(response.body()).path("error").path("message").asString())
                    .contains("1 MiB (1048576 bytes)");
        });
    }

    @Test
    @Order(17)
    void unknownTool_isToolErrorNotFound() {
        unchanged(() -> assertVerbFailure(() -> client.callTool("deploy", object()), VerbException.Code.NOT_FOUND,
                "", "there is no verb \"deploy\""));
    }

    @Test
    @Order(18)
    void invalidArguments_areInvalidWithPointer() {
        ObjectNode arguments = object();
        arguments.put("name", 5);

        unchanged(() -> assertVerbFailure(() -> client.callTool("node", arguments), VerbException.Code.INVALID,
                "/name", "the argument \"name\" must be a non-empty string"));
    }

    @Test
    @Order(19)
    void assignOfUnknownModule_isNotFound() {
        ObjectNode arguments = object();
        arguments.put("module", "no-such-module");
        arguments.put("node", "alpha");

        unchanged(() -> assertVerbFailure(() -> client.callTool("assign", arguments), VerbException.Code.NOT_FOUND,
                "/module", "there is no module \"no-such-module\""));
    }

    @Test
    @Order(20)
    void pushOfInvalidManifest_isInvalidWithTheManifestsPointer() {
        ObjectNode arguments = object();
        arguments.set("manifest", JSON.readTree("{\"module\": \"Bad Name\", \"version\": \"1.0.0\"}"));

        unchanged(() -> assertVerbFailure(() -> client.callTool("push", arguments), VerbException.Code.INVALID,
                "/manifest/module", "\"Bad Name\" is not a valid module name"));
    }

    /**
     * SIGTERM asks for the planned release: the main thread stops the controller and {@code serve}
     * exits 0, not the JVM's 143 (128 + 15) of a process ended by the signal.
     */
    @Test
    @Order(30)
    void sigterm_stopsCleanly_exit0_removesUrl_leavesNoPostgres() {
        beforeStop = snapshot();
        firstEpoch = serve.epoch();
        assertThat(ServeProcess.postgresOf(state)).as("the embedded PostgreSQL runs while serving").isNotEmpty();

        int exit = serve.stop();

        assertThat(exit).as(serve.err()).isZero();
        assertThat(state.resolve("url")).doesNotExist();
        assertThat(state.resolve("token")).exists();
        assertThat(ServeProcess.postgresOf(state)).as("PostgreSQL processes left for " + state).isEmpty();
        assertThat(serve.err()).contains("controller stopping signal=TERM", "plan lock released",
                "embedded store stopped", "controller stopped mode=dev").doesNotContain("ERROR", "Exception");
    }

    @Test
    @Order(31)
    void restart_onTheSameState_keepsTheData_nextEpoch() {
        assertThat(beforeStop).as("runs after the SIGTERM test").isNotNull();
        client.close();

        serve = ServeProcess.start(state, dir, "--mesh", "../examples/mesh.json");
        client = McpClient.of(serve.endpoint(), BearerToken.read(state));

        assertThat(serve.out).first().isEqualTo("the store holds a mesh already; --mesh was not loaded again");
        assertThat(serve.epoch()).isEqualTo(firstEpoch + 1);
        Snapshot after = snapshot();
        assertThat(after.withoutTenure()).isEqualTo(beforeStop.withoutTenure());
        assertThat(after.status().path("epoch").asLong()).isEqualTo(firstEpoch + 1);
        assertThat(after.status().path("previous").asString()).as("the controller it took over from")
                .isEqualTo(beforeStop.status().path("instance").asString());
        assertThat(after.status().path("instance").asString()).matches(".+:\\d+")
                .isNotEqualTo(beforeStop.status().path("instance").asString());
        assertThat(serve.stop()).as(serve.err()).isZero();
        assertThat(ServeProcess.postgresOf(state)).isEmpty();
    }

    /** A stop that fails part-way still stops the rest, then says what failed and exits 1, not 0. */
    @Test
    @Order(32)
    void sigterm_whenUrlCannotBeRemoved_stopsTheRest_exit1_sayingWhy() throws IOException {
        serve = ServeProcess.start(state, dir);
        Path url = state.resolve("url");
        Files.delete(url);
        Files.createDirectory(url);
        Files.writeString(url.resolve("in-the-way"), "");

        int exit = serve.stop();

        assertThat(exit).as(serve.err()).isEqualTo(1);
        assertThat(serve.err()).contains("plan lock released", "embedded store stopped",
                "mesh-controller: the controller stopped, but not cleanly: cannot remove " + url.toAbsolutePath()
                        .normalize() + " (java.nio.file.DirectoryNotEmptyException: ");
        assertThat(ServeProcess.postgresOf(state)).isEmpty();
        Files.delete(url.resolve("in-the-way"));
        Files.delete(url);
    }

    @Test
    @Order(40)
    void badMeshFile_exit1_locatedProblems_nothingStarted() throws IOException {
        Path mesh = Files.writeString(dir.resolve("bad-mesh.json"), """
                {
                  "nodes": [
                    {"name": "alpha", "system": "debian-12"}
                  ],
                  "modules": ["modules/missing.json"],
                  "assignments": []
                }
                """);
        Path other = dir.resolve("bad-mesh-state");

        CommandRun run = ServeProcess.run(dir, "serve", "--dev", "--state", other.toString(), "--http",
                "127.0.0.1:0", "--mesh", mesh.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly(
                mesh + ":3:5: /nodes/0: this node lacks the required field \"address\"; add it: a host name or an IP "
                        + "address: letters, digits, '.', ':' and '-', e.g. \"10.20.0.11\"",
                mesh + ":5:15: /modules/0: cannot read the manifest " + dir.resolve("modules/missing.json")
                        + ": it does not exist; module paths are relative to the mesh file's directory: fix the path, "
                        + "or put the manifest inline",
                "mesh-controller: the mesh file " + mesh + " has 2 problems; nothing was started");
        assertThat(other).doesNotExist();
        assertThat(ServeProcess.postgresOf(other)).isEmpty();
    }

    @Test
    @Order(41)
    void serveWithoutDev_withoutItsEnvironment_exit2_namingEachVariable() {
        Path other = dir.resolve("no-dev-state");

        CommandRun run = ServeProcess.run(dir, "serve", "--state", other.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(9).allSatisfy(line -> assertThat(line).startsWith("mesh-controller: MESH_"));
        assertThat(other).doesNotExist();
    }

    @Test
    @Order(42)
    void httpNotLoopback_withoutAllowRemote_exit2_beforeTheStoreStarts() {
        Path other = dir.resolve("remote-state");

        CommandRun run = ServeProcess.run(dir, "serve", "--dev", "--state", other.toString(), "--http",
                "0.0.0.0:0");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("--http 0.0.0.0:0 is not a loopback address: every machine that reaches it "
                + "could try the token; listen on 127.0.0.1 (the default), or add --allow-remote to serve other "
                + "machines too\n").contains("Usage: mesh-controller serve");
        assertThat(other).doesNotExist();
        assertThat(ServeProcess.postgresOf(other)).isEmpty();
    }

    @Test
    @Order(43)
    void httpPortInUse_exit1_beforeTheStoreStarts() throws IOException {
        Path other = dir.resolve("busy-state");
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String http = "127.0.0.1:" + busy.getLocalPort();

            CommandRun run = ServeProcess.run(dir, "serve", "--dev", "--state", other.toString(), "--http", http);

            assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
            assertThat(run.out()).isEmpty();
            assertThat(run.err().lines().filter(line -> line.startsWith("mesh-controller: "))).containsExactly(
                    "mesh-controller: --http " + http + ": cannot listen there (Address already in use); is another "
                            + "controller running on it? stop it, or choose another port with --http HOST:PORT (port 0 "
                            + "for any free one); nothing was started");
            assertThat(other).doesNotExist();
            assertThat(ServeProcess.postgresOf(other)).isEmpty();
        }
    }

    /** What the verbs tell of the store: the counts, the nodes and the plan. */
    private record Snapshot(JsonNode status, JsonNode nodes, JsonNode modules, JsonNode plan) {
        /**
         * The same without what a restart changes: the tenure (epoch, since, how the lock was taken) and the
         * instance (host:pid).
         */
        Snapshot withoutTenure() {
            ObjectNode copy = ((ObjectNode) status).deepCopy();
            copy.remove(List.of("epoch", "since", "instance", "previous", "active", "handover"));
            return new Snapshot(copy, nodes, modules, plan);
        }
    }

    /**
     * The verbs' answers, without when status read the store ({@code asOf}, where status tells it) and the
     * count of verb calls ({@code verbs}), which the snapshots' own calls change.
     */
    private Snapshot snapshot() {
        ObjectNode status = (ObjectNode) client.callTool("status", object());
        status.remove(List.of("asOf", "verbs"));
        return new Snapshot(status, client.callTool("nodes", object()), client.callTool("modules", object()),
                client.callTool("plan", object()));
    }

    /** Runs a bad request and checks that the store is as it was. */
    private void unchanged(ThrowingRunnable request) {
        Snapshot before = snapshot();
        assertThat(before.status().path("modules").asInt()).isEqualTo(5);
        try {
            request.run();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(snapshot()).isEqualTo(before);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static void assertVerbFailure(ThrowingCallable call, VerbException.Code code,
            String pointer, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(VerbException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.pointer()).isEqualTo(pointer);
            assertThat(e.getMessage()).contains(message);
        });
    }

    private static void assertRpcError(HttpResponse<String> response, int status, int code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertThat(error.path("code").asInt()).as(response.body()).isEqualTo(code);
        assertThat(error.path("message").asString()).isNotBlank();
    }

    private List<String> nodeNames() {
        List<String> names = new ArrayList<>();
        client.callTool("nodes", object()).path("nodes").forEach(node -> names.add(node.path("name").asString()));
        return names;
    }

    private Map<String, String> withToken() {
        return Map.of("Authorization", BearerToken.read(state).header());
    }

    private static String pushRequest(String manifest) {
        return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"push\", "
                + "\"arguments\": {\"manifest\": " + manifest + "}}}";
    }

    private HttpResponse<String> post(String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(serve.endpoint().toString()))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("POST to " + serve.endpoint() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static ObjectNode object() {
        return JSON.createObjectNode();
    }
}
