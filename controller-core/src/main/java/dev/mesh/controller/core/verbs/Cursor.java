package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.VerbException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cursor of the {@code nodes} verb's pages: what its answer gives as {@code next} and its argument
 * {@code after} takes back. Opaque to callers — today the base64url text, without padding, of
 * {@code after:} and the last node name of the page — so that its form may change without the verb's;
 * printable as it is on a command line. A cursor names a position, not a node: it keeps working after
 * its node is removed, the next page being the nodes named after that name (keyset paging).
 *
 * <p>Stateless; thread-safe.
 */
final class Cursor {

    private static final String PREFIX = "after:";
    /** How much of a bad cursor its error quotes. */
    private static final int QUOTED = 100;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Cursor() {
    }

    /**
     * @param name the last node name of a page
     * @return the cursor of the page after it
     */
    static String after(String name) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((PREFIX + name).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param cursor what a caller gave as {@code after}
     * @param argument the argument's name, which the error names and points at
     * @return the node name the page starts after
     * @throws VerbException {@code invalid}, at the argument's pointer, when {@code cursor} is not one
     *     {@link #after} made
     */
    static String name(String cursor, String argument) {
        String text = decoded(cursor);
        if (text == null || !text.startsWith(PREFIX) || text.length() == PREFIX.length()) {
            String quoted = cursor.codePointCount(0, cursor.length()) <= QUOTED ? cursor
                    : cursor.substring(0, cursor.offsetByCodePoints(0, QUOTED)) + "…";
            throw new VerbException(VerbException.Code.INVALID, "the cursor " + MAPPER.writeValueAsString(quoted)
                    + " given as " + argument + " is not one a nodes answer gave as next; pass next as it came, or "
                    + "leave " + argument + " out to start at the first node", "/" + argument);
        }
        return text.substring(PREFIX.length());
    }

    /** @return the UTF-8 text of the cursor's bytes, or {@code null} when it is not base64url of UTF-8 */
    private static String decoded(String cursor) {
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(cursor);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
    }
}
