package dev.mesh.controller.launcher;

import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.nio.file.Path;
import java.util.List;

/**
 * The mesh file a command reads, or the problems that stopped it: {@code compose} and {@code plan}
 * report a bad mesh file the way {@code validate} reports a bad manifest.
 *
 * @param mesh the mesh, or {@code null} when the file has problems
 * @param problems the file's problems (and its manifests'); empty when it read
 */
record MeshInput(Mesh mesh, List<Problem> problems) {

    MeshInput {
        problems = List.copyOf(problems);
    }

    static MeshInput read(Path file) {
        try {
            return new MeshInput(Mesh.read(file), List.of());
        } catch (ManifestException invalid) {
            return new MeshInput(null, invalid.problems());
        }
    }
}
