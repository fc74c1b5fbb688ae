package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.compose.internal.MeshComposer;
import dev.mesh.controller.core.compose.internal.MeshDigest;
import dev.mesh.controller.core.compose.internal.NodeComposer;
import dev.mesh.controller.core.compose.internal.NodeDeclaration;
import dev.mesh.controller.core.plan.internal.AssignmentDelta;
import dev.mesh.controller.core.plan.internal.NodeChanges;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;

/**
 * Plans a mesh again and again, as a controller does after each change of its inputs: every call
 * gives exactly what {@link Planner#plan} gives for the same arguments, but redoes only the work
 * that the change since the previous call affects.
 *
 * <p>It remembers, per node, its composition keyed on exactly what that is a function of — the
 * node, the manifests assigned to it, the holders of the seats their templates reference (as that
 * node sees them), the seats it holds, the layout, and the builds of its manifests' artifacts — and its changes keyed on (acknowledged
 * revision, declaration revision). After one assignment changed, it recomposes the node that
 * gained or lost the module and, if the module claims seats, the nodes whose view of those seats'
 * holders changed; a node whose acknowledged revision equals its new declaration's revision has no
 * changes, found without comparing the declarations. Revisions are digests of the declarations'
 * canonical bytes, so an acknowledged declaration must carry the revision composition gave it (as
 * every declaration a node acknowledges does).
 *
 * <p>A change of the nodes, the manifests, the layout or the builds regroups every assignment and checks every
 * node's inputs (still recomposing only the nodes whose inputs changed); a change of assignments
 * alone costs one pass over the assignment lists (comparing them in order), the recomposed nodes,
 * one hash of the mesh's inputs, and work per changed node.
 *
 * <p>Thread-safe: calls are serialized. It holds the previous mesh and, per node, one composition
 * and one set of changes. A call that fails leaves it to start over from the next mesh.
 */
public final class IncrementalPlanner {

    /** What a node's composition is a function of (see {@link NodeDeclaration#compose}). */
    private record NodeInputs(Node node, List<Manifest> manifests, Map<String, SeatHolder> holders,
            List<String> seats, Layout layout, List<List<Built>> builds) {
    }

    /**
     * What is remembered of one node: its composition, its last changes with their key, and the
     * acknowledged declaration of the last call with its entry in the plan's inputs.
     */
    private static final class Remembered {
        private final String name;
        private final String inputKey;
        private NodeInputs inputs;
        private NodeDeclaration.Composed composed;
        /** The revisions the changes are for: acknowledged (or null), declared. */
        private String acknowledged;
        private String declared;
        private NodeChanges changes;
        /**
         * The declarations the changes were last returned for, compared by reference: the same
         * instances again, as a controller mostly passes, need not even have their revisions read.
         */
        private Declaration acknowledgedSeen;
        private Declaration declaredSeen;
        /** {@code acknowledged/NODE} and the revision of {@link #inputFor}. */
        private Map.Entry<String, String> input;
        private Declaration inputFor;

        private Remembered(String name) {
            this.name = name;
            this.inputKey = Planner.inputKey(name);
        }
    }

    /** The mesh of the last call that completed; null before the first, and after a failed call. */
    private Mesh previous;
    private Layout layout;
    private Map<String, Built> built = Map.of();
    /** Module name → the builds done of its artifacts, in the order of its manifest. */
    private final Map<String, List<Built>> moduleBuilds = new HashMap<>();
    private Map<String, Manifest> modules = Map.of();
    private Map<String, Node> nodes = Map.of();
    private List<Node> inNameOrder = List.of();
    /** What is remembered of each node of {@link #inNameOrder}, in that order; null after a regroup. */
    private List<Remembered> inOrder;
    /** Module name → the seats its templates reference. */
    private final Map<String, SortedSet<String>> requirements = new HashMap<>();
    /** Node name, as assignments name it → its modules, sorted, each as often as it is assigned. */
    private final Map<String, List<String>> assigned = new HashMap<>();
    /** How many assignments name a node or a module the mesh does not have. */
    private int unknown;
    private Seating seating;
    private final MeshDigest digest = new MeshDigest();
    private final Map<String, Remembered> remembered = new HashMap<>();
    private NodeComposer composer;
    private NodeChanges.Reasons reasons = new NodeChanges.Reasons();

    /** A planner that has seen nothing yet: its first plan composes every node. */
    public IncrementalPlanner() {
    }

    /**
     * Plans {@code mesh}, reusing what the previous calls computed where its inputs did not change.
     *
     * @param mesh nodes, manifests, assignments and layout
     * @param acknowledged each node's last acknowledged declaration, carrying the revision
     *     composition gave it; a node missing here has none
     * @param built the builds already done, by id ({@code build:MODULE@VERSION/ARTIFACT})
     * @return what {@link Planner#plan} returns for the same arguments
     * @throws NullPointerException if an argument is null
     */
    public synchronized Planning plan(Mesh mesh, Map<String, Declaration> acknowledged, Map<String, Built> built) {
        Objects.requireNonNull(acknowledged, "acknowledged");
        Objects.requireNonNull(built, "built");
        Mesh before = previous;
        previous = null;
        Set<String> candidates = sameExceptAssignments(before, mesh) && built.equals(this.built)
                ? reassign(before, mesh) : regroup(mesh, built);
        for (String name : candidates) {
            Node node = nodes.get(name);
            if (node != null) {
                recomposeIfChanged(node);
            }
        }
        if (inOrder == null) {
            inOrder = inNameOrder.stream().map(node -> remembered.get(node.name())).toList();
        }
        List<NodeDeclaration.Composed> composed = new ArrayList<>(inOrder.size());
        List<NodeChanges> diffs = new ArrayList<>(inOrder.size());
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map.Entry<String, String>[] inputs = new Map.Entry[acknowledged.size() + 1];
        int known = 0;
        for (Remembered memory : inOrder) {
            composed.add(memory.composed);
            Declaration acknowledgedHere = acknowledged.get(memory.name);
            if (acknowledgedHere != null) {
                inputs[++known] = input(memory, acknowledgedHere);
            }
            if (memory.composed.declaration() != null) {
                diffs.add(changes(memory, acknowledgedHere));
            }
        }
        inputs[0] = Map.entry("mesh", digest.digest());
        if (known < acknowledged.size()) {
            unknownInputs(acknowledged, inputs, known + 1);
        }
        List<Problem> unknownNames = unknown > 0 ? MeshComposer.unknownNames(mesh, nodes, modules) : List.of();
        Composition composition = MeshComposer.assemble(MeshComposer.meshProblems(unknownNames, modules, seating), composed);
        Planning planning = Planner.assemble(new Planner.Composed(modules, seating, composition,
                Map.ofEntries(inputs)), diffs, built);
        previous = mesh;
        return planning;
    }

    /** The node's entry in the plan's inputs, made again only for another acknowledged declaration. */
    private static Map.Entry<String, String> input(Remembered memory, Declaration acknowledged) {
        if (acknowledged != memory.inputFor) {
            memory.input = Map.entry(memory.inputKey, acknowledged.revision());
            memory.inputFor = acknowledged;
        }
        return memory.input;
    }

    /** Adds the inputs of the acknowledged declarations of nodes the mesh does not have, from {@code at}. */
    private void unknownInputs(Map<String, Declaration> acknowledged, Map.Entry<String, String>[] inputs, int at) {
        int next = at;
        for (Map.Entry<String, Declaration> entry : acknowledged.entrySet()) {
            if (!nodes.containsKey(entry.getKey())) {
                inputs[next++] = Map.entry(Planner.inputKey(entry.getKey()), entry.getValue().revision());
            }
        }
    }

    private static boolean sameExceptAssignments(Mesh before, Mesh mesh) {
        return before != null && before.layout().equals(mesh.layout()) && before.nodes().equals(mesh.nodes())
                && before.modules().equals(mesh.modules());
    }

    /** Starts over from the mesh's assignments and builds; every node is a candidate. */
    private Set<String> regroup(Mesh mesh, Map<String, Built> builds) {
        layout = mesh.layout();
        built = Map.copyOf(builds);
        modules = mesh.modulesByName();
        moduleBuilds.clear();
        modules.forEach((name, manifest) -> moduleBuilds.put(name, manifest.artifacts().stream()
                .map(artifact -> built.get(BuildOrder.id(name, manifest.version(), artifact.name())))
                .filter(Objects::nonNull).toList()));
        nodes = new HashMap<>();
        mesh.nodes().forEach(node -> nodes.put(node.name(), node));
        inNameOrder = nodes.values().stream().sorted(Comparator.comparing(Node::name)).toList();
        composer = new NodeComposer(layout, built);
        reasons = new NodeChanges.Reasons();
        requirements.clear();
        modules.forEach((name, manifest) -> requirements.put(name, manifest.requirements()));
        assigned.clear();
        unknown = 0;
        for (Assignment assignment : mesh.assignments()) {
            assigned.computeIfAbsent(assignment.node(), n -> new ArrayList<>()).add(assignment.module());
            unknown += isKnown(assignment) ? 0 : 1;
        }
        assigned.values().forEach(names -> names.sort(Comparator.naturalOrder()));
        digest.reset(mesh, assigned);
        seating = Seating.of(mesh.nodes(), modules, mesh.assignments());
        remembered.keySet().retainAll(nodes.keySet());
        inOrder = null;
        return nodes.keySet();
    }

    /**
     * Applies the assignments that differ from the previous mesh's; the candidates are the nodes
     * that gained or lost a module, and those that reference a seat whose holders changed.
     */
    private Set<String> reassign(Mesh before, Mesh mesh) {
        AssignmentDelta delta = AssignmentDelta.between(before.assignments(), mesh.assignments());
        Set<String> candidates = new HashSet<>();
        boolean claims = false;
        for (Assignment removed : delta.removed()) {
            assigned.get(removed.node()).remove(removed.module());
            unknown -= isKnown(removed) ? 0 : 1;
            candidates.add(removed.node());
            claims |= claimsSeats(removed.module());
        }
        for (Assignment added : delta.added()) {
            List<String> names = assigned.computeIfAbsent(added.node(), n -> new ArrayList<>());
            int at = 0;
            while (at < names.size() && names.get(at).compareTo(added.module()) <= 0) {
                at++;
            }
            names.add(at, added.module());
            unknown += isKnown(added) ? 0 : 1;
            candidates.add(added.node());
            claims |= claimsSeats(added.module());
        }
        for (String node : candidates) {
            List<String> names = assigned.getOrDefault(node, List.of());
            digest.assigned(node, names);
            if (names.isEmpty()) {
                assigned.remove(node);
            }
        }
        if (claims) {
            Seating was = seating;
            seating = Seating.of(mesh.nodes(), modules, mesh.assignments());
            candidates.addAll(referencing(seating.seatsChangedFrom(was)));
        }
        return candidates;
    }

    /** The nodes one of whose modules references one of {@code seats}. */
    private Set<String> referencing(Set<String> seats) {
        Set<String> referencing = new HashSet<>();
        if (seats.isEmpty()) {
            return referencing;
        }
        assigned.forEach((node, names) -> {
            for (String module : names) {
                SortedSet<String> needs = requirements.get(module);
                if (needs != null && needs.stream().anyMatch(seats::contains)) {
                    referencing.add(node);
                    return;
                }
            }
        });
        return referencing;
    }

    private void recomposeIfChanged(Node node) {
        NodeInputs inputs = inputs(node);
        Remembered memory = remembered.computeIfAbsent(node.name(), Remembered::new);
        if (!inputs.equals(memory.inputs)) {
            memory.inputs = inputs;
            memory.composed = composer.compose(node, inputs.manifests(), seating);
            memory.changes = null;
        }
    }

    private NodeInputs inputs(Node node) {
        List<Manifest> manifests = MeshComposer.manifests(
                assigned.getOrDefault(node.name(), List.of()).stream().distinct().toList(), modules);
        Map<String, SeatHolder> holders = new HashMap<>();
        List<List<Built>> builds = new ArrayList<>(manifests.size());
        for (Manifest manifest : manifests) {
            builds.add(moduleBuilds.get(manifest.module()));
            for (String seat : requirements.get(manifest.module())) {
                SeatHolder holder = seating.holderAsSeenFrom(seat, node.name());
                if (holder != null) {
                    holders.put(seat, holder);
                }
            }
        }
        return new NodeInputs(node, manifests, holders, seating.heldBy(node), layout, builds);
    }

    /**
     * The node's changes, reused for the same declarations (by reference), and while its
     * acknowledged and declared revisions stay the same.
     */
    private NodeChanges changes(Remembered memory, Declaration acknowledged) {
        Declaration declaration = memory.composed.declaration();
        if (memory.changes != null && acknowledged == memory.acknowledgedSeen && declaration == memory.declaredSeen) {
            return memory.changes;
        }
        String revision = acknowledged == null ? null : acknowledged.revision();
        if (declaration.revision().equals(revision)) {
            memory.changes = NodeChanges.NONE;
        } else if (memory.changes == null || !Objects.equals(memory.acknowledged, revision)
                || !declaration.revision().equals(memory.declared)) {
            memory.changes = NodeChanges.of(acknowledged, declaration, reasons);
        }
        memory.acknowledged = revision;
        memory.declared = declaration.revision();
        memory.acknowledgedSeen = acknowledged;
        memory.declaredSeen = declaration;
        return memory.changes;
    }

    private boolean isKnown(Assignment assignment) {
        return nodes.containsKey(assignment.node()) && modules.containsKey(assignment.module());
    }

    private boolean claimsSeats(String module) {
        Manifest manifest = modules.get(module);
        return manifest != null && !manifest.claims().isEmpty();
    }
}
