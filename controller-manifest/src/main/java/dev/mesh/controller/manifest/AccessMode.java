package dev.mesh.controller.manifest;

/** Whether a granted path (or a container mount) may only be read, or also written. */
public enum AccessMode {
    /** Read only. */
    READ,
    /** Read and write. */
    WRITE
}
