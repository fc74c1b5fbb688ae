package dev.mesh.controller.simhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The lab's one recursive delete (of a partial unpacking, of an old tree, of a driver's run). Stateless. */
public final class Trees {

    private Trees() {
    }

    /**
     * Deletes {@code path} and everything below it; nothing when it is not there.
     *
     * @param path a file or a directory
     * @throws IOException when something below it cannot be deleted
     */
    public static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path each : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }
}
