package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
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

    /** @return the manifests by module name */
    public Map<String, Manifest> modulesByName() {
        Map<String, Manifest> byName = new TreeMap<>();
        modules.forEach(manifest -> byName.put(manifest.module(), manifest));
        return byName;
    }
}
