package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.CommandException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The file {@code serve} writes once it consumes the controller's queues, when its host named one in
 * {@code MESH_READY_FILE} (docs/upgrade.md): a host that restarts the controller with overlap starts
 * the new one, waits for its file, and only then stops the old one. Written whole or not at all (a
 * temporary file beside it, then a rename), so a host never reads half of it.
 *
 * <p>Stateless and thread-safe.
 */
final class ReadyFile {

    private ReadyFile() {
    }

    /**
     * @param file where the host wants it
     * @param line what it says: serve's ready line
     * @throws CommandException when it cannot be written, naming the file and the fix
     */
    static void write(Path file, String line) {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try {
            Files.writeString(partial, line + "\n", StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CommandException("serve could not write its ready file " + file + " (MESH_READY_FILE): " + e
                    .getMessage() + "; let the account it runs as write that directory, or unset MESH_READY_FILE", e);
        }
    }
}
