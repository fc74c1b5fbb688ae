package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.compose.internal.MeshComposer;
import dev.mesh.controller.core.compose.internal.MeshDigest;
import dev.mesh.controller.core.plan.internal.NodeChanges;
import dev.mesh.controller.core.plan.internal.Requirements;
import dev.mesh.controller.manifest.Manifest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans the mesh (docs/design.md section 6): a pure function of the mesh, what each node last
 * acknowledged and which artifacts are built (with their digests, which the declarations pin). No side effects; identical inputs give a
 * byte-identical plan.
 *
 * <p>Stateless and thread-safe.
 */
public final class Planner {

    private Planner() {
    }

    /**
     * @param mesh nodes, manifests, assignments and layout
     * @param acknowledged each node's last acknowledged declaration; a node missing here has none
     * @param built the builds already done, by id ({@code build:MODULE@VERSION/ARTIFACT}): the
     *     declarations pin their artifacts, and the plan builds the others
     * @return the composition and the plan
     */
    public static Planning plan(Mesh mesh, Map<String, Declaration> acknowledged, Map<String, Built> built) {
        Map<String, Manifest> modules = mesh.modulesByName();
        Map<String, List<String>> assigned = mesh.assignedByNode();
        Seating seating = Seating.of(mesh.nodes(), modules, mesh.assignments());
        List<NodeChanges> diffs = new ArrayList<>(mesh.nodes().size());
        NodeChanges.Reasons reasons = new NodeChanges.Reasons();
        // Each node's changes are found as soon as it is composed, while its declaration is still
        // in the processor's caches.
        Composition composition = MeshComposer.compose(mesh, built, modules, seating, assigned,
                declaration -> diffs.add(NodeChanges.of(acknowledged.get(declaration.node()), declaration, reasons)));
        return assemble(new Composed(modules, seating, composition, inputs(MeshDigest.of(mesh, assigned),
                acknowledged)), diffs, built);
    }

    /**
     * A mesh composed, with what the rest of planning reads from it.
     *
     * @param modules its manifests by module name
     * @param seating its seating
     * @param composition its composition
     * @param inputs the plan's inputs: {@code mesh}, the digest of the mesh's inputs (see
     *     {@link #meshDigest}), and {@code acknowledged/NODE}, each acknowledged revision
     */
    record Composed(Map<String, Manifest> modules, Seating seating, Composition composition,
            Map<String, String> inputs) {
    }

    /** @return the key of a node's acknowledged revision in a plan's inputs */
    static String inputKey(String node) {
        return "acknowledged/" + node;
    }

    /**
     * The plan of a composed mesh, given each composed node's changes in node order: the rest of
     * {@link #plan}, shared with {@link IncrementalPlanner}. It reads only the nodes that have changes.
     */
    static Planning assemble(Composed composed, List<NodeChanges> diffs, Map<String, Built> built) {
        Requirements requirements = new Requirements(composed.modules(), composed.seating(), diffs, built.keySet());
        int count = 0;
        int[] counts = new int[NodeChanges.ACTIONS.size()];
        for (NodeChanges node : diffs) {
            count += node.changes().size();
            node.count(counts);
        }
        Plan.Change[] changes = new Plan.Change[count];
        List<Plan.Orphan> orphans = new ArrayList<>();
        int at = 0;
        for (NodeChanges node : diffs) {
            at = requirements.link(node, changes, at);
            if (!node.orphans().isEmpty()) {
                orphans.addAll(node.orphans());
            }
        }
        Map<String, Plan.Build> builds = requirements.builds();
        return new Planning(composed.composition(), new Plan(Plan.FORMAT, composed.inputs(), List.of(changes),
                List.copyOf(builds.values()), orphans, summary(counts, builds.size())));
    }

    /** The digest of what a plan is computed from, besides the acknowledged declarations ({@link MeshDigest}). */
    static String meshDigest(Mesh mesh) {
        return MeshDigest.of(mesh);
    }

    /** The plan's inputs; unordered, as {@link Plan} keeps them (its JSON sorts them). */
    static Map<String, String> inputs(String meshDigest, Map<String, Declaration> acknowledged) {
        Map<String, String> inputs = new HashMap<>(2 * acknowledged.size() + 2);
        inputs.put("mesh", meshDigest);
        acknowledged.forEach((node, declaration) -> inputs.put(inputKey(node), declaration.revision()));
        return inputs;
    }

    /** The counts of changes by first action (see {@link NodeChanges#counts()}), and of builds; each only if any. */
    private static Map<String, Integer> summary(int[] counts, int builds) {
        Map<String, Integer> summary = new TreeMap<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                summary.put(NodeChanges.ACTIONS.get(i), counts[i]);
            }
        }
        if (builds > 0) {
            summary.put("build", builds);
        }
        return summary;
    }
}
