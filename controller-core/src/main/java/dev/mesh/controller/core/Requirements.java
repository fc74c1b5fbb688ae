package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a plan's changes wait for beyond their node (DESIGN.md section 6): the builds of the
 * artifacts they run — each (module, version, artifact) once, for its system, shared by every node
 * that runs it — and the start of the processes holding the seats a process's module references,
 * on whatever node those are. Reads only the nodes that have changes, through their
 * {@link NodeChanges#runs() runs}.
 *
 * <p>One per plan; not thread-safe.
 */
final class Requirements {

    private final Map<String, Manifest> modules;
    private final Seating seating;
    /** Node name → its changes, for the nodes that run something. */
    private final Map<String, NodeChanges> running = new HashMap<>();
    /** Artifact → its build id. */
    private final Map<Declaration.Artifact, String> buildIds = new HashMap<>();
    /** Build id → the build, by id. */
    private final Map<String, Plan.Build> builds;
    /** Module name → the seats its templates reference. */
    private final Map<String, Set<String>> seats = new HashMap<>();
    /** Node → seat → the ids of the starts of that seat's holders there. */
    private final Map<String, Map<String, List<String>>> holderStarts = new HashMap<>();

    /**
     * @param modules the manifests by module name
     * @param seating the seating of the mesh
     * @param diffs every composed node's changes
     * @param built ids of builds already done
     */
    Requirements(Map<String, Manifest> modules, Seating seating, List<NodeChanges> diffs, Set<String> built) {
        this.modules = modules;
        this.seating = seating;
        for (NodeChanges node : diffs) {
            if (!node.runs().isEmpty()) {
                running.put(node.runs().getFirst().change().node(), node);
            }
        }
        this.builds = builds(diffs, built);
    }

    /** @return the builds the changes need, by id */
    Map<String, Plan.Build> builds() {
        return builds;
    }

    /**
     * The node's changes, each with what it waits for beyond the node added to its requirements, in
     * an order where every change comes after the changes it requires on its node: the order they
     * have, unless the start of a seat's holder on the same node was added.
     */
    List<Plan.Change> link(NodeChanges node) {
        if (node.runs().isEmpty()) {
            return node.changes();
        }
        List<Plan.Change> linked = new ArrayList<>(node.changes());
        boolean onItsNode = false;
        for (NodeChanges.Run run : node.runs()) {
            List<String> extra = new ArrayList<>();
            String build = buildId(run.process());
            if (builds.containsKey(build)) {
                extra.add(build);
            }
            String self = run.change().id();
            for (String seat : seats.computeIfAbsent(run.process().module(), m -> modules.get(m).requirements())) {
                SeatHolder holder = seating.holderAsSeenFrom(seat, run.change().node());
                for (String start : holder == null ? List.<String>of() : holderStarts(holder.node(), seat)) {
                    if (!start.equals(self)) {
                        extra.add(start);
                        onItsNode |= holder.node().equals(run.change().node());
                    }
                }
            }
            if (!extra.isEmpty()) {
                Plan.Change change = run.change();
                linked.set(run.at(), new Plan.Change(self, change.node(), change.actions(), change.reason(),
                        merged(change.requires(), extra)));
            }
        }
        return onItsNode ? topological(linked) : linked;
    }

    /** Each artifact a start or restart runs, once per (module, version, artifact), unless built. */
    private Map<String, Plan.Build> builds(List<NodeChanges> diffs, Set<String> built) {
        Map<String, Plan.Build> byId = new TreeMap<>();
        Map<String, List<String>> nodes = new HashMap<>();
        for (NodeChanges node : diffs) {
            for (NodeChanges.Run run : node.runs()) {
                String id = run.starts() ? buildId(run.process()) : null;
                if (id != null && !built.contains(id)) {
                    Manifest manifest = modules.get(run.process().module());
                    Declaration.Artifact artifact = run.process().artifact();
                    byId.computeIfAbsent(id, k -> new Plan.Build(k, manifest.module(), manifest.version(),
                            artifact.name(), artifact.system(), List.of()));
                    nodes.computeIfAbsent(id, k -> new ArrayList<>()).add(run.change().node());
                }
            }
        }
        byId.replaceAll((id, b) -> new Plan.Build(id, b.module(), b.version(), b.artifact(), b.system(),
                sortedDistinct(nodes.get(id))));
        return byId;
    }

    private String buildId(Declaration.Process process) {
        return buildIds.computeIfAbsent(process.artifact(),
                artifact -> Planner.buildId(modules.get(process.module()), artifact));
    }

    /** The ids of the start or restart changes of the processes of the modules holding {@code seat} on {@code node}. */
    private List<String> holderStarts(String node, String seat) {
        return holderStarts.computeIfAbsent(node, n -> new HashMap<>()).computeIfAbsent(seat, s -> {
            List<String> ids = new ArrayList<>();
            NodeChanges there = running.get(node);
            for (NodeChanges.Run run : there == null ? List.<NodeChanges.Run>of() : there.runs()) {
                if (run.starts() && modules.get(run.process().module()).claims().stream()
                        .anyMatch(claim -> claim.name().equals(seat))) {
                    ids.add(run.change().id());
                }
            }
            return ids;
        });
    }

    /** Both lists, in order, each id once. */
    private static List<String> merged(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first.size() + second.size());
        for (String id : first) {
            if (!all.contains(id)) {
                all.add(id);
            }
        }
        for (String id : second) {
            if (!all.contains(id)) {
                all.add(id);
            }
        }
        return all;
    }

    /** The names sorted, each once; they come sorted, in node order, so this is one pass. */
    private static List<String> sortedDistinct(List<String> names) {
        names.sort(null);
        List<String> distinct = new ArrayList<>(names.size());
        for (String name : names) {
            if (distinct.isEmpty() || !distinct.getLast().equals(name)) {
                distinct.add(name);
            }
        }
        return distinct;
    }

    /**
     * Keeps the step order, except that a change moves after the changes of its own node that it
     * requires (a process that needs a seat held on its own node starts after the holder's). A
     * cycle keeps the step order for what remains of it. Kahn's algorithm, always taking the
     * earliest ready change, so the step order holds where it can.
     */
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
                Integer before = index.get(withoutHealthy(required));
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
                if (required.startsWith(node) && !placed.contains(withoutHealthy(required))) {
                    return false;
                }
            }
            placed.add(change.id());
        }
        return true;
    }

    private static String withoutHealthy(String required) {
        return required.endsWith("#healthy") ? required.substring(0, required.length() - "#healthy".length())
                : required;
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
}
