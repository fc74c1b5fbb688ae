package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The secret every HTTP request carries ({@code Authorization: Bearer <token>}), and the file that
 * holds it: {@code <state>/token}, mode 0600, created with that mode so it is never readable by
 * anyone else, even for a moment. Its {@link #toString()} is {@code ***}.
 *
 * <p>Immutable and thread-safe.
 */
public final class BearerToken {

    /** The token file's name in the state directory. */
    public static final String FILE_NAME = "token";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private final Secret value;

    private BearerToken(String value) {
        if (value.isEmpty() || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("a bearer token is one or more visible ASCII characters");
        }
        this.value = Secret.of(value);
    }

    /**
     * @param value the token as sent
     * @return it
     * @throws IllegalArgumentException when it is empty or has other than visible ASCII characters
     */
    public static BearerToken of(String value) {
        return new BearerToken(Objects.requireNonNull(value, "value"));
    }

    /** @return a new token: 32 random bytes, base64url */
    public static BearerToken random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return new BearerToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /**
     * @param stateDirectory the controller's state directory
     * @return the token of {@code <stateDirectory>/token}, written anew ({@link #create}) when there is none
     * @throws McpException as {@link #read(Path)} and {@link #create} do
     */
    public static BearerToken readOrCreate(Path stateDirectory) {
        return Files.exists(stateDirectory.resolve(FILE_NAME)) ? read(stateDirectory) : create(stateDirectory);
    }

    /**
     * Writes a new random token to {@code <stateDirectory>/token}, replacing any there: written to
     * a temporary file created with mode 0600, then moved over the old one atomically. Creates the
     * state directory (mode 0700) when it is missing.
     *
     * @param stateDirectory the controller's state directory
     * @return the token written
     * @throws McpException ({@link McpException.Kind#SETUP}) when the file cannot be written
     */
    public static BearerToken create(Path stateDirectory) {
        Path file = stateDirectory.resolve(FILE_NAME);
        BearerToken token = random();
        Path temporary = stateDirectory.resolve(FILE_NAME + ".new");
        try {
            if (!Files.isDirectory(stateDirectory)) {
                Files.createDirectories(stateDirectory, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
            }
            Files.deleteIfExists(temporary);
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.write(temporary, token.value.reveal().getBytes(StandardCharsets.US_ASCII));
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return token;
        } catch (FileAlreadyExistsException e) {
            throw McpException.setup("cannot write the token file " + file + ": " + temporary + " appeared while "
                    + "it was written; is another controller starting in " + stateDirectory + "?", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw McpException.setup("cannot write the token file " + file + " (" + e + "); the state directory "
                    + "must be writable by this user on a POSIX file system", e);
        }
    }

    /** What is wrong with a token file; the caller says how to fix each in its own terms. */
    public enum FileProblem {
        /** There is no such file. */
        MISSING,
        /** Group or others may read or write it. */
        SHARED,
        /** It holds no token: empty, or other than visible ASCII characters. */
        NOT_A_TOKEN,
        /** It cannot be read (the reason is in the message). */
        UNREADABLE
    }

    /**
     * Reads the token of {@code <stateDirectory>/token}, refusing a file that others may read: what
     * the controller does on start.
     *
     * @param stateDirectory the controller's state directory
     * @return the token
     * @throws McpException ({@link McpException.Kind#SETUP}) when the file is missing, unreadable,
     *     empty, or readable or writable by group or others
     */
    public static BearerToken read(Path stateDirectory) {
        Path file = stateDirectory.resolve(FILE_NAME);
        return read(file, file.toString(), problem -> switch (problem) {
            case MISSING -> "is the controller running with the state directory " + stateDirectory + "?";
            case SHARED -> "run chmod 600 " + file + ", or delete it and restart the controller for a new one";
            case NOT_A_TOKEN -> "delete it and restart the controller for a new one";
            case UNREADABLE -> "";
        });
    }

    /**
     * Reads a token file at any path, refusing one that group or others may read or write (on a
     * file system without POSIX modes there is no mode to check). The one reading of a token file,
     * for the controller and its clients alike. Messages read {@code the token file SOURCE WHAT;
     * FIX}.
     *
     * @param file the token file
     * @param source how messages name the file: its path, and where that path came from
     * @param fix the fix to say for each problem; {@code ""} for none
     * @return the token
     * @throws McpException ({@link McpException.Kind#SETUP}) when the file is missing, unreadable,
     *     holds no token, or may be read by others
     */
    public static BearerToken read(Path file, String source, Function<FileProblem, String> fix) {
        try {
            try {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
                if (!OWNER_ONLY.containsAll(mode)) {
                    throw refused(source, "has mode " + PosixFilePermissions.toString(mode) + ", so others may read it",
                            fix.apply(FileProblem.SHARED), null);
                }
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: there is no mode to check.
            }
            String value = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (value.isEmpty() || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw refused(source, "does not hold a token (visible ASCII characters)",
                        fix.apply(FileProblem.NOT_A_TOKEN), null);
            }
            return new BearerToken(value);
        } catch (NoSuchFileException e) {
            throw refused(source, "does not exist", fix.apply(FileProblem.MISSING), e);
        } catch (IOException e) {
            throw refused(source, "cannot be read (" + e + ")", fix.apply(FileProblem.UNREADABLE), e);
        }
    }

    private static McpException refused(String source, String what, String fix, Throwable cause) {
        return McpException.setup("the token file " + source + " " + what + (fix.isEmpty() ? "" : "; " + fix), cause);
    }

    /**
     * @param candidate a token as received
     * @return whether it is this token, compared in time that does not depend on where they differ
     */
    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(value.reveal().getBytes(StandardCharsets.US_ASCII),
                candidate.getBytes(StandardCharsets.US_ASCII));
    }

    /** @return the {@code Authorization} header's value: {@code Bearer <token>} */
    public String header() {
        return "Bearer " + value.reveal();
    }

    /** @return {@code ***}: the token never reaches a log */
    @Override
    public String toString() {
        return "***";
    }
}
