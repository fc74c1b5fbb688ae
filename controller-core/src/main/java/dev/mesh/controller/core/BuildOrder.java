package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Artifact;
import dev.mesh.controller.manifest.Manifest;
import java.util.Objects;

/**
 * A request that a builder build one artifact of one module version: exactly the body of a message
 * on {@code mesh.builds} (docs/design.md section 8), routed by {@code system}.
 *
 * @param build its id, {@code build:MODULE@VERSION/ARTIFACT}
 * @param module the module
 * @param version the module's version
 * @param artifact the artifact's name
 * @param kind the artifact's kind, as the manifest says
 * @param language its language, as the manifest says
 * @param system the system it is built for
 * @param from where its sources are, as the manifest says
 * @param binary the binary the build produces, as the manifest says
 */
public record BuildOrder(String build, String module, String version, String artifact, String kind,
        String language, String system, String from, String binary) {

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when {@code build} is not the id of that module, version and
     *     artifact
     */
    public BuildOrder {
        Objects.requireNonNull(build, "build");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(artifact, "artifact");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(binary, "binary");
        String id = id(module, version, artifact);
        if (!build.equals(id)) {
            throw new IllegalArgumentException("build id \"" + build + "\" does not name artifact " + artifact
                    + " of version " + version + " of module " + module + "; its id is " + id);
        }
    }

    /**
     * @param manifest the module version
     * @param artifact one of its artifacts
     * @return the order that builds it
     */
    public static BuildOrder of(Manifest manifest, Artifact artifact) {
        return new BuildOrder(id(manifest.module(), manifest.version(), artifact.name()), manifest.module(),
                manifest.version(), artifact.name(), artifact.kind(), artifact.language(), artifact.system(),
                artifact.from(), artifact.binary());
    }

    /**
     * The one spelling of a build's id, which orders, {@link Plan#buildId} and the {@code build} verb share.
     *
     * @param module the module
     * @param version the module's version
     * @param artifact the artifact's name
     * @return {@code build:MODULE@VERSION/ARTIFACT}
     */
    public static String id(String module, String version, String artifact) {
        return "build:" + module + "@" + version + "/" + artifact;
    }
}
