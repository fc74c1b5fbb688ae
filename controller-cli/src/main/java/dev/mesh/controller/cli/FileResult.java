package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of checking one manifest file.
 *
 * @param file the file as the user named it
 * @param problems every problem of the file, warnings included, in document order; empty when there are none
 */
record FileResult(String file, List<Problem> problems) {

    FileResult {
        Objects.requireNonNull(file, "file");
        problems = List.copyOf(problems);
    }

    /**
     * Reads and checks one manifest file. A file that cannot be read or is not JSON gives a
     * result with problems, like any other invalid manifest.
     *
     * @param path the manifest file
     * @return its result
     */
    static FileResult read(Path path) {
        try {
            return new FileResult(path.toString(), Manifest.check(path).warnings());
        } catch (ManifestException invalid) {
            return new FileResult(path.toString(), invalid.problems());
        }
    }

    /** @return {@code true} when no problem is an error (warnings do not make a file invalid) */
    boolean valid() {
        return problems.stream().noneMatch(Problem::isError);
    }
}
