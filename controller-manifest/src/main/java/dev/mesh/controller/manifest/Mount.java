package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A host path mounted into a legacy container.
 *
 * @param source the path on the node: an absolute path template, which may name this module's
 *     directories and secrets ({@code ${dir:…}}, {@code ${secret:…}}) and the node's and module's
 *     facts, as an access path may; composition resolves it
 * @param target the absolute path inside the container (no templates)
 * @param mode read or write
 */
public record Mount(Template source, String target, AccessMode mode) {

    /** Checks the parts. */
    public Mount {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mode, "mode");
    }
}
