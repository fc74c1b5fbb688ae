package dev.mesh.controller.bus;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a message body as docs/design.md section 8 has every body: UTF-8 JSON, one value. Says what is
 * wrong without quoting the body (Jackson's messages do, and bodies are not to be logged).
 *
 * <p>Stateless; thread-safe.
 */
final class Bodies {

    /** What a body is: its JSON, or why it cannot be read. */
    sealed interface Body {

        /** @param tree the body's JSON value */
        record Json(JsonNode tree) implements Body {
        }

        /** @param problem e.g. {@code the body is not UTF-8} */
        record Unreadable(String problem) implements Body {
        }
    }

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private Bodies() {
    }

    /**
     * @param body a message's body
     * @return its JSON, or why it is not UTF-8 JSON; never throws
     */
    static Body read(byte[] body) {
        String text;
        try {
            // Strictly UTF-8: Jackson alone would also take UTF-16 and UTF-32, which the contract does not.
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return new Body.Unreadable("the body is not UTF-8");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JacksonException e) {
            return new Body.Unreadable("the body is not JSON");
        }
        if (tree == null || tree.isMissingNode()) {
            return new Body.Unreadable("the body is empty");
        }
        return new Body.Json(tree);
    }
}
