package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class StdioBridgeTest {

    private final Fixtures fixtures = new Fixtures();
    private final BearerToken token = BearerToken.random();
    private final McpHttpServer server = McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE),
            McpHttpServer.Config.loopback(0, token, "dev"));
    private final McpClient client = McpClient.of(server.endpoint(), token, Duration.ofSeconds(2),
            Duration.ofSeconds(10));

    @AfterEach
    void stop() {
        server.close();
        client.close();
    }

    /** Runs the bridge over the lines and returns what it wrote, one parsed message per line. */
    private static List<JsonNode> bridge(McpClient through, String... lines) {
        return bridge(through, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static List<JsonNode> bridge(McpClient through, byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioBridge.of(through, "0.1.0-bridge").run(new ByteArrayInputStream(input), out);
        String written = out.toString(StandardCharsets.UTF_8);
        assertThat(written).endsWith("\n");
        return written.lines().map(Fixtures.JSON::readTree).toList();
    }

    private static String pushLine(int id, String requestId) {
        ObjectNode message = Fixtures.JSON.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("id", id);
        message.put("method", "tools/call");
        ObjectNode params = message.putObject("params");
        params.put("name", "push");
        params.putObject("arguments").set("manifest", Fixtures.exampleManifests().getFirst());
        params.putObject("_meta").put("dev.mesh/request-id", requestId);
        return message.toString();
    }

    @Test
    void aSession_isAnsweredLineByLine_andToolsReachTheController() {
        List<JsonNode> out = bridge(client,
                "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"protocolVersion\": "
                        + "\"2025-03-26\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"agent\", \"version\": \"1\"}}}",
                "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}",
                "",
                "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}",
                "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/list\"}",
                pushLine(4, "bridge-1"),
                "{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"tools/call\", \"params\": {\"name\": \"assign\", "
                        + "\"arguments\": {\"module\": \"mesh-broker\"}}}",
                "{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"tools/call\"}",
                "{not json",
                "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"resources/list\"}");

        assertThat(out).extracting(m -> m.path("id").asString()).containsExactly("1", "2", "3", "4", "5", "6", "",
                "7");
        assertThat(out.get(0).path("result").path("protocolVersion").asString()).isEqualTo("2025-03-26");
        assertThat(out.get(0).path("result").path("serverInfo").path("version").asString()).isEqualTo("0.1.0-bridge");
        assertThat(out.get(1).path("result").isObject()).isTrue();
        assertThat(out.get(2).path("result").path("tools").size()).isEqualTo(12);
        assertThat(out.get(3).path("result").path("structuredContent").path("changed").asBoolean()).isTrue();
        assertThat(out.get(4).path("result").path("structuredContent").path("pointer").asString()).isEqualTo("/node");
        assertThat(out.get(5).path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(out.get(6).path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(out.get(7).path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(fixtures.inventory.modules()).hasSize(1);
    }

    @Test
    void theRequestId_isForwarded_soARepeatedPushRunsOnce() {
        List<JsonNode> out = bridge(client, pushLine(1, "bridge-2"), pushLine(2, "bridge-2"));

        assertThat(out.get(1).path("result")).isEqualTo(out.get(0).path("result"));
        assertThat(fixtures.events.events()).hasSize(1);
    }

    @Test
    void aLineOverOneMebibyte_isRefused_andTheNextIsServed() {
        byte[] big = new byte[McpDispatcher.MAX_MESSAGE_BYTES + 10];
        Arrays.fill(big, (byte) ' ');
        byte[] next = "\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] input = Arrays.copyOf(big, big.length + next.length);
        System.arraycopy(next, 0, input, big.length, next.length);

        List<JsonNode> out = bridge(client, input);

        assertThat(out).hasSize(2);
        assertThat(out.get(0).path("error").path("message").asString()).isEqualTo("invalid request: the message is "
                + "1048586 bytes; the limit is 1 MiB (1048576 bytes)");
        assertThat(out.get(1).path("id").asInt()).isEqualTo(2);
    }

    @Test
    void noController_toolCallIsAToolErrorUnavailable_andListingAServerError() {
        URI endpoint = server.endpoint();
        server.close();

        try (McpClient lonely = McpClient.of(endpoint, token, Duration.ofSeconds(2), Duration.ofSeconds(5))) {
            List<JsonNode> out = bridge(lonely,
                    "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {}}",
                    "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}",
                    "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"status\"}}");

            assertThat(out.get(0).path("result").path("protocolVersion").asString()).isEqualTo("2025-06-18");
            assertThat(out.get(1).path("error").path("code").asInt()).isEqualTo(-32000);
            assertThat(out.get(1).path("error").path("message").asString()).startsWith("cannot connect to the "
                    + "controller at " + endpoint);
            JsonNode result = out.get(2).path("result");
            assertThat(result.path("isError").asBoolean()).isTrue();
            assertThat(result.path("structuredContent").path("code").asString()).isEqualTo("unavailable");
            assertThat(result.path("structuredContent").path("message").asString()).startsWith("cannot connect to "
                    + "the controller at " + endpoint);
        }
    }
}
