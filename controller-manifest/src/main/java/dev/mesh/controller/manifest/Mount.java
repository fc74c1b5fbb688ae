package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A host path mounted into a legacy container.
 *
 * @param source the absolute path on the node
 * @param target the absolute path inside the container
 * @param mode read or write
 */
public record Mount(String source, String target, AccessMode mode) {

    /** Checks the parts. */
    public Mount {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mode, "mode");
    }
}
