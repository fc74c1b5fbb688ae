package dev.mesh.controller.core.compose;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.compose.internal.MeshComposer;
import dev.mesh.controller.manifest.Manifest;
import java.util.Map;

/**
 * Composes every node's {@link Declaration} from the manifests of the modules assigned to it
 * (docs/design.md section 5). A pure function: the same mesh, in any order, gives the same
 * declarations, byte for byte. A node whose templates cannot all be resolved, or whose modules
 * conflict, gets no declaration but its problems; the other nodes still compose.
 *
 * <p>Stateless and thread-safe.
 */
public final class Composer {

    private Composer() {
    }

    /**
     * Composes with nothing built: each artifact names its module version, without a digest.
     *
     * @param mesh nodes, manifests, assignments and layout
     * @return the declarations of the nodes that composed, and every problem
     */
    public static Composition compose(Mesh mesh) {
        return compose(mesh, Map.of());
    }

    /**
     * @param mesh nodes, manifests, assignments and layout
     * @param built the builds done, by id ({@code build:MODULE@VERSION/ARTIFACT}): each artifact
     *     built is pinned to its digest and location
     * @return the declarations of the nodes that composed, and every problem
     */
    public static Composition compose(Mesh mesh, Map<String, Built> built) {
        Map<String, Manifest> modules = mesh.modulesByName();
        return MeshComposer.compose(mesh, built, modules, Seating.of(mesh.nodes(), modules, mesh.assignments()),
                mesh.assignedByNode(), declaration -> { });
    }
}
