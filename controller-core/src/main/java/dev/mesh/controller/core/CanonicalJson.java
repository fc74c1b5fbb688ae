package dev.mesh.controller.core;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Canonical JSON: keys sorted at every level, lists in the order the values give them, no
 * insignificant whitespace. Equal values give equal bytes, so digests of them are stable.
 *
 * <p>Thread-safe.
 */
public final class CanonicalJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            // Record components are creator properties, which Jackson otherwise writes first, unsorted.
            .disable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private CanonicalJson() {
    }

    /**
     * @param value a record, list, map or scalar
     * @return its canonical UTF-8 bytes
     */
    public static byte[] bytes(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    /**
     * @param value a record, list, map or scalar
     * @return {@code sha256:} and the lower-case hex digest of its canonical bytes
     */
    public static String digest(Object value) {
        MessageDigest sha = sha256();
        // Hashing the bytes as Jackson flushes them saves making a copy of the whole text.
        MAPPER.writeValue(new DigestOutputStream(OutputStream.nullOutputStream(), sha), value);
        return hex(sha.digest());
    }

    /**
     * A generator writing JSON as {@link #bytes} does, for writers that put the keys in sorted
     * order themselves ({@code DeclarationJson}, {@code MeshDigest}); closing it closes {@code out}.
     */
    public static JsonGenerator generator(OutputStream out) {
        return MAPPER.createGenerator(out);
    }

    /** @return the canonical text of {@code value} */
    public static String text(Object value) {
        return new String(bytes(value), StandardCharsets.UTF_8);
    }

    /** @return a new SHA-256 digest */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    /**
     * @param digest a SHA-256 digest
     * @return {@code sha256:} and the lower-case hex of {@code digest}, as revisions and digests are written
     */
    public static String hex(byte[] digest) {
        return "sha256:" + HexFormat.of().formatHex(digest);
    }
}
