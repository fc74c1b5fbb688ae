package dev.mesh.controller.core;

import dev.mesh.controller.core.internal.collect.ChunkedList;
import dev.mesh.controller.manifest.Problem;
import java.util.List;
import java.util.Map;

/**
 * The result of composing a mesh: a declaration for every node that composed, and the problems
 * of the others (and of the mesh as a whole, such as seat conflicts).
 *
 * @param declarations by node name
 * @param problems every problem, each naming its source
 * @param blocked the nodes that got no declaration, each with the problems that stopped it
 */
public record Composition(List<Declaration> declarations, List<Problem> problems,
        Map<String, List<Problem>> blocked) {

    /**
     * Copies the parts; the declarations an {@code IncrementalPlanner} hands over are unmodifiable
     * already, and share all but their changed chunks with the previous plan's ({@link ChunkedList}).
     */
    public Composition {
        declarations = declarations instanceof ChunkedList<Declaration> ? declarations : List.copyOf(declarations);
        problems = List.copyOf(problems);
        blocked = Map.copyOf(blocked);
    }
}
