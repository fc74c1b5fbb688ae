package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import java.util.Map;
import java.util.Set;

/**
 * A consistent snapshot of the inventory for one verb: the mesh it describes, its seating and its
 * plan against what the nodes acknowledged.
 *
 * @param mesh the mesh
 * @param seating who holds which seat
 * @param planning the composition and plan
 * @param acknowledged each node's last acknowledged declaration
 */
record State(Mesh mesh, Seating seating, Planning planning, Map<String, Declaration> acknowledged) {

    static State of(Inventory inventory, Layout layout) {
        Mesh mesh = new Mesh(inventory.nodes(), inventory.modules(), inventory.assignments(), layout);
        Map<String, Declaration> acknowledged = inventory.acknowledged();
        Set<String> built = inventory.built();
        return new State(mesh, Seating.of(mesh.nodes(), mesh.modulesByName(), mesh.assignments()),
                Planner.plan(mesh, acknowledged, built), acknowledged);
    }

    Plan plan() {
        return planning.plan();
    }
}
