package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** How the dispatcher reads a message's bytes: ids echoed as sent, UTF-8 only, every limit in our words. */
class McpDispatcherReadingTest {

    private final McpDispatcher dispatcher = new Fixtures().dispatcher(Identity.ANYONE);

    private JsonNode send(byte[] message) {
        return Fixtures.JSON.readTree(dispatcher.dispatch(message, Envelope.of("tester")).orElseThrow());
    }

    private JsonNode send(String message) {
        return send(message.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertError(JsonNode response, int code, String message) {
        assertThat(response.get("id").isNull()).as("the id of %s", response).isTrue();
        assertThat(response.path("error").path("code").asInt()).isEqualTo(code);
        assertThat(response.path("error").path("message").asString()).isEqualTo(message);
        assertThat(response.toString()).doesNotContain("StreamReadConstraints", "Jackson", "jackson", "JsonToken");
    }

    // --- ids

    @ParameterizedTest
    @ValueSource(strings = {"1e99999999", "-1e99999999", "1e309"})
    void idBeyondTheRangeOfANumber_isAnInvalidRequest(String id) {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \"ping\"}"), -32600,
                "invalid request: \"id\" is a number beyond the range of a double (about ±1.8e308), so it "
                        + "cannot be echoed as sent; use a string or an integer id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "-3", "0", "12345678901234567890123456789", "1.5", "\"7\"", "\"\"", "\"é\""})
    void idOfEachKind_isEchoedAsSent(String id) {
        JsonNode response = send("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \"ping\"}");

        assertThat(response.get("id")).isEqualTo(Fixtures.JSON.readTree(id));
        assertThat(response.get("id").getNodeType()).isEqualTo(Fixtures.JSON.readTree(id).getNodeType());
        assertThat(text(response.get("id"))).isEqualTo(id);
    }

    private static String text(JsonNode node) {
        return Fixtures.JSON.writeValueAsString(node);
    }

    // --- encoding

    @Test
    void utf16BigEndianBom_isAParseErrorSayingUtf8() {
        byte[] message = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}".getBytes(StandardCharsets.UTF_16BE);
        byte[] withBom = new byte[message.length + 2];
        withBom[0] = (byte) 0xFE;
        withBom[1] = (byte) 0xFF;
        System.arraycopy(message, 0, withBom, 2, message.length);

        assertError(send(withBom), -32700, "parse error: the message starts with FE FF, the byte order mark of "
                + "UTF-16 big-endian; the body must be UTF-8 JSON: send it encoded as UTF-8");
    }

    @Test
    void utf16LittleEndianBom_isAParseErrorSayingUtf8() {
        // The JDK's UTF_16LE writes no BOM; the message is the BOM and UTF-16LE text.
        byte[] message = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}".getBytes(StandardCharsets.UTF_16LE);
        byte[] withBom = new byte[message.length + 2];
        withBom[0] = (byte) 0xFF;
        withBom[1] = (byte) 0xFE;
        System.arraycopy(message, 0, withBom, 2, message.length);

        assertError(send(withBom), -32700, "parse error: the message starts with FF FE, the byte order mark of "
                + "UTF-16 little-endian; the body must be UTF-8 JSON: send it encoded as UTF-8");
    }

    @Test
    void utf16WithoutBom_isAParseErrorSayingUtf8() {
        byte[] message = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}".getBytes(StandardCharsets.UTF_16LE);

        assertThat(send(message).path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(send(message).path("error").path("message").asString()).endsWith("; send one JSON-RPC 2.0 "
                + "object, as UTF-8 JSON");
    }

    @Test
    void invalidUtf8_isAParseErrorNamingTheOffset() {
        byte[] message = "{\"jsonrpc\": \"2.0\", \"id\": \"caf\u00e9\", \"method\": \"ping\"}"
                .getBytes(StandardCharsets.ISO_8859_1);

        assertError(send(message), -32700, "parse error: the message is not UTF-8: the byte E9 at offset 29 "
                + "does not begin a UTF-8 character; the body must be UTF-8 JSON: send it encoded as UTF-8");
    }

    @Test
    void utf8Bom_isRead() {
        byte[] message = "\uFEFF{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}".getBytes(StandardCharsets.UTF_8);

        assertThat(send(message).path("result").isObject()).isTrue();
    }

    // --- the reader's limits and errors, in our words

    @Test
    void nestingDeeperThanTheLimit_isAParseErrorNamingIt() {
        String deep = "[".repeat(101) + "]".repeat(101);

        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"x\": " + deep + "}}"),
                -32700, "parse error: the message nests arrays and objects deeper than 100 levels, the limit; "
                        + "send a flatter message");
    }

    @Test
    void nestingAtTheLimit_isRead() {
        String deep = "[".repeat(97) + "]".repeat(97);

        JsonNode response = send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"x\": " + deep
                + "}}");

        assertThat(response.path("result").isObject()).isTrue();
    }

    @Test
    void numberLongerThanTheLimit_isAParseErrorNamingIt() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"x\": "
                + "9".repeat(1001) + "}}"), -32700, "parse error: a number in the message is longer than 1000 "
                + "characters, the limit; send such a value as a string");
    }

    @Test
    void stringLongerThanTheLimit_isAParseErrorNamingIt() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\"x\": \""
                + "a".repeat(524_289) + "\"}}"), -32700, "parse error: a string in the message is longer than "
                + "524288 characters, the limit; send smaller values");
    }

    @Test
    void keyLongerThanTheLimit_isAParseErrorNamingIt() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": {\""
                + "k".repeat(1001) + "\": 1}}"), -32700, "parse error: a key in the message is longer than 1000 "
                + "characters, the limit; use shorter keys");
    }

    @Test
    void malformedJson_isAParseErrorWithItsPlace() {
        assertError(send("{\"jsonrpc\": \"2.0\",\n \"id\": x}"), -32700, "parse error: the message is not valid "
                + "JSON at line 2, column 8; send one JSON-RPC 2.0 object, as UTF-8 JSON");
    }

    @Test
    void truncatedJson_isAParseErrorSayingItEnds() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1,"), -32700, "parse error: the message ends inside its "
                + "JSON value, at line 1, column 28; send one whole JSON-RPC 2.0 object");
    }

    @Test
    void duplicateKey_isAParseErrorNamingTheKey() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"method\": \"x\"}"), -32700,
                "parse error: the key \"method\" appears twice in one object, at line 1, column 55; send each key "
                        + "once");
    }

    @Test
    void valueAfterTheMessage_isAParseError() {
        assertError(send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"} {}"), -32700, "parse error: "
                + "there is more after the message's JSON value, at line 1, column 47; send one JSON-RPC 2.0 object "
                + "per message");
    }
}
