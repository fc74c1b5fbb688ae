package dev.mesh.controller.cli;

import dev.mesh.controller.core.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * The controller's bundle archive ({@code mesh-controller.tar.gz}) as {@code genesis} copies it: its
 * SHA-256 computed while it is copied, and checked against a {@code sha256sum} file beside the source
 * ({@code ARCHIVE.sha256}) when there is one. Stateless and thread-safe.
 */
final class BundleArchive {

    /** The archive's name in the bundle's build and in a genesis directory. */
    static final String NAME = "mesh-controller.tar.gz";
    /** The suffix of the digest file beside an archive, as {@code sha256sum ARCHIVE > ARCHIVE.sha256} makes it. */
    static final String DIGEST_SUFFIX = ".sha256";

    private BundleArchive() {
    }

    /** What was copied: the archive's SHA-256 in lower-case hex and its size. */
    record Copied(String sha256, long bytes) {
    }

    /**
     * Copies the archive and computes its digest; when {@code ARCHIVE.sha256} is beside it, the copy
     * must match it.
     *
     * @param source the archive
     * @param target where the copy goes (must not exist)
     * @return the digest and size of what was copied
     * @throws CommandException when the source cannot be read, the target cannot be written, or the
     *     digest file beside the source is malformed or names another digest
     */
    static Copied copy(Path source, Path target) {
        MessageDigest sha = CanonicalJson.sha256();
        long bytes;
        try (InputStream in = new DigestInputStream(Files.newInputStream(source), sha);
                OutputStream out = Files.newOutputStream(target)) {
            bytes = in.transferTo(out);
        } catch (IOException e) {
            throw new CommandException("cannot copy the bundle archive " + source + " to " + target + ": " + e
                    + "; check that the archive is readable and the output directory writable", e);
        }
        String hex = HexFormat.of().formatHex(sha.digest());
        expected(source).ifPresent(expected -> {
            if (!expected.equals(hex)) {
                throw new CommandException("the bundle archive " + source + " does not match its digest file "
                        + source + DIGEST_SUFFIX + " (the file says sha256 " + expected + ", the archive's is " + hex
                        + "): the archive is damaged or is not the one the digest was made for; build it again, or "
                        + "pass the right archive with --bundle");
            }
        });
        return new Copied(hex, bytes);
    }

    /** @return the {@code sha256sum} line for the archive named {@link #NAME} with this digest */
    static byte[] digestLine(String sha256) {
        return (sha256 + "  " + NAME + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The digest {@code ARCHIVE.sha256} names, when that file exists: its first word, 64 hex digits. */
    private static Optional<String> expected(Path source) {
        Path file = source.resolveSibling(source.getFileName() + DIGEST_SUFFIX);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new CommandException("cannot read the digest file " + file + " beside the bundle archive: " + e
                    + "; make it readable, or remove it to copy the archive unchecked", e);
        }
        String first = text.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
        if (!first.matches("[0-9a-f]{64}")) {
            throw new CommandException("the digest file " + file + " does not start with a SHA-256 in hex; write it "
                    + "with sha256sum " + source.getFileName() + " > " + file.getFileName() + ", or remove it");
        }
        return Optional.of(first);
    }
}
