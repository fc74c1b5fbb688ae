package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.execute.Rollout;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import dev.mesh.controller.core.plan.Planner;
import dev.mesh.controller.core.plan.Planning;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The inventory as one verb sees it, read only as far as the verb asks: its nodes and when they were seen,
 * its modules, the whole mesh, its seating and its plan against what the nodes acknowledged. A {@code nodes}
 * call never composes the mesh, and reads only the assignments of the modules that claim seats.
 *
 * <p>Confined to the thread of one verb call.
 */
final class State {

    private final Inventory inventory;
    private final Layout layout;
    private final IncrementalPlanner planner;
    private List<Node> nodes;
    private List<Manifest> modules;
    private Mesh mesh;
    private Seating seating;
    private Planning planning;
    private Map<String, Declaration> acknowledged;
    private Map<String, Sighting> sightings;

    private State(Inventory inventory, Layout layout, IncrementalPlanner planner) {
        this.inventory = inventory;
        this.layout = layout;
        this.planner = planner;
    }

    /**
     * @param planner plans this snapshot, recomposing only the nodes whose inputs changed since
     *     the snapshot it planned before (its result equals {@link Planner#plan})
     */
    static State of(Inventory inventory, Layout layout, IncrementalPlanner planner) {
        return new State(inventory, layout, planner);
    }

    List<Node> nodes() {
        if (nodes == null) {
            nodes = inventory.nodes();
        }
        return nodes;
    }

    List<Manifest> modules() {
        if (modules == null) {
            modules = inventory.modules();
        }
        return modules;
    }

    Mesh mesh() {
        if (mesh == null) {
            mesh = new Mesh(nodes(), modules(), inventory.assignments(), layout);
        }
        return mesh;
    }

    Seating seating() {
        if (seating == null) {
            seating = mesh != null ? Seating.of(mesh.nodes(), mesh.modulesByName(), mesh.assignments())
                    : claimingSeating();
        }
        return seating;
    }

    Map<String, Declaration> acknowledged() {
        if (acknowledged == null) {
            acknowledged = inventory.acknowledged();
        }
        return acknowledged;
    }

    /** @return when each heard-from node was last seen, by node name */
    Map<String, Sighting> sightings() {
        if (sightings == null) {
            sightings = inventory.sightings();
        }
        return sightings;
    }

    /** @return the node's latest facts, read afresh */
    Optional<Facts> facts(String node) {
        return inventory.facts(node);
    }

    Planning planning() {
        if (planning == null) {
            planning = planner.plan(mesh(), acknowledged(), inventory.built());
        }
        return planning;
    }

    Plan plan() {
        return planning().plan();
    }

    /**
     * @param now what silence is judged against
     * @return where each composed node stands in carrying out the plan, by node name
     */
    Map<String, Rollout> rollouts(Instant now) {
        Map<String, Declaration> declarations = planning().composition().declarations().stream()
                .collect(Collectors.toMap(Declaration::node, d -> d));
        return Rollout.of(declarations.keySet(), new Rollout.Inputs(plan(), declarations, acknowledged(),
                inventory.deliveries(), inventory.failures(), inventory.built(), inventory::facts, now));
    }

    /** Seats the mesh from the assignments of the modules that claim seats: the others hold none. */
    private Seating claimingSeating() {
        Map<String, Manifest> byName = modules().stream().collect(Collectors.toMap(Manifest::module, m -> m));
        Set<String> claiming = modules().stream().filter(m -> !m.claims().isEmpty()).map(Manifest::module)
                .collect(Collectors.toSet());
        return Seating.of(nodes(), byName, claiming.isEmpty() ? List.of() : inventory.assignments(claiming));
    }
}
