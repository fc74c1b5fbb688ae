package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * The facts of a node that {@code ${node:…}} references resolve to.
 *
 * @param name the node's name
 * @param address the address other nodes reach it at
 * @param system its system, e.g. {@code debian-12}
 */
public record NodeFacts(String name, String address, String system) {

    /** Checks the parts. */
    public NodeFacts {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(system, "system");
    }
}
