package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A verb called over the broker, as the mesh's callers call it: one JSON-RPC {@code tools/call}, its answer. */
final class BrokerCalls {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private BrokerCalls() {
    }

    /** @return the JSON-RPC {@code result} of the call, a tool error included */
    static JsonNode result(BrokerUpstream caller, String verb, Map<String, Object> arguments) {
        Map<String, Object> request = Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call", "params",
                Map.of("name", verb, "arguments", arguments));
        return caller.exchange(JSON.valueToTree(request)).orElseThrow().path("result");
    }

    /** @return the call's {@code structuredContent}, after asserting that it is no tool error */
    static JsonNode succeeded(BrokerUpstream caller, String verb, Map<String, Object> arguments) {
        JsonNode result = result(caller, verb, arguments);
        assertThat(result.path("isError").asBoolean()).as(verb + ": " + result).isFalse();
        return result.path("structuredContent");
    }
}
