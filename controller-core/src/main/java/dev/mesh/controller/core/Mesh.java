package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.MeshFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything composition reads: the nodes, the manifests of the modules, which module runs on
 * which node, and the roots directory paths are made from.
 *
 * @param nodes the nodes
 * @param modules one manifest per module name
 * @param assignments which module runs on which node
 * @param layout the directory roots
 */
public record Mesh(List<Node> nodes, List<Manifest> modules, List<Assignment> assignments, Layout layout) {

    /** Checks and copies the parts. */
    public Mesh {
        nodes = List.copyOf(nodes);
        modules = List.copyOf(modules);
        assignments = List.copyOf(assignments);
        Objects.requireNonNull(layout, "layout");
    }

    /**
     * Reads a mesh file and the manifests it names (see {@link MeshFile}).
     *
     * @param path the mesh file
     * @return the mesh it describes
     * @throws dev.mesh.controller.manifest.ManifestException with every located problem of the file
     *     and of its manifests
     */
    public static Mesh read(Path path) {
        return of(MeshFile.read(path));
    }

    /**
     * @param file a mesh file that has been read
     * @return the mesh it describes
     */
    public static Mesh of(MeshFile file) {
        return new Mesh(file.nodes().stream().map(n -> new Node(n.name(), n.address(), n.system())).toList(),
                file.manifests(), file.assignments().stream().map(a -> new Assignment(a.module(), a.node())).toList(),
                file.layout());
    }

    /** @return the manifests by module name */
    public Map<String, Manifest> modulesByName() {
        Map<String, Manifest> byName = new TreeMap<>();
        modules.forEach(manifest -> byName.put(manifest.module(), manifest));
        return byName;
    }

    /**
     * @return the names of the modules assigned to each node, by node name, each list sorted; a
     *     new, modifiable map at each call
     */
    public Map<String, List<String>> assignedByNode() {
        Map<String, List<String>> assigned = new HashMap<>();
        for (Assignment assignment : assignments) {
            assigned.computeIfAbsent(assignment.node(), n -> new ArrayList<>()).add(assignment.module());
        }
        assigned.values().forEach(modules -> modules.sort(null));
        return assigned;
    }
}
