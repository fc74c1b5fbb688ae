package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A seat the module claims: holding it is the module's role in the mesh.
 *
 * @param name the seat name, e.g. {@code mesh-store}
 * @param scope one holder in the mesh, or one per node
 * @param location where the claim is declared
 */
public record Claim(String name, Scope scope, Location location) {

    /** Checks the parts. */
    public Claim {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(location, "location");
    }
}
