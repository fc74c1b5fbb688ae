package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Plan;

/**
 * A plan with the composition it was computed from (whose problems explain the nodes that got
 * no changes).
 *
 * @param composition the declarations and problems of the mesh
 * @param plan the changes and builds
 */
public record Planning(Composition composition, Plan plan) {
}
