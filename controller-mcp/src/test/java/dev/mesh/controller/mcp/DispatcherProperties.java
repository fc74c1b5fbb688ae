package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.core.Identity;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import tools.jackson.databind.JsonNode;

/**
 * {@link McpDispatcher} over arbitrary bytes, near-miss messages and bytes after a UTF-16 byte
 * order mark: it answers with a JSON-RPC response or none, never throws, never answers with an
 * internal error or Jackson's words.
 */
class DispatcherProperties {

    private final Fixtures fixtures = new Fixtures();
    private final McpDispatcher dispatcher = fixtures.dispatcher(Identity.ANYONE);

    @Test
    void anyBytes_giveAJsonRpcResponseOrNone_neverAnException() {
        qt().withExamples(500).forAll(bytes())
                .checkAssert(message -> assertAnswered(dispatcher.dispatch(message, Envelope.of("fuzz"))));
    }

    @Test
    void anyMessageShapedText_givesAJsonRpcResponseOrNone_neverAnException() {
        qt().withExamples(500).forAll(messages()).checkAssert(message -> assertAnswered(
                dispatcher.dispatch(message.getBytes(StandardCharsets.UTF_8), Envelope.of("fuzz"))));
    }

    @Test
    void anyBytesAfterAUtf16ByteOrderMark_areAParseErrorSayingUtf8() {
        qt().withExamples(200).forAll(bytes(), booleans().all()).checkAssert((rest, bigEndian) -> {
            byte[] message = new byte[rest.length + 2];
            message[0] = (byte) (bigEndian ? 0xFE : 0xFF);
            message[1] = (byte) (bigEndian ? 0xFF : 0xFE);
            System.arraycopy(rest, 0, message, 2, rest.length);

            JsonNode json = Fixtures.JSON.readTree(dispatcher.dispatch(message, Envelope.of("fuzz")).orElseThrow());

            assertThat(json.path("error").path("code").asInt()).isEqualTo(-32700);
            assertThat(json.path("error").path("message").asString()).contains("the body must be UTF-8 JSON");
        });
    }

    /** @return 0 to 255 bytes of any value; shrinks toward fewer bytes, and zeros */
    private static Gen<byte[]> bytes() {
        return Generate.byteArrays(integers().between(0, 255), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .describedAs(Arrays::toString);
    }

    /** @return near-misses of real messages: valid parts recombined with wrong kinds of values */
    private static Gen<String> messages() {
        Gen<String> values = arbitrary().pick("1", "\"x\"", "null", "true", "{}", "[]", "1.5", "-0",
                "1e99999999", "-1e400", "1e-400", "123456789012345678901234567890", "[[[[[[[[[[[[1]]]]]]]]]]]]",
                "{\"name\": \"status\"}", "{\"name\": \"assign\", \"arguments\": {\"module\": 1}}",
                "{\"name\": \"push\", \"arguments\": {\"manifest\": {\"module\": \"a\"}}}",
                "{\"name\": \"node\", \"arguments\": []}", "{\"_meta\": {\"dev.mesh/request-id\": []}}");
        Gen<String> keys = arbitrary().pick("jsonrpc", "id", "method", "params", "result", "error");
        Gen<String> methods = arbitrary().pick("\"initialize\"", "\"ping\"", "\"tools/list\"",
                "\"tools/call\"", "\"notifications/initialized\"", "\"2.0\"");
        Gen<String> member = keys.zip(Generate.oneOf(values, methods), (k, v) -> "\"" + k + "\": " + v);
        return lists().of(member).ofSizeBetween(0, 5).map(members -> "{" + String.join(", ", members) + "}");
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
