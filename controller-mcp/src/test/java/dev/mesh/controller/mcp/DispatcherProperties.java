package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.JsonNode;

class DispatcherProperties {

    private final Fixtures fixtures = new Fixtures();
    private final McpDispatcher dispatcher = fixtures.dispatcher(Identity.ANYONE);

    @Property(tries = 500)
    void anyBytes_giveAJsonRpcResponseOrNone_neverAnException(@ForAll byte[] message) {
        assertAnswered(dispatcher.dispatch(message, "fuzz"));
    }

    @Property(tries = 500)
    void anyMessageShapedText_givesAJsonRpcResponseOrNone_neverAnException(@ForAll("messages") String message) {
        assertAnswered(dispatcher.dispatch(message.getBytes(StandardCharsets.UTF_8), "fuzz"));
    }

    /** Near-misses of real messages: valid parts recombined with wrong kinds of values. */
    @Provide
    Arbitrary<String> messages() {
        Arbitrary<String> values = Arbitraries.of("1", "\"x\"", "null", "true", "{}", "[]", "1.5", "-0",
                "{\"name\": \"status\"}", "{\"name\": \"assign\", \"arguments\": {\"module\": 1}}",
                "{\"name\": \"push\", \"arguments\": {\"manifest\": {\"module\": \"a\"}}}",
                "{\"name\": \"node\", \"arguments\": []}", "{\"_meta\": {\"dev.mesh/request-id\": []}}");
        Arbitrary<String> keys = Arbitraries.of("jsonrpc", "id", "method", "params", "result", "error");
        Arbitrary<String> methods = Arbitraries.of("\"initialize\"", "\"ping\"", "\"tools/list\"",
                "\"tools/call\"", "\"notifications/initialized\"", "\"2.0\"");
        Arbitrary<String> member = Arbitraries.oneOf(
                keys.flatMap(k -> Arbitraries.oneOf(values, methods).map(v -> "\"" + k + "\": " + v)));
        return member.list().ofMaxSize(5).map(members -> "{" + String.join(", ", members) + "}");
    }

    private static void assertAnswered(Optional<byte[]> response) {
        response.ifPresent(bytes -> {
            JsonNode json = Fixtures.JSON.readTree(bytes);
            assertThat(json.path("jsonrpc").asString()).isEqualTo("2.0");
            assertThat(json.has("id")).isTrue();
            assertThat(json.has("result") != json.has("error")).isTrue();
            if (json.has("error")) {
                assertThat(json.path("error").path("code").asInt()).isNotEqualTo(-32603);
            }
        });
    }
}
