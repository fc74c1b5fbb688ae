package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
        List<Plan.Change> changes = new ArrayList<>();
        List<Plan.Orphan> orphans = new ArrayList<>();
        for (Declaration declaration : composition.declarations()) {
            NodeChanges node = NodeChanges.of(acknowledged.get(declaration.node()), declaration);
            changes.addAll(node.changes());
            orphans.addAll(node.orphans());
        }
        Map<String, Plan.Build> builds = builds(composition, modules, changes, built);
        List<Plan.Change> linked = ordered(new Requirements(mesh, modules, seating, composition, changes, builds)
                .link());
        return new Planning(composition, new Plan(Plan.FORMAT, inputs(mesh, acknowledged), linked,
                List.copyOf(builds.values()), orphans, summary(linked, builds.size())));
    }

    /** Each artifact a start, restart or preparation runs, once per (module, version, artifact), unless built. */
    private static Map<String, Plan.Build> builds(Composition composition, Map<String, Manifest> modules,
            List<Plan.Change> changes, Set<String> built) {
        Map<String, Plan.Change> byId = new java.util.HashMap<>();
        changes.forEach(change -> byId.put(change.id(), change));
        Map<String, List<String>> nodesByBuild = new TreeMap<>();
        Map<String, Plan.Build> builds = new TreeMap<>();
        for (Declaration declaration : composition.declarations()) {
            for (Declaration.Process process : declaration.processes()) {
                Plan.Change change = byId.get(NodeChanges.id(declaration.node(), "process", process.name()));
                boolean runs = change != null
                        && (change.actions().contains("start") || change.actions().contains("restart"));
                Manifest manifest = modules.get(process.module());
                String id = buildId(manifest, process.artifact());
                if (runs && !built.contains(id)) {
                    nodesByBuild.computeIfAbsent(id, k -> new ArrayList<>()).add(declaration.node());
                    builds.put(id, new Plan.Build(id, manifest.module(), manifest.version(),
                            process.artifact().name(), process.artifact().system(), List.of()));
                }
            }
        }
        builds.replaceAll((id, b) -> new Plan.Build(id, b.module(), b.version(), b.artifact(), b.system(),
                nodesByBuild.get(id).stream().distinct().sorted().toList()));
        return builds;
    }

    /**
     * Keeps the step order, except that a change moves after the changes of its own node that it
     * requires (a process that needs a seat held on its own node starts after the holder's). A
     * cycle keeps the step order for what remains of it.
     */
    private static List<Plan.Change> ordered(List<Plan.Change> changes) {
        Map<String, List<Plan.Change>> byNode = new java.util.LinkedHashMap<>();
        changes.forEach(change -> byNode.computeIfAbsent(change.node(), n -> new ArrayList<>()).add(change));
        List<Plan.Change> ordered = new ArrayList<>(changes.size());
        byNode.values().forEach(node -> ordered.addAll(topological(node)));
        return ordered;
    }

    /** Kahn's algorithm, always taking the earliest ready change, so the step order holds where it can. */
    private static List<Plan.Change> topological(List<Plan.Change> changes) {
        Map<String, Integer> index = new java.util.HashMap<>();
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
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
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

    private static Map<String, String> inputs(Mesh mesh, Map<String, Declaration> acknowledged) {
        Map<String, String> versions = new TreeMap<>();
        mesh.modules().forEach(m -> versions.put(m.module(), m.version()));
        List<Node> nodes = mesh.nodes().stream().sorted(java.util.Comparator.comparing(Node::name)).toList();
        List<Assignment> assignments = mesh.assignments().stream().sorted(java.util.Comparator
                .comparing(Assignment::node).thenComparing(Assignment::module)).toList();
        Map<String, String> inputs = new TreeMap<>();
        inputs.put("mesh", CanonicalJson.digest(List.of(nodes, versions, assignments, mesh.layout())));
        acknowledged.forEach((node, declaration) -> inputs.put("acknowledged/" + node, declaration.revision()));
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

        private final Map<String, Manifest> modules;
        private final Seating seating;
        private final List<Plan.Change> changes;
        private final Map<String, Plan.Build> builds;
        private final Map<String, Node> nodes = new java.util.HashMap<>();
        /** Node name → process name → its declaration. */
        private final Map<String, Map<String, Declaration.Process>> processes = new java.util.HashMap<>();
        /** Node name → the start or restart changes of its processes. */
        private final Map<String, List<Plan.Change>> starts = new java.util.HashMap<>();
        /** "NODE SEAT" → the ids of the starts of that seat's holders there. */
        private final Map<String, List<String>> holderStarts = new java.util.HashMap<>();

        Requirements(Mesh mesh, Map<String, Manifest> modules, Seating seating, Composition composition,
                List<Plan.Change> changes, Map<String, Plan.Build> builds) {
            this.modules = modules;
            this.seating = seating;
            this.changes = changes;
            this.builds = builds;
            mesh.nodes().forEach(node -> nodes.put(node.name(), node));
            for (Declaration declaration : composition.declarations()) {
                Map<String, Declaration.Process> byName = new java.util.HashMap<>();
                declaration.processes().forEach(process -> byName.put(process.name(), process));
                processes.put(declaration.node(), byName);
            }
            for (Plan.Change change : changes) {
                if (kind(change).equals("process") && !change.actions().contains("stop")) {
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
            Declaration.Process process = process(change);
            if (process == null || change.actions().contains("stop")) {
                return List.of();
            }
            List<String> extra = new ArrayList<>();
            String build = buildId(modules.get(process.module()), process.artifact());
            if (builds.containsKey(build)) {
                extra.add(build);
            }
            Node node = nodes.get(change.node());
            for (String seat : modules.get(process.module()).requirements()) {
                seating.holder(seat, node).ifPresent(holder -> holderStarts(holder.node(), seat, change.id())
                        .forEach(extra::add));
            }
            return extra;
        }

        /** The start or restart changes of the processes of the modules holding {@code seat} on {@code node}. */
        private List<String> holderStarts(String node, String seat, String self) {
            List<String> holders = holderStarts.computeIfAbsent(node + " " + seat, key -> starts
                    .getOrDefault(node, List.of()).stream()
                    .filter(c -> {
                        Declaration.Process holder = process(c);
                        return holder != null && modules.get(holder.module()).claims().stream()
                                .anyMatch(claim -> claim.name().equals(seat));
                    })
                    .map(Plan.Change::id).toList());
            return holders.contains(self) ? holders.stream().filter(id -> !id.equals(self)).toList() : holders;
        }

        /** The declared process a process or preparation change is about, or null. */
        private Declaration.Process process(Plan.Change change) {
            String kind = kind(change);
            if (!kind.equals("process") && !kind.equals("prepare")) {
                return null;
            }
            String name = change.id().substring(change.id().indexOf(':') + 1);
            return processes.getOrDefault(change.node(), Map.of()).get(name);
        }

        private static String kind(Plan.Change change) {
            return change.id().substring(change.node().length() + 1, change.id().indexOf(':'));
        }

        private static List<String> merged(List<String> first, List<String> second) {
            Set<String> all = new LinkedHashSet<>(first);
            all.addAll(second);
            return List.copyOf(all);
        }
    }
}
