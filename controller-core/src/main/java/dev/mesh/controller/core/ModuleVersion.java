package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A module version as pushed: the manifest document exactly as its author wrote it, the manifest
 * parsed from it, and the digest of its content. The inventory keeps the document, so that what it
 * gives back is what was pushed and the locations of a problem point into the author's text.
 *
 * @param manifest the manifest parsed from {@code document}
 * @param document the manifest's JSON text as pushed
 * @param digest {@code sha256:} and the hex digest of the document's canonical JSON: documents that
 *     differ only in whitespace or in the order of object keys have the same digest, so pushing one
 *     of them again is the same push, and anything else under the same version is other content
 */
public record ModuleVersion(Manifest manifest, String document, String digest) {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** Checks the parts. */
    public ModuleVersion {
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(digest, "digest");
    }

    /**
     * Parses a pushed manifest document.
     *
     * @param document the manifest's JSON text
     * @param source where it comes from, for problem locations (a file name, {@code manifest})
     * @return the module version
     * @throws ManifestException with every problem of the document, located in it
     */
    public static ModuleVersion parse(String document, String source) {
        Objects.requireNonNull(document, "document");
        return from(Manifest.parse(document.getBytes(StandardCharsets.UTF_8), source), document);
    }

    /**
     * The module version of a manifest already parsed from {@code document}.
     *
     * @param manifest the manifest parsed from {@code document}
     * @param document the manifest's JSON text
     * @return the module version, with the digest of the document's content
     */
    public static ModuleVersion from(Manifest manifest, String document) {
        Object content;
        try {
            content = MAPPER.readValue(document, Object.class);
        } catch (JacksonException e) {
            // Manifest.parse read it, so it is JSON; a failure here is a bug, not the author's.
            throw new IllegalStateException("a manifest the parser accepted is not JSON to Jackson: " + e.getMessage(),
                    e);
        }
        return new ModuleVersion(manifest, document, CanonicalJson.digest(content));
    }

    /** @return the module's name */
    public String module() {
        return manifest.module();
    }

    /** @return the version */
    public String version() {
        return manifest.version();
    }
}
