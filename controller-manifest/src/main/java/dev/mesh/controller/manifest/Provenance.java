package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * Where one piece of a resolved value came from, so that a plan can explain it.
 *
 * @param module the module whose manifest holds the template
 * @param location the template's location in that manifest
 * @param reference the reference as written, e.g. {@code ${seat:mesh-store:5432}}
 * @param value what the reference resolved to
 * @param holder for a seat reference, the node holding the seat; otherwise {@code null}
 */
public record Provenance(String module, Location location, String reference, String value, String holder) {

    /** Checks the parts. */
    public Provenance {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(value, "value");
    }
}
