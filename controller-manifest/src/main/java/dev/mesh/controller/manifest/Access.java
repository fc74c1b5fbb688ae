package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A path outside its own directories that the module needs granted.
 *
 * @param path an absolute path template
 * @param mode read or write
 */
public record Access(Template path, AccessMode mode) {

    /** Checks the parts. */
    public Access {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(mode, "mode");
    }
}
