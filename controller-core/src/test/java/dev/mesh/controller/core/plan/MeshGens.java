package dev.mesh.controller.core.plan;

import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.manifest.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.quicktheories.core.Gen;

/**
 * QuickTheories generators of the parts of random meshes the planning properties share: the
 * nodes and the subset of the modules. Each shrinks toward fewer and earlier choices (one
 * debian-12 node, the first module of the pool alone).
 */
final class MeshGens {

    /** Three in four nodes are debian-12, the rest alpine-3, so systems can mismatch. */
    private static final List<String> SYSTEMS = List.of("debian-12", "debian-12", "debian-12", "alpine-3");

    private MeshGens() {
    }

    /** @return 1 to 6 nodes named {@code node-0…} at {@code 10.1.0.1…}, mostly debian-12, some alpine-3 */
    static Gen<List<Node>> nodes() {
        return lists().of(arbitrary().pick(SYSTEMS)).ofSizeBetween(1, 6).map(systems -> {
            List<Node> list = new ArrayList<>();
            for (int i = 0; i < systems.size(); i++) {
                list.add(new Node("node-" + i, "10.1.0." + (i + 1), systems.get(i)));
            }
            return list;
        });
    }

    /** @return a non-empty subset of {@code pool}, in the order drawn */
    static Gen<List<Manifest>> modules(List<Manifest> pool) {
        return lists().of(arbitrary().pick(pool)).ofSizeBetween(1, pool.size())
                .map(drawn -> List.copyOf(new LinkedHashSet<>(drawn)));
    }

    /**
     * @return the mesh in a line short enough for a counterexample: its nodes, the names and
     *     versions of its modules (not the whole manifests), its assignments and layout
     */
    static String describe(Mesh mesh) {
        return "Mesh[nodes=" + mesh.nodes() + ", modules="
                + mesh.modules().stream().map(m -> m.module() + "@" + m.version()).toList()
                + ", assignments=" + mesh.assignments() + ", layout=" + mesh.layout() + "]";
    }
}
