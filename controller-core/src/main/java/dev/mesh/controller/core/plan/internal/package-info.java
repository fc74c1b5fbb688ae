/** How planning works inside: per-node diffs, change order, requirements between nodes, coexistence of old and new. Not API. */
package dev.mesh.controller.core.plan.internal;
