package dev.mesh.controller.store;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A data directory as {@code initdb} made it, kept beside the unpacked server that made it
 * ({@code PG-<id>.initdb-template}, outside the server's directory, whose contents the library's marker must be
 * newer than) when the server is shared by several state directories, and copied into a
 * fresh state directory instead of running {@code initdb} again (1.2–1.5 s of a fresh start; docs/store.md). The
 * copy is then a state directory's own like any other: its start writes its own {@code pg_hba.conf} and sets its
 * own superuser's password, as after {@code initdb}.
 *
 * <p>The template is made from the first fresh start's data directory right after {@code initdb}, before
 * anything of that state directory's is written into it, through a temporary directory and a rename, so that a
 * reader never finds half of one; two starts making it at once keep the first. It belongs to its server (a data
 * directory belongs to the major version that made it), and is copied through a temporary directory too.
 */
final class DataTemplate {

    /** Its directory's name after the server's: {@code PG-<id>.initdb-template}. */
    static final String SUFFIX = ".initdb-template";
    /** The library's lock file in a data directory: never part of a copy. */
    private static final String LIBRARY_LOCK = "epg-lock";

    private DataTemplate() {
    }

    /** @return the template of the server unpacked in {@code server}, when there is one */
    static Optional<Path> find(Path server) {
        return Optional.of(of(server)).filter(template -> Files.isRegularFile(template.resolve("PG_VERSION")));
    }

    /** @return where the template of the server unpacked in {@code server} is kept */
    static Path of(Path server) {
        return server.resolveSibling(server.getFileName() + SUFFIX);
    }

    /**
     * Copies {@code template} to {@code data}, which does not exist (or is empty), through a temporary directory
     * beside it.
     */
    static void copy(Path template, Path data) throws IOException {
        if (Files.isDirectory(data)) {
            try (Stream<Path> entries = Files.list(data)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException(data + " is not empty: no template is copied over a data directory");
                }
            }
            Files.delete(data);
        }
        Path temporary = data.resolveSibling(data.getFileName() + ".copying");
        FileTrees.delete(temporary);
        copyTree(template, temporary);
        Files.move(temporary, data, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Keeps {@code data}, just made by {@code initdb}, as the template of the server unpacked in {@code server}. */
    static void keep(Path data, Path server) throws IOException {
        Path template = of(server);
        if (Files.exists(template)) {
            return;
        }
        Path temporary = template.resolveSibling(template.getFileName() + "." + ProcessHandle.current().pid());
        FileTrees.delete(temporary);
        copyTree(data, temporary);
        try {
            Files.move(temporary, template, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException madeMeanwhile) {
            FileTrees.delete(temporary);
        }
    }

    /** Copies a directory tree, with its files' permissions and times, without the library's lock file. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> entries = Files.walk(from)) {
            for (Path source : entries.toList()) {
                if (source.getFileName().toString().equals(LIBRARY_LOCK)) {
                    continue;
                }
                Path target = to.resolve(from.relativize(source).toString());
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }
}
