package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real MCP client against {@code serve --dev}: the official MCP TypeScript SDK
 * ({@code @modelcontextprotocol/sdk}, pinned in {@code src/it/mcp-client/package.json}) connects
 * with its Streamable HTTP transport and the bearer token, then pushes and assigns the example
 * modules into an empty store and reads the plan ({@code src/it/mcp-client/client.mjs}).
 *
 * <p>Needs Node.js 18+ and npm; installs the client's dependencies with {@code npm ci} from the
 * committed lock file when they are missing or not the pinned version.
 */
class RealMcpClientIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path CLIENT = Path.of("src/it/mcp-client");
    private static final Path SDK = CLIENT.resolve("node_modules/@modelcontextprotocol/sdk/package.json");
    private static final String NEEDS_NODE = "RealMcpClientIT needs Node.js 18 or newer and npm on PATH: install them "
            + "(apt-get install nodejs npm); the test then runs npm ci in " + CLIENT.toAbsolutePath() + " itself";

    @TempDir
    Path dir;

    @BeforeAll
    static void installClient() throws IOException {
        Exec node = exec(List.of("node", "--version"), CLIENT, Duration.ofSeconds(30));
        assertThat(node.exitCode()).as(NEEDS_NODE + " (node --version: %s)", node.output()).isZero();
        assertThat(Integer.parseInt(node.output().strip().replaceFirst("^v(\\d+)\\..*", "$1")))
                .as(NEEDS_NODE + " (found %s)", node.output().strip()).isGreaterThanOrEqualTo(18);
        if (!installedSdk().equals(pinnedSdk())) {
            Exec ci = exec(List.of("npm", "ci", "--no-audit", "--no-fund"), CLIENT, Duration.ofMinutes(5));
            assertThat(ci.exitCode()).as("npm ci in %s failed; run it there by hand to see why:%n%s",
                    CLIENT.toAbsolutePath(), ci.output()).isZero();
        }
        assertThat(installedSdk()).as("the SDK npm ci installed").isEqualTo(pinnedSdk());
    }

    @Test
    void officialSdkClient_pushesAssignsAndPlans_onAnEmptyStore() throws IOException {
        Path state = dir.resolve("state");
        try (ServeProcess serve = ServeProcess.start(state, dir)) {
            assertThat(serve.out).hasSize(1);

            Exec run = exec(List.of("node", "client.mjs", serve.endpoint().toString(),
                    state.resolve("token").toAbsolutePath().toString(), Path.of("../examples/mesh.json")
                            .toAbsolutePath().normalize().toString(), "--node", "local"), CLIENT, Duration.ofMinutes(2));

            assertThat(run.exitCode()).as("node client.mjs failed:%n%s%nserve's stderr:%n%s", run.output(), serve.err())
                    .isZero();
            JsonNode summary = JSON.readTree(run.stdout());
            assertThat(summary.path("sdk").asString()).isEqualTo(pinnedSdk());
            assertThat(summary.path("protocolVersion").asString()).isEqualTo("2025-06-18");
            assertThat(summary.path("server").path("name").asString()).isEqualTo("mesh-controller");
            assertThat(summary.path("capabilities").path("tools").path("listChanged").asBoolean(true)).isFalse();
            assertThat(texts(summary.path("tools"))).containsExactly("tools", "status", "nodes", "node", "modules",
                    "seats", "builds", "plan", "assign", "unassign", "push", "build");
            assertThat(texts(summary.path("pushed"), "module")).containsExactly("mesh-controller", "mesh-store",
                    "mesh-broker", "mesh-bus", "mesh-host");
            assertThat(summary.path("pushed")).allSatisfy(push -> assertThat(push.path("changed").asBoolean()).isTrue());
            assertThat(texts(summary.path("assigned"), "module")).containsExactly("mesh-store", "mesh-broker",
                    "mesh-bus", "mesh-controller", "mesh-host");
            assertThat(summary.path("assigned")).allSatisfy(a -> assertThat(a.path("changed").asBoolean()).isTrue());
            assertThat(texts(summary.path("nodes"))).containsExactly("local");
            JsonNode plan = summary.path("plan");
            assertThat(plan.path("summary").isObject()).isTrue();
            assertThat(plan.path("summary").isEmpty()).isFalse();
            assertThat(plan.path("problems").asInt()).isZero();
            assertThat(plan.path("textLines").asInt()).isGreaterThan(1);
            JsonNode status = withoutAsOf(summary.path("status"));
            assertThat(status.path("nodes").asInt()).isEqualTo(1);
            assertThat(status.path("modules").asInt()).isEqualTo(5);
            assertThat(status.path("assignments").asInt()).isEqualTo(5);
            assertThat(status.path("plan")).isEqualTo(plan.path("summary"));

            JsonNode unknownTool = summary.path("failures").path("unknownTool");
            assertThat(unknownTool.path("isError").asBoolean()).isTrue();
            assertThat(unknownTool.path("structuredContent").path("code").asString()).isEqualTo("not-found");
            // The SDK's Client.callTool checks structuredContent against the tool's outputSchema
            // even when isError is true: each verb's schema admits its result or the error
            // {code, message, pointer}, so a failing verb reaches an SDK client as the tool error.
            JsonNode assignUnknown = summary.path("failures").path("assignUnknownModule");
            assertThat(assignUnknown.path("isError").asBoolean()).as(assignUnknown.toString()).isTrue();
            assertThat(assignUnknown.path("structuredContent").path("code").asString()).isEqualTo("not-found");
            assertThat(assignUnknown.path("structuredContent").path("pointer").asString()).isEqualTo("/module");
            assertThat(withoutAsOf(summary.path("statusAfterFailures"))).isEqualTo(status);

            try (McpClient client = McpClient.of(serve.endpoint(), BearerToken.read(state))) {
                assertThat(withoutAsOf(client.callTool("status", JSON.createObjectNode()))).isEqualTo(status);
            }
            assertThat(serve.stop()).as(serve.err()).isZero();
        }
    }

    /** status without when it read the store, and without the count of verb calls, which each call changes. */
    private static JsonNode withoutAsOf(JsonNode status) {
        ObjectNode copy = ((ObjectNode) status).deepCopy();
        copy.remove(List.of("asOf", "verbs"));
        return copy;
    }

    private static List<String> texts(JsonNode array, String... field) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add((field.length == 0 ? item : item.path(field[0])).asString()));
        return texts;
    }

    private static String pinnedSdk() {
        return JSON.readTree(CLIENT.resolve("package.json").toFile()).path("dependencies")
                .path("@modelcontextprotocol/sdk").asString();
    }

    private static String installedSdk() {
        return Files.exists(SDK) ? JSON.readTree(SDK.toFile()).path("version").asString() : "";
    }

    private record Exec(int exitCode, String stdout, String stderr) {
        String output() {
            return stdout + stderr;
        }
    }

    private static Exec exec(List<String> command, Path directory, Duration timeout) throws IOException {
        Path out = Files.createTempFile("real-mcp-client-", ".out");
        Path err = Files.createTempFile("real-mcp-client-", ".err");
        try {
            Process process;
            try {
                process = new ProcessBuilder(command).directory(directory.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            } catch (IOException e) {
                throw new AssertionError(NEEDS_NODE + " (cannot run " + command.getFirst() + ": " + e.getMessage() + ")",
                        e);
            }
            try {
                if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(command + " did not exit within " + timeout.toSeconds() + " s:\n"
                            + Files.readString(out) + Files.readString(err));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new AssertionError("interrupted while running " + command, e);
            }
            return new Exec(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
