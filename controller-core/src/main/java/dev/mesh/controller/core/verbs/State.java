package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Assignment;
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
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The inventory as one verb sees it, read only as far as the verb asks: its nodes and when they were seen,
 * its modules, the whole mesh, its seating and its plan against what the nodes acknowledged. A {@code nodes}
 * call never composes the mesh: it reads one page of nodes, their sightings and their assignments of the
 * modules that claim seats, never the whole mesh's.
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

    /**
     * @param after the name the page starts after ({@code ""} for the first)
     * @param limit at most this many nodes
     * @return the nodes named after {@code after}, by name: one page, read afresh
     */
    List<Node> nodes(String after, int limit) {
        return inventory.nodes(after, limit);
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

    /**
     * @param after the name a page of nodes started after
     * @param page the page: {@link #nodes(String, int)} after {@code after}, not empty
     * @return when each of the page's heard-from nodes was last seen, by node name, read afresh
     */
    Map<String, Sighting> sightings(String after, List<Node> page) {
        return inventory.sightings(after, page.getLast().name());
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

    /**
     * Seats a page of nodes from their assignments of the modules that claim seats, reading no other node's: what
     * each of them {@linkplain Seating#heldBy holds} is what it holds in the whole mesh's seating (a
     * conflict with a node outside them is not seen).
     *
     * @param after the name a page of nodes started after
     * @param page the page: {@link #nodes(String, int)} after {@code after}, not empty
     * @return their seating
     */
    Seating seating(String after, List<Node> page) {
        return claimingSeating(page, claiming -> inventory.assignments(claiming, after, page.getLast().name()));
    }

    /** Seats the mesh from the assignments of the modules that claim seats: the others hold none. */
    private Seating claimingSeating() {
        return claimingSeating(nodes(), inventory::assignments);
    }

    /** Seats {@code nodes} from what {@code assignments} gives of the modules that claim seats. */
    private Seating claimingSeating(List<Node> nodes, Function<Set<String>, List<Assignment>> assignments) {
        Map<String, Manifest> byName = modules().stream().collect(Collectors.toMap(Manifest::module, m -> m));
        Set<String> claiming = modules().stream().filter(m -> !m.claims().isEmpty()).map(Manifest::module)
                .collect(Collectors.toSet());
        return Seating.of(nodes, byName, claiming.isEmpty() ? List.of() : assignments.apply(claiming));
    }
}
