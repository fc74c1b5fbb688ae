package dev.mesh.controller.core;

import java.util.Objects;

/**
 * A module assigned to a node: the node runs what the module's manifest declares.
 *
 * @param module the module's name
 * @param node the node's name
 */
public record Assignment(String module, String node) {

    /** Checks the parts. */
    public Assignment {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(node, "node");
    }
}
