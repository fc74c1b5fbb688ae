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
        assertAnswered(dispatcher.dispatch(message, Envelope.of("fuzz")));
    }

    @Property(tries = 500)
    void anyMessageShapedText_givesAJsonRpcResponseOrNone_neverAnException(@ForAll("messages") String message) {
        assertAnswered(dispatcher.dispatch(message.getBytes(StandardCharsets.UTF_8), Envelope.of("fuzz")));
    }

    @Property(tries = 200)
    void anyBytesAfterAUtf16ByteOrderMark_areAParseErrorSayingUtf8(@ForAll byte[] rest, @ForAll boolean bigEndian) {
        byte[] message = new byte[rest.length + 2];
        message[0] = (byte) (bigEndian ? 0xFE : 0xFF);
        message[1] = (byte) (bigEndian ? 0xFF : 0xFE);
        System.arraycopy(rest, 0, message, 2, rest.length);

        JsonNode json = Fixtures.JSON.readTree(dispatcher.dispatch(message, Envelope.of("fuzz")).orElseThrow());

        assertThat(json.path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(json.path("error").path("message").asString()).contains("the body must be UTF-8 JSON");
    }

    /** Near-misses of real messages: valid parts recombined with wrong kinds of values. */
    @Provide
    Arbitrary<String> messages() {
        Arbitrary<String> values = Arbitraries.of("1", "\"x\"", "null", "true", "{}", "[]", "1.5", "-0",
                "1e99999999", "-1e400", "1e-400", "123456789012345678901234567890", "[[[[[[[[[[[[1]]]]]]]]]]]]",
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
            JsonNode id = json.get("id");
            assertThat(id.isNull() || id.isString() || id.isIntegralNumber()
                    || id.isFloatingPointNumber() && Double.isFinite(id.asDouble())).as("the id %s", id).isTrue();
            assertThat(json.has("result") != json.has("error")).isTrue();
            if (json.has("error")) {
                assertThat(json.path("error").path("code").asInt()).isNotEqualTo(-32603);
                assertThat(json.path("error").path("message").asString())
                        .doesNotContain("Jackson", "jackson", "StreamReadConstraints", "REDACTED", "JsonToken");
            }
        });
    }
}
