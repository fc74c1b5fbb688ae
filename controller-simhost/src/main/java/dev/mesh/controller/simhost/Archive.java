package dev.mesh.controller.simhost;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a builder made for one order, as its report names it: the archive's SHA-256 and where a host
 * gets it (a URI).
 *
 * @param sha256 the lower-case hex SHA-256 of the archive, 64 digits
 * @param location where a host gets it, e.g. {@code file:///var/lib/lab/builds/mesh-controller-2.tar.gz}
 */
public record Archive(String sha256, String location) {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the digest is not 64 lower-case hex digits or the location is empty
     */
    public Archive {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(location, "location");
        if (!SHA256.matcher(sha256).matches()) {
            throw new IllegalArgumentException("an archive's sha256 is 64 lower-case hex digits, not \"" + sha256 + "\"");
        }
        if (location.isBlank()) {
            throw new IllegalArgumentException("an archive's location is a URI, not empty");
        }
    }

    /**
     * @param build the build's id
     * @return the archive a simulated build "makes": the digest of its id, at a location no host fetches
     */
    public static Archive simulated(String build) {
        return new Archive(sha256(build.getBytes(StandardCharsets.UTF_8)), "urn:mesh-simhost:" + build);
    }

    /** @return the lower-case hex SHA-256 of {@code bytes} */
    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /**
     * @param file a file, read as a stream: a bundle archive is some 70 MB
     * @return the lower-case hex SHA-256 of its bytes
     * @throws IOException when it cannot be read
     */
    static String sha256(Path file) throws IOException {
        MessageDigest digest = digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
