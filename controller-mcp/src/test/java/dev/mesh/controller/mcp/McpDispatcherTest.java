package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryIdentity;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class McpDispatcherTest {

    private final Fixtures fixtures = new Fixtures();
    private final McpDispatcher dispatcher = fixtures.dispatcher(Identity.ANYONE);
    private Fixtures.Snapshot before;

    @BeforeEach
    void pushTheExamples() {
        for (JsonNode manifest : Fixtures.exampleManifests()) {
            ObjectNode args = Fixtures.JSON.createObjectNode();
            args.set("manifest", manifest);
            fixtures.verbs.call("push", args);
        }
        fixtures.verbs.call("assign", Fixtures.JSON.readTree("{\"module\": \"mesh-store\", \"node\": \"alpha\"}"));
        before = fixtures.snapshot();
    }

    /** Every test but those that change the inventory on purpose leaves it as it was. */
    @AfterEach
    void inventoryUnchangedUnlessSaidOtherwise() {
        if (before != null) {
            assertThat(fixtures.snapshot()).isEqualTo(before);
        }
    }

    private JsonNode send(McpDispatcher to, String message) {
        Optional<byte[]> response = to.dispatch(message.getBytes(StandardCharsets.UTF_8), Envelope.of("tester"));
        assertThat(response).as("a response to %s", message).isPresent();
        return Fixtures.JSON.readTree(response.get());
    }

    private JsonNode send(String message) {
        return send(dispatcher, message);
    }

    private JsonNode call(String name, String arguments) {
        return send("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": {\"name\": \"" + name
                + "\", \"arguments\": " + arguments + "}}");
    }

    private static void assertError(JsonNode response, JsonNode id, int code, String message) {
        assertThat(response.path("jsonrpc").asString()).isEqualTo("2.0");
        assertThat(response.get("id")).isEqualTo(id);
        assertThat(response.has("result")).isFalse();
        assertThat(response.path("error").path("code").asInt()).isEqualTo(code);
        assertThat(response.path("error").path("message").asString()).isEqualTo(message);
    }

    private static JsonNode id(String json) {
        return Fixtures.JSON.readTree(json);
    }

    /** Asserts a tool error and returns its structured content. */
    private static JsonNode assertToolError(JsonNode response, String code) {
        JsonNode result = response.path("result");
        assertThat(result.path("isError").asBoolean()).isTrue();
        JsonNode structured = result.path("structuredContent");
        assertThat(structured.path("code").asString()).isEqualTo(code);
        assertThat(Fixtures.JSON.readTree(result.path("content").get(0).path("text").asString())).isEqualTo(structured);
        assertThat(result.path("content").get(0).path("type").asString()).isEqualTo("text");
        return structured;
    }

    // --- an answer a transport cannot carry

    @Test
    void instead_ofAToolResult_isTheToolErrorWithTheSameId() {
        byte[] answer = dispatcher.dispatch(("{\"jsonrpc\": \"2.0\", \"id\": \"big-1\", \"method\": \"tools/call\", "
                + "\"params\": {\"name\": \"nodes\", \"arguments\": {}}}").getBytes(StandardCharsets.UTF_8),
                Envelope.of("tester")).orElseThrow();
        JsonNode instead = Fixtures.JSON.readTree(McpDispatcher.instead(answer, new VerbException(
                VerbException.Code.INVALID, "the answer is too large; call it over HTTP", "")));

        assertThat(instead.get("id")).isEqualTo(id("\"big-1\""));
        JsonNode structured = assertToolError(instead, "invalid");
        assertThat(structured.path("message").asString()).isEqualTo("the answer is too large; call it over HTTP");
    }

    @Test
    void instead_ofAnotherResponse_isAJsonRpcErrorWithTheSameId() {
        byte[] answer = dispatcher.dispatch("{\"jsonrpc\": \"2.0\", \"id\": 41, \"method\": \"tools/list\"}"
                .getBytes(StandardCharsets.UTF_8), Envelope.of("tester")).orElseThrow();
        JsonNode instead = Fixtures.JSON.readTree(McpDispatcher.instead(answer, new VerbException(
                VerbException.Code.INVALID, "too large", "")));

        assertError(instead, id("41"), -32603, "too large");
    }

    // --- initialize, ping, notifications, tools/list

    @Test
    void initialize_supportedVersion_isAnsweredWithIt() {
        for (String version : McpDispatcher.PROTOCOL_VERSIONS) {
            JsonNode result = send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
                    + "{\"protocolVersion\": \"" + version + "\", \"capabilities\": {}, \"clientInfo\": {\"name\": "
                    + "\"t\", \"version\": \"1\"}}}").path("result");

            assertThat(result.path("protocolVersion").asString()).isEqualTo(version);
        }
    }

    @Test
    void initialize_unknownVersion_isAnsweredWithTheLatest() {
        JsonNode response = send("{\"jsonrpc\": \"2.0\", \"id\": \"a\", \"method\": \"initialize\", \"params\": "
                + "{\"protocolVersion\": \"2099-01-01\"}}");

        assertThat(response.path("id").asString()).isEqualTo("a");
        assertThat(response.path("result")).isEqualTo(Fixtures.JSON.readTree("{\"protocolVersion\": \"2025-06-18\", "
                + "\"capabilities\": {\"tools\": {\"listChanged\": false}}, \"serverInfo\": {\"name\": "
                + "\"mesh-controller\", \"version\": \"0.1.0-test\"}}"));
    }

    @Test
    void initialize_versionNotAString_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
                + "{\"protocolVersion\": 20250618}}"), id("1"), -32602, "invalid params: \"protocolVersion\" of "
                + "initialize must be a string, not number; the versions spoken are 2025-06-18, 2025-03-26, "
                + "2024-11-05");
    }

    @Test
    void notificationsInitialized_getsNoResponse() {
        assertThat(dispatcher.dispatch("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"
                .getBytes(StandardCharsets.UTF_8), Envelope.of("tester"))).isEmpty();
    }

    @Test
    void aNotificationOfAVerb_isNotRun_andGetsNoResponse() {
        assertThat(dispatcher.dispatch(("{\"jsonrpc\": \"2.0\", \"method\": \"tools/call\", \"params\": {\"name\": "
                + "\"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"beta\"}}}")
                .getBytes(StandardCharsets.UTF_8), Envelope.of("tester"))).isEmpty();
    }

    @Test
    void ping_answersAnEmptyObject() {
        JsonNode response = send("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\"}");

        assertThat(response).isEqualTo(Fixtures.JSON.readTree("{\"jsonrpc\": \"2.0\", \"id\": 3, \"result\": {}}"));
    }

    @Test
    void toolsList_listsTheVerbsWithTheirSchemas() {
        JsonNode tools = send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}").path("result")
                .path("tools");

        assertThat(tools.valueStream().map(t -> t.path("name").asString()).toList()).containsExactly("tools",
                "status", "nodes", "node", "modules", "seats", "builds", "plan", "assign", "unassign", "push",
                "build");
        assertThat(tools.get(8).path("inputSchema")).isEqualTo(fixtures.verbs.tools().get(8).inputSchema());
        assertThat(tools.get(8).path("outputSchema")).isEqualTo(fixtures.verbs.tools().get(8).outputSchema());
        assertThat(tools.get(8).path("description").asString()).startsWith("Assigns a module to a node");
        // The verb "tools" returns what tools/list returns.
        assertThat(call("tools", "{}").path("result").path("structuredContent")).isEqualTo(
                send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}").path("result"));
    }

    // --- tools/call

    @Test
    void toolsCall_answersStructuredContentAndTheSameAsText() {
        JsonNode result = call("node", "{\"name\": \"alpha\"}").path("result");

        assertThat(result.path("isError").asBoolean()).isFalse();
        assertThat(result.path("structuredContent").path("seats").valueStream().map(JsonNode::asString))
                .containsExactly("mesh-store");
        assertThat(result.path("content").size()).isEqualTo(1);
        assertThat(Fixtures.JSON.readTree(result.path("content").get(0).path("text").asString()))
                .isEqualTo(result.path("structuredContent"));
    }

    @Test
    void toolsCall_withoutArguments_callsWithAnEmptyObject() {
        JsonNode result = send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
                + "\"status\"}}").path("result");

        assertThat(result.path("isError").asBoolean()).isFalse();
        assertThat(result.path("structuredContent").path("modules").asInt()).isEqualTo(5);
    }

    @Test
    void toolsCall_mutatingWithARequestId_runsOnce() {
        String assign = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
                + "\"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"beta\"}, \"_meta\": "
                + "{\"dev.mesh/request-id\": \"req-1\"}}}";

        JsonNode first = send(assign);
        int eventsAfterFirst = fixtures.events.events().size();
        JsonNode second = send(assign);

        assertThat(first.path("result").path("structuredContent").path("changed").asBoolean()).isTrue();
        assertThat(second).isEqualTo(first);
        assertThat(fixtures.events.events()).hasSize(eventsAfterFirst);
        assertThat(fixtures.inventory.assignments()).hasSize(2);
        before = null;
    }

    @Test
    void toolsCall_requestIdUsedForAnotherCall_isAConflict() {
        send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"assign\", "
                + "\"arguments\": {\"module\": \"mesh-bus\", \"node\": \"beta\"}, \"_meta\": "
                + "{\"dev.mesh/request-id\": \"req-2\"}}}");
        Fixtures.Snapshot afterFirst = fixtures.snapshot();

        JsonNode error = assertToolError(send("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", "
                + "\"params\": {\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"gamma\"}, "
                + "\"_meta\": {\"dev.mesh/request-id\": \"req-2\"}}}"), "conflict");

        assertThat(error.path("message").asString()).isEqualTo("request id req-2 was used before for another call "
                + "(assign by tester); give every request its own id");
        assertThat(error.has("pointer")).isFalse();
        assertThat(fixtures.snapshot()).isEqualTo(afterFirst);
        before = null;
    }

    @Test
    void toolsCall_badArgument_isAToolErrorInvalidWithItsPointer() {
        JsonNode error = assertToolError(call("assign", "{\"module\": \"mesh-bus\"}"), "invalid");

        assertThat(error).isEqualTo(Fixtures.JSON.readTree("{\"code\": \"invalid\", \"message\": \"the argument "
                + "\\\"node\\\" is required: a non-empty string\", \"pointer\": \"/node\"}"));
    }

    @Test
    void toolsCall_badManifest_isAToolErrorInvalidPointingIntoIt() {
        JsonNode error = assertToolError(call("push", "{\"manifest\": {\"module\": \"Bad\", \"version\": \"1\"}}"),
                "invalid");

        assertThat(error.path("pointer").asString()).isEqualTo("/manifest/module");
        assertThat(error.path("message").asString()).startsWith("the manifest has ");
    }

    @Test
    void toolsCall_unknownNode_isAToolErrorNotFound() {
        JsonNode error = assertToolError(call("assign", "{\"module\": \"mesh-bus\", \"node\": \"delta\"}"),
                "not-found");

        assertThat(error.path("pointer").asString()).isEqualTo("/node");
    }

    @Test
    void toolsCall_unknownTool_isAToolErrorNotFound() {
        JsonNode error = assertToolError(call("frobnicate", "{}"), "not-found");

        assertThat(error.path("message").asString()).isEqualTo("there is no verb \"frobnicate\"; the verbs are "
                + "tools, status, nodes, node, modules, seats, builds, plan, assign, unassign, push, build");
    }

    @Test
    void toolsCall_seatConflict_isAToolErrorConflict() {
        ObjectNode copy = (ObjectNode) Fixtures.exampleManifests().stream()
                .filter(m -> m.path("module").asString().equals("mesh-store")).findFirst().orElseThrow();
        copy.put("module", "other-store");
        copy.put("slug", "other-store");
        ObjectNode args = Fixtures.JSON.createObjectNode();
        args.set("manifest", copy);
        fixtures.verbs.call("push", args);
        before = fixtures.snapshot();

        JsonNode error = assertToolError(call("assign", "{\"module\": \"other-store\", \"node\": \"beta\"}"),
                "conflict");

        assertThat(error.path("message").asString()).contains("mesh-store").contains("beta");
        assertThat(error.path("pointer").asString()).isEqualTo("/module");
    }

    @Test
    void toolsCall_principalWithoutTheGrant_isAToolErrorUnauthorized_andTheVerbDoesNotRun() {
        MemoryIdentity identity = new MemoryIdentity();
        identity.add("tester");
        identity.grant("tester", "status");

        JsonNode error = assertToolError(send(fixtures.dispatcher(identity), "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                + "\"method\": \"tools/call\", \"params\": {\"name\": \"assign\", \"arguments\": {\"module\": "
                + "\"mesh-bus\", \"node\": \"beta\"}}}"), "unauthorized");

        assertThat(error.path("message").asString()).isEqualTo("\"tester\" may not call assign; grant the verb to "
                + "this principal in the identity store, or call as one that has it");
    }

    @Test
    void toolsCall_identityStoreDown_isAToolErrorUnavailable() {
        Identity down = (principal, verb) -> {
            throw new VerbException(VerbException.Code.UNAVAILABLE, "the identity store does not answer; retry", "");
        };

        JsonNode error = assertToolError(send(fixtures.dispatcher(down), "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                + "\"method\": \"tools/call\", \"params\": {\"name\": \"status\"}}"), "unavailable");

        assertThat(error.path("message").asString()).isEqualTo("the identity store does not answer; retry");
    }

    // --- protocol errors

    @Test
    void malformedJson_isAParseError() {
        JsonNode response = send("{\"jsonrpc\": \"2.0\", \"id\": 1,");

        assertThat(response.path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(response.path("error").path("message").asString()).isEqualTo("parse error: the message ends "
                + "inside its JSON value, at line 1, column 28; send one whole JSON-RPC 2.0 object");
        assertThat(response.get("id").isNull()).isTrue();
    }

    @Test
    void emptyMessage_isAParseError() {
        assertError(send(""), id("null"), -32700, "parse error: the message is empty; send one JSON-RPC 2.0 object");
    }

    @Test
    void textAfterTheMessage_isAParseError() {
        assertThat(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"} {}").path("error").path("code")
                .asInt()).isEqualTo(-32700);
    }

    @Test
    void duplicateKey_isAParseError() {
        assertThat(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"method\": \"tools/list\"}")
                .path("error").path("code").asInt()).isEqualTo(-32700);
    }

    @Test
    void notAnObject_isAnInvalidRequest() {
        assertError(send("42"), id("null"), -32600, "invalid request: a message must be a JSON object, not number");
    }

    @Test
    void batch_isAnInvalidRequest() {
        assertError(send("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]"), id("null"), -32600,
                "invalid request: batches (JSON arrays) are not supported — MCP 2025-06-18 removed JSON-RPC "
                        + "batching; send one message per request");
    }

    @Test
    void wrongJsonrpcVersion_isAnInvalidRequest() {
        assertError(send("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}"), id("null"), -32600,
                "invalid request: \"jsonrpc\" must be \"2.0\", not \"1.0\"");
    }

    @Test
    void missingJsonrpc_isAnInvalidRequest() {
        assertError(send("{\"id\": 1, \"method\": \"ping\"}"), id("null"), -32600,
                "invalid request: \"jsonrpc\" must be \"2.0\", not missing");
    }

    @Test
    void idOfTheWrongType_isAnInvalidRequest() {
        for (String bad : new String[] {"true", "{}", "[1]", "null"}) {
            String kind = Fixtures.JSON.readTree(bad).getNodeType().name().toLowerCase(java.util.Locale.ROOT);
            assertError(send("{\"jsonrpc\": \"2.0\", \"id\": " + bad + ", \"method\": \"ping\"}"), id("null"),
                    -32600, "invalid request: \"id\" must be a string or a number, not " + kind);
        }
    }

    @Test
    void missingMethod_isAnInvalidRequest() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 5}"), id("5"), -32600,
                "invalid request: \"method\" is required: a string");
    }

    @Test
    void methodNotAString_isAnInvalidRequest() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": 12}"), id("5"), -32600,
                "invalid request: \"method\" is required: a string, not number");
    }

    @Test
    void unknownMethod_isMethodNotFound() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"method\": \"resources/list\"}"), id("\"x\""),
                -32601, "method not found: \"resources/list\"; the methods are initialize, ping, tools/list and "
                        + "tools/call");
    }

    @Test
    void paramsNotAnObject_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": [\"status\"]}"),
                id("1"), -32602, "invalid params: \"params\" of tools/call must be an object, not array");
    }

    @Test
    void toolsCallWithoutName_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"arguments\": "
                + "{}}}"), id("1"), -32602, "invalid params: tools/call needs \"name\", the verb to call, a string");
    }

    @Test
    void toolsCallWithANameNotAString_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": 3}}"),
                id("1"), -32602, "invalid params: tools/call needs \"name\", the verb to call, a string, not number");
    }

    @Test
    void toolsCallWithArgumentsNotAnObject_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
                + "\"assign\", \"arguments\": [\"mesh-bus\", \"beta\"]}}"), id("1"), -32602,
                "invalid params: \"arguments\" of tools/call must be an object, not array");
    }

    @Test
    void toolsCallWithARequestIdNotAString_isInvalidParams() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
                + "\"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"beta\"}, \"_meta\": "
                + "{\"dev.mesh/request-id\": 17}}}"), id("1"), -32602,
                "invalid params: _meta[\"dev.mesh/request-id\"] must be a string of 1 to 200 characters, not number");
    }

    @Test
    void messageOverOneMebibyte_isRefusedNamingTheLimit() {
        byte[] big = new byte[McpDispatcher.MAX_MESSAGE_BYTES + 1];
        Arrays.fill(big, (byte) ' ');

        JsonNode response = Fixtures.JSON.readTree(dispatcher.dispatch(big, Envelope.of("tester")).orElseThrow());

        assertError(response, id("null"), -32600, "invalid request: the message is 1048577 bytes; the limit is "
                + "1 MiB (1048576 bytes)");
    }

    @Test
    void unexpectedFailure_isAnInternalErrorWithAnIncidentId_andNoDetail() {
        Identity broken = (principal, verb) -> {
            throw new IllegalStateException("connection to jdbc:postgresql://db/identity password=hunter2 lost");
        };

        JsonNode response = send(fixtures.dispatcher(broken), "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": "
                + "\"tools/call\", \"params\": {\"name\": \"status\"}}");

        assertThat(response.path("id").asInt()).isEqualTo(9);
        assertThat(response.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(response.path("error").path("message").asString()).matches("internal error: the controller could "
                + "not answer; it logged this as incident [0-9a-f-]{36}");
        assertThat(response.toString()).doesNotContain("hunter2", "IllegalStateException", "at dev.mesh");
    }

    @Test
    void jsonNodeMessage_isDispatchedLikeBytes() {
        Optional<JsonNode> response = dispatcher.dispatch(Fixtures.JSON.readTree("{\"jsonrpc\": \"2.0\", \"id\": 1, "
                + "\"method\": \"ping\"}"), Envelope.of("tester"));

        assertThat(response).contains(Fixtures.JSON.readTree("{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}"));
    }
}
