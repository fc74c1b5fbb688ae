package dev.mesh.controller.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Whole directory trees of the embedded store's files (the unpacked server, the template data directory). */
final class FileTrees {

    private FileTrees() {
    }

    /**
     * Deletes the tree at {@code path}, deepest entries first, links themselves and not what they point to;
     * nothing when it does not exist.
     */
    static void delete(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> entries = Files.walk(path)) {
            for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(entry);
            }
        }
    }
}
