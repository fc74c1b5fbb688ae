package dev.mesh.controller.manifest;

/** How many holders a seat may have. */
public enum Scope {
    /** Exactly one holder in the whole mesh. */
    MESH,
    /** At most one holder per node. */
    NODE
}
