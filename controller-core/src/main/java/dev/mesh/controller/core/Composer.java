package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Composes every node's {@link Declaration} from the manifests of the modules assigned to it
 * (DESIGN.md section 5). A pure function: the same mesh, in any order, gives the same
 * declarations, byte for byte. A node whose templates cannot all be resolved, or whose modules
 * conflict, gets no declaration but its problems; the other nodes still compose.
 *
 * <p>Stateless and thread-safe.
 */
public final class Composer {

    private Composer() {
    }

    /**
     * @param mesh nodes, manifests, assignments and layout
     * @return the declarations of the nodes that composed, and every problem
     */
    public static Composition compose(Mesh mesh) {
        return compose(mesh, Seating.of(mesh.nodes(), mesh.modulesByName(), mesh.assignments()));
    }

    /** Composes with a seating the caller already has for this mesh. */
    static Composition compose(Mesh mesh, Seating seating) {
        Map<String, Manifest> sorted = mesh.modulesByName();
        Map<String, Manifest> modules = new HashMap<>(sorted);
        Map<String, Node> nodes = new HashMap<>();
        mesh.nodes().forEach(node -> nodes.put(node.name(), node));
        Map<String, Set<String>> assigned = new HashMap<>();
        mesh.assignments().forEach(a -> assigned.computeIfAbsent(a.node(), n -> new TreeSet<>()).add(a.module()));
        List<NodeDeclaration.Composed> composed = new ArrayList<>(nodes.size());
        NodeComposer composer = new NodeComposer(mesh.layout());
        for (Node node : nodes.values().stream().sorted(Comparator.comparing(Node::name)).toList()) {
            composed.add(composer.compose(node, manifests(assigned.getOrDefault(node.name(), Set.of()), modules),
                    seating));
        }
        return assemble(meshProblems(unknownNames(mesh, nodes, modules), sorted, seating), composed);
    }

    /** The manifests of the named modules, in the order of the names; unknown names are skipped. */
    static List<Manifest> manifests(Collection<String> names, Map<String, Manifest> modules) {
        List<Manifest> manifests = new ArrayList<>(names.size());
        for (String name : names) {
            Manifest manifest = modules.get(name);
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
    static List<Problem> meshProblems(List<Problem> unknownNames, Map<String, Manifest> modules, Seating seating) {
        List<Problem> problems = new ArrayList<>(unknownNames);
        problems.addAll(slugConflicts(modules));
        problems.addAll(seating.conflicts());
        return problems;
    }

    /** The composition of the nodes, given in name order, with the mesh's problems. */
    static Composition assemble(List<Problem> meshProblems, List<NodeDeclaration.Composed> nodes) {
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
        problems.sort(Comparator.comparing((Problem p) -> p.location().file())
                .thenComparing(p -> p.location().pointer()).thenComparing(Problem::message));
        return new Composition(declarations, problems, blocked);
    }

    /** Slugs are unique in the mesh (DESIGN.md section 3). */
    private static List<Problem> slugConflicts(Map<String, Manifest> modules) {
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
    static List<Problem> unknownNames(Mesh mesh, Map<String, ?> nodes, Map<String, Manifest> modules) {
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
