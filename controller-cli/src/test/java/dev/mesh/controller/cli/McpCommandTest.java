package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.settings.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import dev.mesh.controller.mcp.McpException;
import dev.mesh.controller.mcp.Upstream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/** {@code mesh-controller mcp}: MCP over piped standard streams, forwarded to the controller the CLI finds. */
class McpCommandTest {

    @TempDir
    Path state;

    /** What one run of {@code mcp} wrote, and how it exited. */
    private record Run(int exitCode, String out, String err) {

        List<JsonNode> messages() {
            return out.lines().map(TestController.JSON::readTree).toList();
        }
    }

    private static Run mcp(Map<String, String> env, String... lines) {
        return mcp(env, Upstreams.HTTP_ONLY, List.of(), lines);
    }

    private static Run mcp(Map<String, String> env, Upstreams upstreams, List<String> options, String... lines) {
        ByteArrayInputStream in = new ByteArrayInputStream((String.join("\n", lines) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int exitCode = new CommandLine(new McpCommand(env, in, out, upstreams))
                .setExecutionExceptionHandler(Failures::print)
                .setErr(new PrintWriter(err))
                .execute(options.toArray(String[]::new));
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    @Test
    void aSession_isForwardedToTheController_andTheOutputIsOnlyProtocol() {
        try (TestController controller = new TestController(state)) {
            Run run = mcp(controller.env(),
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"nodes\"}}");

            assertThat(run.exitCode()).isZero();
            List<JsonNode> messages = run.messages();
            assertThat(messages).hasSize(3);
            assertThat(messages.get(0).get("result").get("serverInfo").get("name").asString())
                    .isEqualTo("mesh-controller");
            assertThat(messages.get(1).get("result").get("tools")).hasSize(12);
            assertThat(messages.get(2).get("id").asInt()).isEqualTo(3);
            assertThat(messages.get(2).get("result").get("structuredContent").get("nodes")).hasSize(3);
        }
    }

    @Test
    void aMutatingCall_reachesTheControllerWithItsRequestId() {
        try (TestController controller = new TestController(state)) {
            Run run = mcp(controller.env(), "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                    + "{\"name\":\"build\",\"arguments\":{\"module\":\"none\"},\"_meta\":{\"dev.mesh/request-id\":"
                    + "\"r-1\"}}}");

            assertThat(run.messages().getFirst().get("result").get("isError").asBoolean()).isTrue();
            assertThat(controller.requestIds).containsExactly("r-1");
        }
    }

    @Test
    void aControllerThatStopped_isAToolErrorUnavailable_andTheBridgeGoesOn() {
        TestController controller = new TestController(state);
        controller.close();

        Run run = mcp(controller.env(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"status\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");

        assertThat(run.exitCode()).isZero();
        assertThat(run.messages()).hasSize(2);
        JsonNode error = run.messages().get(0).get("result");
        assertThat(error.get("isError").asBoolean()).isTrue();
        assertThat(error.get("structuredContent").get("code").asString()).isEqualTo("unavailable");
        assertThat(run.messages().get(1).get("result").isEmpty()).isTrue();
    }

    @Test
    void noControllerFound_exits3_beforeServing_withNothingOnStandardOutput() {
        Run run = mcp(Map.of("MESH_CONTROLLER_STATE", state.resolve("none").toString()),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("mesh-controller: no controller was reached; tried, in order:\n");
    }

    @Test
    void anUpstreamFromTheEnvironment_isForwardedTo_andClosedAtTheEnd() {
        Canned upstream = new Canned();

        Run run = mcp(Map.of(), (env, warn) -> {
            warn.accept("the file is readable by others");
            return Optional.of(upstream);
        }, List.of(), "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");

        assertThat(run.exitCode()).isZero();
        assertThat(upstream.asked).containsExactly("tools/list");
        assertThat(upstream.closed).isTrue();
        assertThat(run.messages()).hasSize(2);
        assertThat(run.messages().getFirst().at("/result/tools").isArray()).isTrue();
        assertThat(run.err().lines()).containsExactly("mesh-controller: warning: the file is readable by others");
    }

    @Test
    void theOptions_nameAnHttpController_andTheEnvironmentsUpstreamIsNotAsked() {
        try (TestController controller = new TestController(state)) {
            Run run = mcp(Map.of(), (env, warn) -> {
                throw new AssertionError("asked for an upstream although --state was given");
            }, List.of("--state", controller.env().get("MESH_CONTROLLER_STATE")), "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"nodes\"}}");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.messages().getFirst().at("/result/structuredContent/nodes")).hasSize(3);
        }
    }

    @Test
    void anEnvironmentThatIsWrong_exits2_withItsLines_andServesNothing() {
        Run run = mcp(Map.of(), (env, warn) -> {
            throw new ConfigException(List.of("MESH_BROKER_ADDRESS_PORT is not set; set it", "second line"));
        }, List.of(), "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly("mesh-controller: MESH_BROKER_ADDRESS_PORT is not set; set it",
                "mesh-controller: second line");
    }

    @Test
    void anUpstreamThatCannotBeReached_exits3_namingWhy_withoutAStackTrace() {
        Run run = mcp(Map.of(), (env, warn) -> {
            throw new CommandException("cannot connect to the broker as guest@127.0.0.1:1/mesh: Connection refused");
        }, List.of(), "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly("mesh-controller: no controller was reached; tried, in order:",
                "  cannot connect to the broker as guest@127.0.0.1:1/mesh: Connection refused");
    }

    /** An upstream that answers {@code tools/list} with no tools and remembers what it was asked. */
    private static final class Canned implements Upstream {

        final List<String> asked = new ArrayList<>();
        boolean closed;

        @Override
        public Optional<JsonNode> exchange(JsonNode message) {
            if (closed) {
                throw McpException.unreachable("closed", null);
            }
            asked.add(message.path("method").asString());
            return Optional.of(TestController.JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":" + message.path("id")
                    + ",\"result\":{\"tools\":[]}}"));
        }

        @Override
        public String describe() {
            return "the canned upstream";
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
