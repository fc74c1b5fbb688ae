package dev.mesh.controller.store.internal;

import dev.mesh.controller.core.BuildOrder;
import java.util.Objects;

/**
 * A build's id as core writes it, {@code build:MODULE@VERSION/ARTIFACT}, in the parts the
 * inventory keeps in columns. Module, version and artifact names cannot hold {@code @} or
 * {@code /} (the manifest's rules), so the id splits one way only.
 *
 * @param module the module's name
 * @param version the module's version
 * @param artifact the artifact's name
 */
public record BuildId(String module, String version, String artifact) {

    private static final String PREFIX = "build:";

    /** Checks the parts. */
    public BuildId {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(artifact, "artifact");
    }

    /**
     * @param id e.g. {@code build:store@1.2/server}
     * @return its parts
     * @throws IllegalArgumentException when the id is not of that form
     */
    public static BuildId parse(String id) {
        int at = id.indexOf('@');
        int slash = id.indexOf('/', Math.max(at, 0));
        if (!id.startsWith(PREFIX) || at <= PREFIX.length() || slash <= at + 1 || slash == id.length() - 1
                || id.indexOf('@', at + 1) >= 0 || id.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("build id \"" + id + "\" is not of the form build:MODULE@VERSION/ARTIFACT");
        }
        return new BuildId(id.substring(PREFIX.length(), at), id.substring(at + 1, slash), id.substring(slash + 1));
    }

    /** @return the id, {@code build:MODULE@VERSION/ARTIFACT} */
    public String id() {
        return BuildOrder.id(module, version, artifact);
    }
}
