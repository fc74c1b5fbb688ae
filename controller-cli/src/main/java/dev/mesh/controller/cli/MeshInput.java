package dev.mesh.controller.cli;

import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --mesh FILE} option of {@code compose} and {@code plan} (a picocli mixin), and the
 * reading of that file: a bad mesh file is reported the way {@code validate} reports a bad
 * manifest, as problems rather than a failure.
 */
final class MeshInput {

    @Option(names = "--mesh", required = true, paramLabel = "FILE",
            description = "The mesh file: nodes, modules (paths relative to it, or inline), assignments, layout.")
    private Path file;

    /** The mesh, or the problems of the file and its manifests. */
    record Read(Mesh mesh, List<Problem> problems) {

        Read {
            problems = List.copyOf(problems);
        }
    }

    Path file() {
        return file;
    }

    Read read() {
        try {
            return new Read(Mesh.read(file), List.of());
        } catch (ManifestException invalid) {
            return new Read(null, invalid.problems());
        }
    }
}
