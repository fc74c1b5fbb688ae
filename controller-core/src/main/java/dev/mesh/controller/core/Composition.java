package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Problem;
import java.util.List;

/**
 * The result of composing a mesh: a declaration for every node that composed, and the problems
 * of the others (and of the mesh as a whole, such as seat conflicts).
 *
 * @param declarations by node name
 * @param problems every problem, each naming its source
 */
public record Composition(List<Declaration> declarations, List<Problem> problems) {

    /** Copies the parts. */
    public Composition {
        declarations = List.copyOf(declarations);
        problems = List.copyOf(problems);
    }
}
