package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's archive unpacked by the store itself, named as the library names what its resolver gives it. */
class ServerArchiveTest {

    @TempDir
    Path binaries;

    /** The library runs the server from {@code PG-<MD5 of what the resolver gives>}: the directory unpacked. */
    @Test
    void directoryName_isTheLibrarysNameForWhatTheResolverGives() throws Exception {
        ServerArchive archive = ServerArchive.onClassPath();
        byte[] given;
        try (InputStream in = archive.resolver().getPgBinary("Linux", "x86_64")) {
            given = in.readAllBytes();
        }

        assertThat(given.length).as("the identity, not the 14 MB archive").isLessThan(200);
        assertThat(new String(given, java.nio.charset.StandardCharsets.UTF_8))
                .matches("postgres-linux-x86_64\\.txz size=\\d+ crc32=[0-9a-f]+");
        assertThat(archive.directoryName())
                .isEqualTo("PG-" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(given)));
    }

    @Test
    void unpacked_unpacksTheServerOnce_completeAsTheLibraryJudgesIt() throws IOException {
        ServerArchive archive = ServerArchive.onClassPath();

        Path server = archive.unpacked(binaries);

        assertThat(server).isEqualTo(binaries.resolve(archive.directoryName()));
        assertThat(server.resolve("bin/postgres")).isExecutable();
        assertThat(server.resolve("bin/initdb")).isExecutable();
        assertThat(server.resolve("share/postgresql/postgres.bki")).isRegularFile().isNotEmptyFile();
        assertThat(Files.isSymbolicLink(server.resolve("lib/libpq.so"))).isTrue();
        assertThat(server.resolve("lib/libpq.so")).as("a link to a file beside it").isRegularFile();
        long marked = Files.getLastModifiedTime(server.resolve(ServerArchive.MARKER)).toMillis();
        try (var entries = Files.list(server)) {
            assertThat(entries.filter(entry -> !entry.endsWith(ServerArchive.MARKER)).toList()).isNotEmpty()
                    .allSatisfy(entry -> assertThat(Files.getLastModifiedTime(entry).toMillis()).isLessThanOrEqualTo(marked));
        }
        assertThat(binaries.resolve(archive.directoryName() + ".unpacking")).doesNotExist();

        long unpackedAt = Files.getLastModifiedTime(server.resolve("bin/postgres")).toMillis();
        assertThat(archive.unpacked(binaries)).isEqualTo(server);
        assertThat(Files.getLastModifiedTime(server.resolve("bin/postgres")).toMillis())
                .as("found, not unpacked again").isEqualTo(unpackedAt);
    }

    /** A start killed while unpacking leaves a half directory, or one without its marker: the next one redoes it. */
    @Test
    void unpacked_redoesADirectoryLeftIncomplete() throws IOException {
        ServerArchive archive = ServerArchive.onClassPath();
        Path half = Files.createDirectories(binaries.resolve(archive.directoryName() + ".unpacking/bin"));
        Files.writeString(half.resolve("postgres"), "half");
        Path unmarked = Files.createDirectories(binaries.resolve(archive.directoryName()).resolve("bin"));
        Files.writeString(unmarked.resolve("postgres"), "not marked");

        Path server = archive.unpacked(binaries);

        assertThat(server.resolve("bin/postgres")).isExecutable().content().isNotEqualTo("not marked");
        assertThat(server.resolve(ServerArchive.MARKER)).isRegularFile();
        assertThat(binaries.resolve(archive.directoryName() + ".unpacking")).doesNotExist();
    }

    /** Two starts at once in one process: one unpacks, the other waits and finds it. */
    @Test
    void unpacked_byTwoThreadsAtOnce_unpacksOnce() throws Exception {
        ServerArchive archive = ServerArchive.onClassPath();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Callable<Path> unpack = () -> archive.unpacked(binaries);
            List<Future<Path>> both = threads.invokeAll(List.of(unpack, unpack));

            assertThat(both.get(0).get()).isEqualTo(both.get(1).get());
            assertThat(both.get(0).get().resolve("bin/postgres")).isExecutable();
        } finally {
            threads.shutdownNow();
        }
    }
}
