package dev.mesh.controller.manifest;

/** Where a directory resource lives: under the mesh root or under the module's own root. */
public enum Place {
    /** {@code <mesh root>/<id>}: shared by name across the mesh. */
    MESH,
    /** {@code <modules root>/<module>/<id>}: private to the module. */
    MODULE
}
