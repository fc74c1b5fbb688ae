package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * How {@code Composer} composes a mesh, in steps that planning reuses: each node composed in name
 * order and given to a consumer as soon as it is made, the mesh's own problems, and the assembly
 * of the nodes' results into a {@link Composition}. Not API.
 *
 * <p>Stateless and thread-safe.
 */
public final class MeshComposer {

    private MeshComposer() {
    }

    /**
     * Composes with what the caller already has for this mesh, giving each declaration to
     * {@code declared} as soon as it is made, in node order.
     *
     * @param built the builds done, by id, to pin the artifacts to
     * @param modules the manifests by module name, sorted ({@link Mesh#modulesByName})
     * @param assigned the modules assigned to each node name ({@link Mesh#assignedByNode()})
     */
    public static Composition compose(Mesh mesh, Map<String, Built> built, Map<String, Manifest> modules,
            Seating seating, Map<String, List<String>> assigned, Consumer<Declaration> declared) {
        Map<String, Manifest> byName = new HashMap<>(modules);
        List<Node> nodes = byName(mesh.nodes());
        List<NodeDeclaration.Composed> composed = new ArrayList<>(nodes.size());
        NodeComposer composer = new NodeComposer(mesh.layout(), built);
        int known = 0;
        boolean unknownModule = false;
        for (Node node : nodes) {
            List<String> names = assigned.getOrDefault(node.name(), List.of());
            List<Manifest> manifests = manifests(names, byName);
            known += names.size();
            unknownModule |= manifests.size() < distinct(names);
            NodeDeclaration.Composed one = composer.compose(node, manifests, seating);
            composed.add(one);
            if (one.declaration() != null) {
                declared.accept(one.declaration());
            }
        }
        // Only when an assignment names a node the mesh lacks (it was not counted above) or a module
        // the mesh lacks is each assignment looked at.
        List<Problem> unknownNames = List.of();
        if (unknownModule || known < mesh.assignments().size()) {
            Map<String, Node> named = new HashMap<>();
            nodes.forEach(node -> named.put(node.name(), node));
            unknownNames = unknownNames(mesh, named, byName);
        }
        return assemble(meshProblems(unknownNames, modules, seating), composed);
    }

    /** The nodes sorted by name; of two nodes with one name, the later in the mesh. */
    private static List<Node> byName(List<Node> nodes) {
        List<Node> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(Node::name));
        List<Node> distinct = new ArrayList<>(sorted.size());
        for (Node node : sorted) {
            if (!distinct.isEmpty() && distinct.getLast().name().equals(node.name())) {
                distinct.set(distinct.size() - 1, node);
            } else {
                distinct.add(node);
            }
        }
        return distinct;
    }

    /** @return how many different names a sorted list holds */
    private static int distinct(List<String> sorted) {
        int distinct = 0;
        String previous = null;
        for (String name : sorted) {
            if (!name.equals(previous)) {
                distinct++;
            }
            previous = name;
        }
        return distinct;
    }

    /**
     * The manifests of the named modules, in the order of the names, each once (the names are
     * sorted); unknown names are skipped.
     */
    public static List<Manifest> manifests(List<String> names, Map<String, Manifest> modules) {
        List<Manifest> manifests = new ArrayList<>(names.size());
        String previous = null;
        for (String name : names) {
            Manifest manifest = name.equals(previous) ? null : modules.get(name);
            previous = name;
            if (manifest != null) {
                manifests.add(manifest);
            }
        }
        return manifests;
    }

    /**
     * The problems of the mesh as a whole: unknown names in assignments, slug conflicts (the first
     * of two modules by name being the one named first), seat conflicts.
     *
     * @param modules the manifests, sorted by module name
     */
    public static List<Problem> meshProblems(List<Problem> unknownNames, Map<String, Manifest> modules, Seating seating) {
        return meshProblems(unknownNames, slugConflicts(modules), seating);
    }

    /**
     * The same, with the slugs' conflicts found before (by {@link #slugConflicts}, for the same
     * modules): a planner that keeps the modules finds them once.
     */
    public static List<Problem> meshProblems(List<Problem> unknownNames, List<Problem> slugConflicts, Seating seating) {
        List<Problem> problems = new ArrayList<>(unknownNames);
        problems.addAll(slugConflicts);
        problems.addAll(seating.conflicts());
        return problems;
    }

    /** The composition of the nodes, given in name order, with the mesh's problems. */
    public static Composition assemble(List<Problem> meshProblems, List<NodeDeclaration.Composed> nodes) {
        List<Problem> problems = new ArrayList<>(meshProblems);
        List<Declaration> declarations = new ArrayList<>(nodes.size());
        Map<String, List<Problem>> blocked = new TreeMap<>();
        for (NodeDeclaration.Composed node : nodes) {
            if (node.declaration() != null) {
                declarations.add(node.declaration());
            } else {
                blocked.put(node.node(), node.problems());
            }
            problems.addAll(node.problems());
        }
        problems.sort(PROBLEM_ORDER);
        return new Composition(declarations, problems, blocked);
    }

    /** The order of a composition's problems: by file, pointer, then message (a stable sort keeps the rest). */
    public static final Comparator<Problem> PROBLEM_ORDER = Comparator.comparing((Problem p) -> p.location().file())
            .thenComparing(p -> p.location().pointer()).thenComparing(Problem::message);

    /** Slugs are unique in the mesh (docs/design.md section 3). */
    public static List<Problem> slugConflicts(Map<String, Manifest> modules) {
        List<Problem> problems = new ArrayList<>();
        Map<String, Manifest> bySlug = new TreeMap<>();
        for (Manifest manifest : modules.values()) {
            Manifest first = bySlug.putIfAbsent(manifest.slug(), manifest);
            if (first != null) {
                problems.add(Problem.error("slug-conflict", "modules " + first.module() + " and " + manifest.module()
                        + " both have the slug \"" + manifest.slug() + "\"; slugs are unique in the mesh, give one "
                        + "of them another \"slug\"", Location.of("<mesh>").withPointer("/modules/" + manifest.module()))
                        .withRelated(List.of(Location.of("<mesh>").withPointer("/modules/" + first.module()))));
            }
        }
        return problems;
    }

    /** Assignments naming a node or module the mesh does not have, each located at its index. */
    public static List<Problem> unknownNames(Mesh mesh, Map<String, ?> nodes, Map<String, Manifest> modules) {
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < mesh.assignments().size(); i++) {
            Assignment assignment = mesh.assignments().get(i);
            if (nodes.containsKey(assignment.node()) && modules.containsKey(assignment.module())) {
                continue;
            }
            Location at = new Location("<mesh>", "/assignments/" + i, 0, 0);
            if (!nodes.containsKey(assignment.node())) {
                problems.add(Problem.error("unknown-node", "the assignment of " + assignment.module() + " names the "
                        + "node \"" + assignment.node() + "\", which the mesh does not have; add the node or fix the "
                        + "name", at));
            }
            if (!modules.containsKey(assignment.module())) {
                problems.add(Problem.error("unknown-module", "the assignment to " + assignment.node() + " names the "
                        + "module \"" + assignment.module() + "\", which the mesh does not have; push its manifest "
                        + "or fix the name", at));
            }
        }
        return problems;
    }
}
