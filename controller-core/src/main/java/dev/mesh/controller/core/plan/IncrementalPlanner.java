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
import dev.mesh.controller.core.internal.collect.ChunkedList;
import dev.mesh.controller.core.internal.collect.PlanInputs;
import dev.mesh.controller.core.plan.internal.AssignmentDelta;
import dev.mesh.controller.core.plan.internal.NodeChanges;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

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
 * <p>What a plan is assembled from is kept between calls too: the declarations in node order, the
 * nodes that have changes, the nodes with problems, the acknowledged revisions of the plan's
 * inputs ({@link PlanInputs}) and the mesh digest's buckets; a call updates them for the nodes it
 * touched. So a call costs work per node touched, not per node of the mesh — provided it can find
 * the touched nodes without visiting every node:
 * <ul>
 *   <li>told what changed ({@link #plan(Mesh, Map, Map, Delta)}): the assignments taken out and put
 *       in, and the nodes whose acknowledged declaration changed, as a caller that holds the mesh in
 *       memory knows them;
 *   <li>else it compares: the assignment lists in one pass of reference comparisons
 *       ({@link AssignmentDelta}), and each node's acknowledged declaration with the one of the
 *       previous call by reference — unless the map is the previous call's own and unmodifiable
 *       ({@link Map#of}, {@link Map#copyOf}), which cannot have changed.
 * </ul>
 * A change of the nodes, the manifests, the layout or the builds regroups every assignment and
 * checks every node's inputs (still recomposing only the nodes whose inputs changed).
 *
 * <p>Thread-safe: calls are serialized. It holds the previous mesh and, per node, one composition
 * and one set of changes. A call that fails leaves it to start over from the next mesh.
 */
public final class IncrementalPlanner {

    /**
     * What changed since the previous call, as a caller that keeps the mesh knows it: {@code mesh}'s
     * assignments are the previous call's without {@code removed} and with {@code added} (counting
     * repeats), and the acknowledged declarations differ from the previous call's at most for the
     * nodes named in {@code acknowledged}. The planner trusts it; it checks only what costs nothing
     * (the nodes, manifests and layout the same instances, the builds equal, the number of
     * assignments), and compares instead when one of those does not hold.
     *
     * @param removed assignments taken out
     * @param added assignments put in
     * @param acknowledged the nodes whose acknowledged declaration was recorded, replaced or dropped
     */
    public record Delta(List<Assignment> removed, List<Assignment> added, Set<String> acknowledged) {

        /** Copies the parts. */
        public Delta {
            removed = List.copyOf(removed);
            added = List.copyOf(added);
            acknowledged = Set.copyOf(acknowledged);
        }

        /** @return the same change undone: what was added removed, and the other way round */
        public Delta inverse() {
            return new Delta(added, removed, acknowledged);
        }
    }

    /** What a node's composition is a function of (see {@link NodeDeclaration#compose}). */
    private record NodeInputs(Node node, List<Manifest> manifests, Map<String, SeatHolder> holders,
            List<String> seats, Layout layout, List<List<Built>> builds) {
    }

    /**
     * What is remembered of one node: its place in name order, its composition, its last changes
     * with their key, and the acknowledged declaration of the last call.
     */
    private static final class Remembered {
        private final String name;
        private final String inputKey;
        private int at;
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
        /** The acknowledged declaration of the last call, whether or not the node composed. */
        private Declaration acknowledgedNow;

        private Remembered(String name) {
            this.name = name;
            this.inputKey = Planner.inputKey(name);
        }
    }

    /** The classes of the JDK's unmodifiable maps: of one entry, and of none or several. */
    private static final Class<?> UNMODIFIABLE_ONE = Map.of("", "").getClass();
    private static final Class<?> UNMODIFIABLE_MANY = Map.of("", "", " ", "").getClass();

    /** The mesh of the last call that completed; null before the first, and after a failed call. */
    private Mesh previous;
    private Layout layout;
    private Map<String, Built> built = Map.of();
    /** Module name → the builds done of its artifacts, in the order of its manifest. */
    private final Map<String, List<Built>> moduleBuilds = new HashMap<>();
    private Map<String, Manifest> modules = Map.of();
    /** The modules' slug conflicts, found when the modules change. */
    private List<Problem> slugConflicts = List.of();
    private Map<String, Node> nodes = Map.of();
    private List<Node> inNameOrder = List.of();
    /** What is remembered of each node of {@link #inNameOrder}, in that order; null after a regroup. */
    private Remembered[] inOrder;
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
    /** The acknowledged declarations of the last call that completed. */
    private Map<String, Declaration> acknowledgedBefore;
    /** Each node's declaration, in name order; null for a node that did not compose. */
    private ChunkedList.Builder<Declaration> declared = new ChunkedList.Builder<>(0);
    /** The declarations handed to the last plan, while no node's declaration changed; else null. */
    private List<Declaration> declarations;
    /** The nodes whose changes are not empty, by name: what a plan is assembled from. */
    private final TreeMap<String, NodeChanges> pending = new TreeMap<>();
    /** The nodes whose composition found problems; those of them without a declaration. */
    private final TreeMap<String, List<Problem>> nodeProblems = new TreeMap<>();
    private final TreeMap<String, List<Problem>> blocked = new TreeMap<>();
    /** The plan inputs' keys, {@code acknowledged/NODE} in name order, and the acknowledged revisions. */
    private String[] inputKeys = new String[0];
    private String[] revisions = new String[0];
    /** Whether {@link #revisions} went into a plan's {@link PlanInputs}: copied before it is written. */
    private boolean revisionsShared;
    private int acknowledgedCount;

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
    public Planning plan(Mesh mesh, Map<String, Declaration> acknowledged, Map<String, Built> built) {
        return plan(mesh, acknowledged, built, null);
    }

    /**
     * Plans {@code mesh}, told what changed since the previous call: the touched nodes are found
     * without visiting the others.
     *
     * @param mesh nodes, manifests, assignments and layout
     * @param acknowledged each node's last acknowledged declaration, carrying the revision
     *     composition gave it; a node missing here has none
     * @param built the builds already done, by id ({@code build:MODULE@VERSION/ARTIFACT})
     * @param delta what changed since the previous call (see {@link Delta}); null to compare
     * @return what {@link Planner#plan} returns for the same arguments, when {@code delta} says what changed
     * @throws NullPointerException if an argument but {@code delta} is null
     */
    public synchronized Planning plan(Mesh mesh, Map<String, Declaration> acknowledged, Map<String, Built> built,
            Delta delta) {
        Objects.requireNonNull(mesh, "mesh");
        Objects.requireNonNull(acknowledged, "acknowledged");
        Objects.requireNonNull(built, "built");
        Mesh before = previous;
        Map<String, Declaration> acknowledgedThen = acknowledgedBefore;
        previous = null;
        acknowledgedBefore = null;
        boolean regroup = !sameExceptAssignments(before, mesh) || !built.equals(this.built);
        Delta told = regroup || delta == null || mesh.assignments().size()
                != before.assignments().size() - delta.removed().size() + delta.added().size() ? null : delta;
        Set<String> candidates = regroup ? regroup(mesh, built)
                : reassign(told != null ? new AssignmentDelta(told.removed(), told.added())
                        : AssignmentDelta.between(before.assignments(), mesh.assignments()), mesh);
        List<Remembered> touched = touched(candidates, acknowledged, acknowledgedThen, told);
        for (Remembered memory : touched) {
            refresh(memory, acknowledged.get(memory.name));
        }
        String meshDigest = digest.digest();
        Map<String, String> inputs = acknowledgedCount == acknowledged.size()
                ? new PlanInputs(meshDigest, inputKeys, revisions, acknowledgedCount)
                : Planner.inputs(meshDigest, acknowledged);
        revisionsShared = true;
        List<Problem> unknownNames = unknown > 0 ? MeshComposer.unknownNames(mesh, nodes, modules) : List.of();
        Planning planning = Planner.assemble(new Planner.Composed(modules, seating,
                composition(MeshComposer.meshProblems(unknownNames, slugConflicts, seating)), inputs),
                new ArrayList<>(pending.values()), built);
        previous = mesh;
        acknowledgedBefore = acknowledged;
        return planning;
    }

    /**
     * The nodes a call must bring up to date: those recomposed among the candidates, and those whose
     * acknowledged declaration changed — named by the delta, or found by comparing each node's with the
     * previous call's, unless the map is that call's own and unmodifiable. Every node after a regroup.
     */
    private List<Remembered> touched(Set<String> candidates, Map<String, Declaration> acknowledged,
            Map<String, Declaration> acknowledgedThen, Delta told) {
        List<Remembered> touched = new ArrayList<>();
        for (String name : candidates) {
            Node node = nodes.get(name);
            Remembered memory = node == null ? null : recomposeIfChanged(node);
            if (memory != null) {
                touched.add(memory);
            }
        }
        if (inOrder == null) {
            startOver();
            return Arrays.asList(inOrder);
        }
        if (told != null) {
            for (String name : told.acknowledged()) {
                Remembered memory = remembered.get(name);
                if (memory != null) {
                    touched.add(memory);
                }
            }
        } else if (acknowledged != acknowledgedThen || !unmodifiable(acknowledged)) {
            for (Remembered memory : inOrder) {
                if (acknowledged.get(memory.name) != memory.acknowledgedNow) {
                    touched.add(memory);
                }
            }
        }
        return touched;
    }

    /** Whether the map is one the JDK made unmodifiable ({@link Map#of}, {@link Map#copyOf}): it cannot have changed. */
    private static boolean unmodifiable(Map<String, Declaration> map) {
        Class<?> type = map.getClass();
        return type == UNMODIFIABLE_ONE || type == UNMODIFIABLE_MANY;
    }

    /** After a regroup: every node in name order, with its place and nothing assembled yet. */
    private void startOver() {
        inOrder = new Remembered[inNameOrder.size()];
        inputKeys = new String[inOrder.length];
        for (int at = 0; at < inOrder.length; at++) {
            Remembered memory = remembered.get(inNameOrder.get(at).name());
            memory.at = at;
            memory.acknowledgedNow = null;
            inOrder[at] = memory;
            inputKeys[at] = memory.inputKey;
        }
        declared = new ChunkedList.Builder<>(inOrder.length);
        declarations = null;
        revisions = new String[inOrder.length];
        revisionsShared = false;
        acknowledgedCount = 0;
        pending.clear();
        nodeProblems.clear();
        blocked.clear();
    }

    /**
     * Brings what a plan is assembled from up to date for one node: its declaration, problems,
     * acknowledged revision and changes.
     */
    private void refresh(Remembered memory, Declaration acknowledged) {
        NodeDeclaration.Composed composed = memory.composed;
        Declaration declaration = composed.declaration();
        if (declared.get(memory.at) != declaration) {
            declared.set(memory.at, declaration);
            declarations = null;
        }
        if (composed.problems().isEmpty()) {
            nodeProblems.remove(memory.name);
        } else {
            nodeProblems.put(memory.name, composed.problems());
        }
        if (declaration == null) {
            blocked.put(memory.name, composed.problems());
        } else {
            blocked.remove(memory.name);
        }
        String revision = acknowledged == null ? null : acknowledged.revision();
        if (!Objects.equals(revisions[memory.at], revision)) {
            if (revisionsShared) {
                revisions = revisions.clone();
                revisionsShared = false;
            }
            acknowledgedCount += (revision == null ? 0 : 1) - (revisions[memory.at] == null ? 0 : 1);
            revisions[memory.at] = revision;
        }
        memory.acknowledgedNow = acknowledged;
        NodeChanges changes = declaration == null ? NodeChanges.NONE : changes(memory, acknowledged);
        if (changes.changes().isEmpty() && changes.orphans().isEmpty() && changes.runs().isEmpty()) {
            pending.remove(memory.name);
        } else {
            pending.put(memory.name, changes);
        }
    }

    /**
     * The composition, as {@code MeshComposer.assemble} makes it from every node: the declarations
     * in node order (a snapshot sharing all but the changed chunks, or a copy of those there are
     * when a node did not compose), the nodes' problems after the mesh's, sorted.
     */
    private Composition composition(List<Problem> meshProblems) {
        if (declarations == null) {
            if (declared.complete()) {
                declarations = declared.snapshot();
            } else {
                List<Declaration> composed = new ArrayList<>(inOrder.length - blocked.size());
                for (int at = 0; at < inOrder.length; at++) {
                    if (declared.get(at) != null) {
                        composed.add(declared.get(at));
                    }
                }
                declarations = List.copyOf(composed);
            }
        }
        List<Problem> problems = meshProblems;
        if (!nodeProblems.isEmpty() || !problems.isEmpty()) {
            problems = new ArrayList<>(meshProblems);
            nodeProblems.values().forEach(problems::addAll);
            problems.sort(MeshComposer.PROBLEM_ORDER);
        }
        return new Composition(declarations, problems, blocked);
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
        slugConflicts = MeshComposer.slugConflicts(modules);
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
    private Set<String> reassign(AssignmentDelta delta, Mesh mesh) {
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

    /** @return the node's memory when it was recomposed (or is new), else null */
    private Remembered recomposeIfChanged(Node node) {
        NodeInputs inputs = inputs(node);
        Remembered memory = remembered.computeIfAbsent(node.name(), Remembered::new);
        if (inputs.equals(memory.inputs)) {
            return null;
        }
        memory.inputs = inputs;
        memory.composed = composer.compose(node, inputs.manifests(), seating);
        memory.changes = null;
        return memory;
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
