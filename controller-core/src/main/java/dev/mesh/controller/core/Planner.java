package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Plans the mesh (DESIGN.md section 6): a pure function of the mesh, what each node last
 * acknowledged and which artifacts are built. No side effects; identical inputs give a
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
     * @param built ids of builds already done ({@code build:MODULE@VERSION/ARTIFACT})
     * @return the composition and the plan
     */
    public static Planning plan(Mesh mesh, Map<String, Declaration> acknowledged, Set<String> built) {
        Map<String, Manifest> modules = mesh.modulesByName();
        Seating seating = Seating.of(mesh.nodes(), modules, mesh.assignments());
        Composition composition = Composer.compose(mesh, seating);
        Map<String, Declaration> declared = new HashMap<>();
        List<NodeChanges> diffs = new ArrayList<>(composition.declarations().size());
        for (Declaration declaration : composition.declarations()) {
            declared.put(declaration.node(), declaration);
            diffs.add(NodeChanges.of(acknowledged.get(declaration.node()), declaration));
        }
        return assemble(new Composed(modules, seating, composition, declared::get,
                inputs(meshDigest(mesh), acknowledged)), diffs, built);
    }

    /**
     * A mesh composed, with what the rest of planning reads from it.
     *
     * @param modules its manifests by module name
     * @param seating its seating
     * @param composition its composition
     * @param declared a node's declaration by node name, or null when it has none
     * @param inputs the plan's inputs: {@code mesh}, the digest of the mesh's inputs (see
     *     {@link #meshDigest}), and {@code acknowledged/NODE}, each acknowledged revision
     */
    record Composed(Map<String, Manifest> modules, Seating seating, Composition composition,
            Function<String, Declaration> declared, Map<String, String> inputs) {
    }

    /** @return the key of a node's acknowledged revision in a plan's inputs */
    static String inputKey(String node) {
        return "acknowledged/" + node;
    }

    /**
     * The plan of a composed mesh, given each composed node's changes in node order: the rest of
     * {@link #plan}, shared with {@link IncrementalPlanner}. It reads only the nodes that have changes.
     */
    static Planning assemble(Composed composed, List<NodeChanges> diffs, Set<String> built) {
        List<Plan.Change> changes = new ArrayList<>();
        List<Plan.Orphan> orphans = new ArrayList<>();
        for (NodeChanges node : diffs) {
            changes.addAll(node.changes());
            orphans.addAll(node.orphans());
        }
        Map<String, Plan.Build> builds = builds(composed, changes, built);
        List<Plan.Change> linked = ordered(new Requirements(composed, changes, builds).link());
        return new Planning(composed.composition(), new Plan(Plan.FORMAT,
                composed.inputs(), linked, List.copyOf(builds.values()), orphans,
                summary(linked, builds.size())));
    }

    /** Each artifact a start or restart runs, once per (module, version, artifact), unless built. */
    private static Map<String, Plan.Build> builds(Composed composed, List<Plan.Change> changes, Set<String> built) {
        Map<Declaration.Artifact, String> ids = new HashMap<>();
        Map<String, List<String>> nodesByBuild = new HashMap<>();
        Map<String, Plan.Build> builds = new HashMap<>();
        for (Plan.Change change : changes) {
            Declaration.Process process = Requirements.process(composed, change);
            boolean runs = process != null && Requirements.is(change, "process")
                    && (change.actions().contains("start") || change.actions().contains("restart"));
            if (runs) {
                Manifest manifest = composed.modules().get(process.module());
                String id = ids.computeIfAbsent(process.artifact(), artifact -> buildId(manifest, artifact));
                if (!built.contains(id)) {
                    nodesByBuild.computeIfAbsent(id, k -> new ArrayList<>()).add(change.node());
                    builds.computeIfAbsent(id, k -> new Plan.Build(k, manifest.module(), manifest.version(),
                            process.artifact().name(), process.artifact().system(), List.of()));
                }
            }
        }
        Map<String, Plan.Build> sorted = new TreeMap<>();
        builds.forEach((id, b) -> sorted.put(id, new Plan.Build(id, b.module(), b.version(), b.artifact(), b.system(),
                nodesByBuild.get(id).stream().distinct().sorted().toList())));
        return sorted;
    }

    /**
     * Keeps the step order, except that a change moves after the changes of its own node that it
     * requires (a process that needs a seat held on its own node starts after the holder's). A
     * cycle keeps the step order for what remains of it.
     */
    private static List<Plan.Change> ordered(List<Plan.Change> changes) {
        Map<String, List<Plan.Change>> byNode = new LinkedHashMap<>();
        changes.forEach(change -> byNode.computeIfAbsent(change.node(), n -> new ArrayList<>()).add(change));
        List<Plan.Change> ordered = new ArrayList<>(changes.size());
        byNode.values().forEach(node -> ordered.addAll(topological(node)));
        return ordered;
    }

    /** Kahn's algorithm, always taking the earliest ready change, so the step order holds where it can. */
    private static List<Plan.Change> topological(List<Plan.Change> changes) {
        if (inOrder(changes)) {
            return changes;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < changes.size(); i++) {
            index.put(changes.get(i).id(), i);
        }
        int[] waiting = new int[changes.size()];
        List<List<Integer>> dependents = new ArrayList<>(changes.size());
        changes.forEach(change -> dependents.add(new ArrayList<>()));
        for (int i = 0; i < changes.size(); i++) {
            for (String required : changes.get(i).requires()) {
                Integer before = index.get(required.endsWith("#healthy")
                        ? required.substring(0, required.length() - "#healthy".length()) : required);
                if (before != null) {
                    waiting[i]++;
                    dependents.get(before).add(i);
                }
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < changes.size(); i++) {
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<Plan.Change> ordered = new ArrayList<>(changes.size());
        boolean[] placed = new boolean[changes.size()];
        while (ordered.size() < changes.size()) {
            int next = ready.isEmpty() ? firstUnplaced(placed) : ready.poll();
            if (placed[next]) {
                continue;
            }
            placed[next] = true;
            ordered.add(changes.get(next));
            for (int dependent : dependents.get(next)) {
                if (--waiting[dependent] == 0) {
                    ready.add(dependent);
                }
            }
        }
        return ordered;
    }

    /**
     * Whether every change comes after the changes of its node it requires, as it usually does: then
     * Kahn's algorithm, taking the earliest ready change, would give the same order back.
     */
    private static boolean inOrder(List<Plan.Change> changes) {
        String node = changes.getFirst().node() + "/";
        Set<String> placed = new HashSet<>(2 * changes.size());
        for (Plan.Change change : changes) {
            for (String required : change.requires()) {
                if (required.startsWith(node) && !placed.contains(required.endsWith("#healthy")
                        ? required.substring(0, required.length() - "#healthy".length()) : required)) {
                    return false;
                }
            }
            placed.add(change.id());
        }
        return true;
    }

    /** In a cycle nothing is ready: take the earliest change left. */
    private static int firstUnplaced(boolean[] placed) {
        for (int i = 0; i < placed.length; i++) {
            if (!placed[i]) {
                return i;
            }
        }
        throw new IllegalStateException("every change is placed");
    }

    static String buildId(Manifest manifest, Declaration.Artifact artifact) {
        return "build:" + manifest.module() + "@" + manifest.version() + "/" + artifact.name();
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

    private static Map<String, Integer> summary(List<Plan.Change> changes, int builds) {
        Map<String, Integer> summary = new TreeMap<>();
        for (Plan.Change change : changes) {
            summary.merge(change.actions().getFirst(), 1, Integer::sum);
        }
        if (builds > 0) {
            summary.put("build", builds);
        }
        return summary;
    }

    /** Adds what changes wait for beyond their node: builds, and the seat holders' processes. */
    private static final class Requirements {

        private final Composed composed;
        private final List<Plan.Change> changes;
        private final Map<String, Plan.Build> builds;
        /** Module name → the seats its templates reference, computed once per plan. */
        private final Map<String, Set<String>> requirements = new HashMap<>();
        /** Artifact → its build id. */
        private final Map<Declaration.Artifact, String> buildIds = new HashMap<>();
        /** Node name → the start or restart changes of its processes. */
        private final Map<String, List<Plan.Change>> starts = new HashMap<>();
        /** Node → seat → the ids of the starts of that seat's holders there. */
        private final Map<String, Map<String, List<String>>> holderStarts = new HashMap<>();

        Requirements(Composed composed, List<Plan.Change> changes, Map<String, Plan.Build> builds) {
            this.composed = composed;
            this.changes = changes;
            this.builds = builds;
            for (Plan.Change change : changes) {
                if (is(change, "process") && !change.actions().contains("stop")) {
                    starts.computeIfAbsent(change.node(), n -> new ArrayList<>()).add(change);
                }
            }
        }

        List<Plan.Change> link() {
            List<Plan.Change> linked = new ArrayList<>(changes.size());
            for (Plan.Change change : changes) {
                List<String> extra = extra(change);
                linked.add(extra.isEmpty() ? change : new Plan.Change(change.id(), change.node(),
                        change.actions(), change.reason(), merged(change.requires(), extra)));
            }
            return linked;
        }

        private List<String> extra(Plan.Change change) {
            Declaration.Process process = process(composed, change);
            if (process == null || change.actions().contains("stop")) {
                return List.of();
            }
            List<String> extra = new ArrayList<>();
            String build = buildIds.computeIfAbsent(process.artifact(),
                    artifact -> buildId(composed.modules().get(process.module()), artifact));
            if (builds.containsKey(build)) {
                extra.add(build);
            }
            Set<String> seats = requirements.computeIfAbsent(process.module(),
                    module -> composed.modules().get(module).requirements());
            for (String seat : seats) {
                SeatHolder holder = composed.seating().holderAsSeenFrom(seat, change.node());
                if (holder != null) {
                    extra.addAll(holderStarts(holder.node(), seat, change.id()));
                }
            }
            return extra;
        }

        /** The start or restart changes of the processes of the modules holding {@code seat} on {@code node}. */
        private List<String> holderStarts(String node, String seat, String self) {
            List<String> holders = holderStarts.computeIfAbsent(node, n -> new HashMap<>()).computeIfAbsent(seat,
                    key -> starts.getOrDefault(node, List.of()).stream()
                    .filter(c -> {
                        Declaration.Process holder = process(composed, c);
                        return holder != null && composed.modules().get(holder.module()).claims().stream()
                                .anyMatch(claim -> claim.name().equals(seat));
                    })
                    .map(Plan.Change::id).toList());
            return holders.contains(self) ? holders.stream().filter(id -> !id.equals(self)).toList() : holders;
        }

        /** The declared process a process or preparation change is about, or null. */
        static Declaration.Process process(Composed composed, Plan.Change change) {
            if (!is(change, "process") && !is(change, "prepare")) {
                return null;
            }
            Declaration declaration = composed.declared().apply(change.node());
            if (declaration == null) {
                return null;
            }
            String id = change.id();
            int name = id.indexOf(':') + 1;
            for (Declaration.Process process : declaration.processes()) {
                if (id.length() - name == process.name().length() && id.startsWith(process.name(), name)) {
                    return process;
                }
            }
            return null;
        }

        /** Whether the change's id is {@code NODE/KIND:…}, compared in place. */
        static boolean is(Plan.Change change, String kind) {
            String id = change.id();
            int at = change.node().length() + 1;
            return id.startsWith(kind, at) && id.length() > at + kind.length() && id.charAt(at + kind.length()) == ':';
        }

        /** Both lists, in order, each id once. */
        private static List<String> merged(List<String> first, List<String> second) {
            List<String> all = new ArrayList<>(first.size() + second.size());
            for (List<String> ids : List.of(first, second)) {
                for (String id : ids) {
                    if (!all.contains(id)) {
                        all.add(id);
                    }
                }
            }
            return all;
        }
    }
}
