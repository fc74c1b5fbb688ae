package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Bindings;
import dev.mesh.controller.manifest.Claim;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.NodeFacts;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Scope;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who holds which seat, derived from the assignments: a module assigned to a node makes that node
 * hold every seat the module claims. A {@code mesh} seat has one holder in the mesh, a {@code node}
 * seat at most one per node; a second holder is a conflict naming both claims.
 *
 * <p>Immutable and thread-safe. The result does not depend on the order of its inputs.
 */
public final class Seating {

    /** One seat held on one node, by the claim of one module; {@code holder} is what references see of it. */
    private record Holding(Node node, String module, Claim claim, SeatHolder holder) {
        Holding(Node node, String module, Claim claim) {
            this(node, module, claim, new SeatHolder(node.name(), node.address()));
        }
    }

    /** Seat name → its holdings, sorted by node name then module. */
    private final Map<String, List<Holding>> holdings;
    /** Seats with more holders than their scope allows: {@code seat} for mesh scope, {@code seat@node} for node scope. */
    private final Set<String> contested;
    private final List<Problem> conflicts;

    /** Seat → node name → the first holding there, for look-ups from a node. */
    private final Map<String, Map<String, Holding>> byNode = new HashMap<>();
    /** Node name → the seats it holds, sorted. */
    private final Map<String, List<String>> seatsOf = new HashMap<>();

    private Seating(Map<String, List<Holding>> holdings, Set<String> contested, List<Problem> conflicts) {
        this.holdings = holdings;
        this.contested = Set.copyOf(contested);
        this.conflicts = List.copyOf(conflicts);
        holdings.forEach((seat, held) -> held.forEach(h -> {
            byNode.computeIfAbsent(seat, s -> new HashMap<>()).putIfAbsent(h.node().name(), h);
            List<String> seats = seatsOf.computeIfAbsent(h.node().name(), n -> new ArrayList<>());
            if (seats.isEmpty() || !seats.getLast().equals(seat)) {
                seats.add(seat);
            }
        }));
    }

    /**
     * Seats the mesh as its assignments say.
     *
     * @param nodes the nodes, in any order
     * @param modules the manifests of the assigned modules, by module name
     * @param assignments which module runs on which node, in any order; an assignment naming an
     *     unknown node or module holds nothing (the caller reports those)
     * @return the seating, with its conflicts
     */
    public static Seating of(Collection<Node> nodes, Map<String, Manifest> modules,
            Collection<Assignment> assignments) {
        Map<String, Node> byName = new HashMap<>();
        nodes.forEach(node -> byName.put(node.name(), node));
        // Only assignments of modules that claim seats are sorted: in a mesh where few modules
        // claim, that is a small part of them.
        Map<String, Manifest> claimers = new HashMap<>();
        modules.forEach((name, manifest) -> {
            if (!manifest.claims().isEmpty()) {
                claimers.put(name, manifest);
            }
        });
        List<Assignment> claiming = new ArrayList<>();
        for (Assignment assignment : assignments) {
            if (claimers.containsKey(assignment.module()) && byName.containsKey(assignment.node())) {
                claiming.add(assignment);
            }
        }
        claiming.sort(Comparator.comparing(Assignment::node).thenComparing(Assignment::module));
        Map<String, List<Holding>> holdings = new TreeMap<>();
        for (Assignment assignment : claiming) {
            Manifest manifest = claimers.get(assignment.module());
            for (Claim claim : manifest.claims()) {
                holdings.computeIfAbsent(claim.name(), seat -> new ArrayList<>())
                        .add(new Holding(byName.get(assignment.node()), manifest.module(), claim));
            }
        }
        Set<String> contested = new HashSet<>();
        List<Problem> conflicts = new ArrayList<>();
        Map<String, List<Holding>> frozen = new LinkedHashMap<>();
        holdings.forEach((seat, held) -> {
            check(seat, held, contested, conflicts);
            frozen.put(seat, List.copyOf(held));
        });
        return new Seating(frozen, contested, conflicts);
    }

    /**
     * The holder of a seat as a node sees it: the one holder of a {@code mesh} seat, or the holder
     * on that same node of a {@code node} seat. A contested seat has no holder where it is contested.
     *
     * @param seat a seat name
     * @param from the node asking
     * @return the holder, or empty when there is none
     */
    public Optional<SeatHolder> holder(String seat, Node from) {
        return Optional.ofNullable(holderAsSeenFrom(seat, from.name()));
    }

    /** {@link #holder(String, Node)} by the asking node's name; null when there is none. */
    public SeatHolder holderAsSeenFrom(String seat, String from) {
        List<Holding> held = holdings.get(seat);
        if (held == null || contested.contains(seat) || !contested.isEmpty() && contested.contains(seat + "@" + from)) {
            return null;
        }
        Holding holding = held.getFirst().claim().scope() == Scope.MESH ? held.getFirst()
                : byNode.get(seat).get(from);
        return holding == null ? null : holding.holder();
    }

    /**
     * What the templates of the modules on a node resolve against: the node's facts, the seat
     * holders as that node sees them, and the layout roots.
     *
     * @param node the node being composed
     * @param layout the directory roots
     * @return bindings for {@link dev.mesh.controller.manifest.Substitution}
     */
    public Bindings bindings(Node node, Layout layout) {
        return new NodeBindings(node, this, layout);
    }

    /** A node's view of the seating, for substitution. */
    private record NodeBindings(Node on, Seating seating, Layout layout) implements Bindings {
        @Override
        public NodeFacts node() {
            return on.facts();
        }

        @Override
        public Optional<SeatHolder> holder(String seat) {
            return seating.holder(seat, on);
        }
    }

    /**
     * @param node a node
     * @return the seats that node holds, sorted
     */
    public List<String> heldBy(Node node) {
        return List.copyOf(seatsOf.getOrDefault(node.name(), List.of()));
    }

    /**
     * The seats whose holders may be seen differently in this seating than in {@code before}: those
     * whose claims (node, module, claim) differ. Every other seat has the same holder from every node.
     */
    public Set<String> seatsChangedFrom(Seating before) {
        Set<String> changed = new HashSet<>();
        holdings.forEach((seat, held) -> {
            if (!held.equals(before.holdings.get(seat))) {
                changed.add(seat);
            }
        });
        before.holdings.keySet().forEach(seat -> {
            if (!holdings.containsKey(seat)) {
                changed.add(seat);
            }
        });
        return changed;
    }

    /** @return every conflict, by seat name, each naming both claims (the second located, the first related) */
    public List<Problem> conflicts() {
        return conflicts;
    }

    private static void check(String seat, List<Holding> held, Set<String> contested, List<Problem> conflicts) {
        Holding first = held.getFirst();
        List<Holding> disagreeing = held.stream().filter(h -> h.claim().scope() != first.claim().scope()).toList();
        if (!disagreeing.isEmpty()) {
            contested.add(seat);
            disagreeing.forEach(other -> conflicts.add(conflict(seat, first, other, "is claimed with scope "
                    + scope(first) + " by module " + first.module() + " and with scope " + scope(other)
                    + " by module " + other.module() + "; make the claims agree")));
        } else if (first.claim().scope() == Scope.MESH && held.size() > 1) {
            contested.add(seat);
            held.subList(1, held.size()).forEach(other -> conflicts.add(conflict(seat, first, other,
                    "has scope mesh, so it has one holder in the mesh, but module " + first.module() + " on node "
                            + first.node().name() + " and module " + other.module() + " on node "
                            + other.node().name() + " both claim it; unassign one of them")));
        } else if (first.claim().scope() == Scope.NODE) {
            Map<String, List<Holding>> byNode = new TreeMap<>();
            held.forEach(h -> byNode.computeIfAbsent(h.node().name(), n -> new ArrayList<>()).add(h));
            byNode.forEach((node, onNode) -> {
                if (onNode.size() > 1) {
                    contested.add(seat + "@" + node);
                    Holding one = onNode.getFirst();
                    onNode.subList(1, onNode.size()).forEach(other -> conflicts.add(conflict(seat, one, other,
                            "has scope node, so each node has at most one holder, but modules " + one.module()
                                    + " and " + other.module() + " both claim it on node " + node
                                    + "; unassign one of them")));
                }
            });
        }
    }

    private static Problem conflict(String seat, Holding first, Holding second, String why) {
        return Problem.error("seat-conflict", "the seat \"" + seat + "\" " + why, second.claim().location())
                .withRelated(List.of(first.claim().location()));
    }

    private static String scope(Holding holding) {
        return holding.claim().scope().name().toLowerCase(Locale.ROOT);
    }
}
