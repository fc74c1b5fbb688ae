package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import java.util.Map;

/**
 * A consistent snapshot of the inventory for one verb: the mesh it describes and, computed only
 * when a verb asks for them, its seating and its plan against what the nodes acknowledged. A
 * {@code nodes} call never composes the mesh.
 *
 * <p>Confined to the thread of one verb call.
 */
final class State {

    private final Inventory inventory;
    private final IncrementalPlanner planner;
    private final Mesh mesh;
    private Seating seating;
    private Planning planning;
    private Map<String, Declaration> acknowledged;

    private State(Inventory inventory, IncrementalPlanner planner, Mesh mesh) {
        this.inventory = inventory;
        this.planner = planner;
        this.mesh = mesh;
    }

    /**
     * @param planner plans this snapshot, recomposing only the nodes whose inputs changed since
     *     the snapshot it planned before (its result equals {@link Planner#plan})
     */
    static State of(Inventory inventory, Layout layout, IncrementalPlanner planner) {
        return new State(inventory, planner, new Mesh(inventory.nodes(), inventory.modules(),
                inventory.assignments(), layout));
    }

    Mesh mesh() {
        return mesh;
    }

    Seating seating() {
        if (seating == null) {
            seating = Seating.of(mesh.nodes(), mesh.modulesByName(), mesh.assignments());
        }
        return seating;
    }

    Map<String, Declaration> acknowledged() {
        if (acknowledged == null) {
            acknowledged = inventory.acknowledged();
        }
        return acknowledged;
    }

    Planning planning() {
        if (planning == null) {
            planning = planner.plan(mesh, acknowledged(), inventory.built());
        }
        return planning;
    }

    Plan plan() {
        return planning().plan();
    }
}
