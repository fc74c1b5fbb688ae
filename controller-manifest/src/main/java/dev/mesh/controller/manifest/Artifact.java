package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * Something the module's build produces and its processes run.
 *
 * @param name unique in the manifest; processes name it in {@code artifact}
 * @param kind what is built; {@code bundle} is the only kind so far
 * @param language the toolchain that builds it, e.g. {@code java}
 * @param system the node system it is built for and can run on, e.g. {@code debian-12}
 * @param from the source directory, relative to the module's root
 * @param binary the file name of the executable inside the built artifact
 * @param location where the artifact is declared
 */
public record Artifact(String name, String kind, String language, String system, String from, String binary,
        Location location) {

    /** Checks the parts. */
    public Artifact {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(binary, "binary");
        Objects.requireNonNull(location, "location");
    }
}
