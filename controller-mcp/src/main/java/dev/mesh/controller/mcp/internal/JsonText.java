package dev.mesh.controller.mcp.internal;

import dev.mesh.controller.mcp.McpException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One received message's bytes into a JSON value: UTF-8 only (decoded here, so the reader never guesses
 * another encoding), within the limits below, set here explicitly rather than left to Jackson's
 * defaults, and every failure told in our words — nothing of Jackson's messages reaches a client.
 * Stateless and thread-safe.
 */
final class JsonText {

    /** The deepest nesting of arrays and objects read. */
    static final int MAX_DEPTH = 100;
    /** The longest number read, in characters. */
    static final int MAX_NUMBER_LENGTH = 1000;
    /** The longest string read, in characters: half the largest message. */
    static final int MAX_STRING_LENGTH = 512 * 1024;
    /** The longest key read, in characters. */
    static final int MAX_KEY_LENGTH = 1000;

    private static final String FIX_ENCODING = "the body must be UTF-8 JSON: send it encoded as UTF-8";
    private static final String DUPLICATE = "Duplicate Object property \"";
    private static final String TRAILING = "Trailing token";
    private static final String END_OF_INPUT = "Unexpected end-of-input";

    /** Strict: a duplicate key or anything after the value is an error. */
    private static final JsonMapper READER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(MAX_NUMBER_LENGTH)
                            .maxStringLength(MAX_STRING_LENGTH)
                            .maxNameLength(MAX_KEY_LENGTH)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonText() {
    }

    /**
     * @param bytes one message as received
     * @return its JSON value; a missing node when there is nothing but white space
     * @throws McpException a parse error ({@code -32700}) when the bytes are not UTF-8 or not one JSON
     *     value within the limits, saying which and how to fix it
     */
    static JsonNode parse(byte[] bytes) {
        String text = decode(bytes);
        try {
            return READER.readTree(text);
        } catch (StreamConstraintsException e) {
            throw parseError(limit(e.getOriginalMessage()));
        } catch (JacksonException e) {
            throw parseError(malformed(e));
        }
    }

    private static String decode(byte[] bytes) {
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
            throw parseError("the message starts with FE FF, the byte order mark of UTF-16 big-endian; "
                    + FIX_ENCODING);
        }
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
            throw parseError("the message starts with FF FE, the byte order mark of UTF-16 little-endian; "
                    + FIX_ENCODING);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        // A UTF-8 byte is at most one char: the buffer is large enough for any valid message.
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int offset = in.position();
            throw parseError("the message is not UTF-8: the byte " + HexFormat.of().withUpperCase()
                    .toHexDigits(bytes[offset]) + " at offset " + offset + " does not begin a UTF-8 character; "
                    + FIX_ENCODING);
        }
        out.flip();
        // RFC 8259 lets a reader ignore a UTF-8 byte order mark; a reader of text would not skip it.
        if (out.hasRemaining() && out.charAt(0) == '\uFEFF') {
            out.get();
        }
        return out.toString();
    }

    /** Which limit, from the one part of Jackson's message that names it; the text is never passed on. */
    private static String limit(String original) {
        String jackson = original == null ? "" : original;
        if (jackson.startsWith("Document nesting depth")) {
            return "the message nests arrays and objects deeper than " + MAX_DEPTH + " levels, the limit; send a "
                    + "flatter message";
        }
        if (jackson.startsWith("Number value length")) {
            return "a number in the message is longer than " + MAX_NUMBER_LENGTH + " characters, the limit; send "
                    + "such a value as a string";
        }
        if (jackson.startsWith("String value length")) {
            return "a string in the message is longer than " + MAX_STRING_LENGTH + " characters, the limit; send "
                    + "smaller values";
        }
        if (jackson.startsWith("Name length")) {
            return "a key in the message is longer than " + MAX_KEY_LENGTH + " characters, the limit; use shorter "
                    + "keys";
        }
        return "the message exceeds a limit of the reader (nesting " + MAX_DEPTH + " levels; numbers "
                + MAX_NUMBER_LENGTH + ", strings " + MAX_STRING_LENGTH + " and keys " + MAX_KEY_LENGTH
                + " characters); send a smaller message";
    }

    private static String malformed(JacksonException e) {
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        String at = at(e.getLocation());
        if (original.startsWith(DUPLICATE) && original.endsWith("\"")) {
            String key = original.substring(DUPLICATE.length(), original.length() - 1);
            return "the key " + quoted(key) + " appears twice in one object," + at + "; send each key once";
        }
        if (original.startsWith(TRAILING)) {
            return "there is more after the message's JSON value," + at + "; send one JSON-RPC 2.0 object per "
                    + "message";
        }
        if (e instanceof UnexpectedEndOfInputException || original.startsWith(END_OF_INPUT)) {
            return "the message ends inside its JSON value," + at + "; send one whole JSON-RPC 2.0 object";
        }
        return "the message is not valid JSON" + at + "; send one JSON-RPC 2.0 object, as UTF-8 JSON";
    }

    private static String at(TokenStreamLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String quoted(String key) {
        return "\"" + (key.length() > 100 ? key.substring(0, 100) + "…" : key) + "\"";
    }

    private static McpException parseError(String problem) {
        return McpException.protocol(JsonRpc.PARSE_ERROR, "parse error: " + problem);
    }
}
