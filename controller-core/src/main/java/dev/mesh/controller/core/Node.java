package dev.mesh.controller.core;

import dev.mesh.controller.manifest.NodeFacts;
import java.util.Objects;

/**
 * A machine of the mesh, as it reports itself.
 *
 * @param name unique in the mesh
 * @param address where the other nodes reach it
 * @param system what it runs, e.g. {@code debian-12}; artifacts are built per system
 */
public record Node(String name, String address, String system) {

    /** Checks the parts. */
    public Node {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(system, "system");
    }

    /** @return the facts {@code ${node:…}} references resolve to */
    public NodeFacts facts() {
        return new NodeFacts(name, address, system);
    }
}
