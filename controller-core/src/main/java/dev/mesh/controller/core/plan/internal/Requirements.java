package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.SeatHolder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a plan's changes wait for beyond their node (docs/design.md section 6): the builds of the
 * artifacts they run — each (module, version, artifact) once, for its system, shared by every node
 * that runs it — and the start of the processes holding the seats a process's module references,
 * on whatever node those are. Reads only the nodes that have changes, through their
 * {@link NodeChanges#runs() runs}, and each once, as it links it: the builds are gathered as the
 * nodes are linked, since what a run waits for does not depend on them (see {@link #awaitedBuild}).
 *
 * <p>One per plan; not thread-safe.
 */
public final class Requirements {

    private final Map<String, Manifest> modules;
    private final Seating seating;
    private final Set<String> built;
    /** Every composed node's changes. */
    private final List<NodeChanges> diffs;
    /** Node name → its changes, for the nodes that run something; made when a seat's holder is first looked for. */
    private Map<String, NodeChanges> running;
    /** Artifact → its build id, named by the module of the first process found running it. */
    private final Map<Declaration.Artifact, String> buildIds = new HashMap<>();
    /**
     * The same by reference, in front. Why: composition shares one artifact instance per module,
     * so this mostly spares hashing and comparing the record's parts, once per run.
     */
    private final Map<Declaration.Artifact, String> buildIdsByReference = new IdentityHashMap<>();
    /** Build id → the build, as the first start found running its artifact makes it, without nodes. */
    private final Map<String, Plan.Build> builds = new HashMap<>();
    /** Build id → the nodes that run its artifact, in the order linked, a node not twice in a row. */
    private final Map<String, List<String>> buildNodes = new HashMap<>();
    /** The last node linked that runs something; whether each such node's name followed the one before. */
    private String lastRunning;
    private boolean inNameOrder = true;
    /** Module name → the seats its templates reference. */
    private final Map<String, Set<String>> seats = new HashMap<>();
    /** Node → seat → the ids of the starts of that seat's holders there. */
    private final Map<String, Map<String, List<String>>> holderStarts = new HashMap<>();
    /** What the run being linked waits for beyond its node; one list reused for every run. */
    private final List<String> extra = new ArrayList<>();

    /**
     * @param modules the manifests by module name
     * @param seating the seating of the mesh
     * @param diffs every composed node's changes
     * @param built ids of builds already done
     */
    public Requirements(Map<String, Manifest> modules, Seating seating, List<NodeChanges> diffs, Set<String> built) {
        this.modules = modules;
        this.seating = seating;
        this.diffs = diffs;
        this.built = built;
    }

    /**
     * @return the builds the changes need, by id: each artifact a start or restart runs, once per
     *     (module, version, artifact), unless built; complete once every node is linked. Its nodes
     *     are sorted, each once: when the nodes came in name order, as they usually do, they are
     *     already, a node's runs being linked together
     */
    public Map<String, Plan.Build> builds() {
        Map<String, Plan.Build> byId = new TreeMap<>();
        builds.forEach((id, b) -> byId.put(id, new Plan.Build(id, b.module(), b.version(), b.artifact(), b.system(),
                inNameOrder ? buildNodes.get(id) : sortedDistinct(buildNodes.get(id)))));
        return byId;
    }

    /**
     * Puts the node's changes into {@code into} from {@code at}, each with what it waits for beyond
     * the node added to its requirements, in an order where every change comes after the changes it
     * requires on its node: the order they have, unless the start of a seat's holder on the same
     * node was added.
     *
     * @return the place after the node's changes
     */
    public int link(NodeChanges node, Plan.Change[] into, int at) {
        if (!node.runs().isEmpty()) {
            inNameOrder &= lastRunning == null || lastRunning.compareTo(node.node()) < 0;
            lastRunning = node.node();
        }
        for (NodeChanges.Run run : node.runs()) {
            if (run.starts()) {
                addBuild(run, node.node());
            }
        }
        List<Plan.Change> changes = node.changes();
        for (int i = 0; i < changes.size(); i++) {
            into[at + i] = changes.get(i);
        }
        boolean onItsNode = false;
        for (NodeChanges.Run run : node.runs()) {
            onItsNode |= collectExtra(run);
            if (!extra.isEmpty()) {
                Plan.Change change = run.change();
                into[at + run.at()] = new Plan.Change(change.id(), change.node(), change.actions(), change.reason(),
                        merged(change.requires(), change.node()));
            }
        }
        if (onItsNode) {
            List<Plan.Change> linked = Arrays.asList(into).subList(at, at + changes.size());
            List<Plan.Change> ordered = ChangeOrder.topological(linked);
            if (ordered != linked) {
                for (int i = 0; i < ordered.size(); i++) {
                    into[at + i] = ordered.get(i);
                }
            }
        }
        return at + changes.size();
    }

    /**
     * Fills {@link #extra} with what the run waits for beyond its node: the build of its artifact
     * and the starts of the holders of the seats its module references, but its own.
     *
     * @return whether one of those starts is on the run's own node
     */
    private boolean collectExtra(NodeChanges.Run run) {
        extra.clear();
        String build = awaitedBuild(run.process());
        if (!build.isEmpty()) {
            extra.add(build);
        }
        String node = run.change().node();
        boolean onItsNode = false;
        for (String seat : seats(run.process().module())) {
            SeatHolder holder = seating.holderAsSeenFrom(seat, node);
            for (String start : holder == null ? List.<String>of() : holderStarts(holder.node(), seat)) {
                if (!ofNode(start, node) || !start.equals(run.change().id())) {
                    extra.add(start);
                    onItsNode |= holder.node().equals(node);
                }
            }
        }
        return onItsNode;
    }

    /**
     * The run's requirements, then {@link #extra}, each id once. Why only some ids are compared by
     * their text: the requirements are ids of changes of the node (see {@link NodeChanges}), where
     * equal ids are the same instance, and only an id that begins like the node's ids can equal one.
     */
    private List<String> merged(List<String> requires, String node) {
        String[] all = new String[requires.size() + extra.size()];
        int count = 0;
        for (String id : requires) {
            if (!containsInstance(all, count, id)) {
                all[count++] = id;
            }
        }
        int own = count;
        for (String id : extra) {
            if (!contains(all, ofNode(id, node) ? 0 : own, count, id)) {
                all[count++] = id;
            }
        }
        return List.of(count == all.length ? all : Arrays.copyOf(all, count));
    }

    /** Whether {@code id} begins as the ids of the changes of {@code node} do: {@code NODE/}. */
    private static boolean ofNode(String id, String node) {
        return id.length() > node.length() && id.charAt(node.length()) == '/' && id.startsWith(node);
    }

    private static boolean containsInstance(String[] ids, int count, String id) {
        for (int i = 0; i < count; i++) {
            if (ids[i] == id) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(String[] ids, int from, int to, String id) {
        for (int i = from; i < to; i++) {
            if (ids[i].equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** Adds the node to the build of the artifact a start or restart runs, unless that is built. */
    private void addBuild(NodeChanges.Run run, String node) {
        String id = buildId(run.process());
        if (built.contains(id)) {
            return;
        }
        List<String> nodes = buildNodes.get(id);
        if (nodes == null) {
            Manifest manifest = modules.get(run.process().module());
            Declaration.Artifact artifact = run.process().artifact();
            builds.put(id, new Plan.Build(id, manifest.module(), manifest.version(), artifact.name(),
                    artifact.system(), List.of()));
            nodes = new ArrayList<>();
            buildNodes.put(id, nodes);
        }
        if (nodes.isEmpty() || nodes.getLast() != node) {
            nodes.add(node);
        }
    }

    private String buildId(Declaration.Process process) {
        String id = buildIdsByReference.get(process.artifact());
        if (id == null) {
            id = buildIds.computeIfAbsent(process.artifact(),
                    artifact -> Plan.buildId(modules.get(process.module()), artifact));
            buildIdsByReference.put(process.artifact(), id);
        }
        return id;
    }

    /**
     * The id of the build a run of the process waits for: its artifact's, unless built; else empty.
     * Why the plan builds it then: a start runs it, or, for a preparation, the start of the same
     * process on the same node, whose build {@link #link} added first.
     */
    private String awaitedBuild(Declaration.Process process) {
        String id = buildId(process);
        return built.contains(id) ? "" : id;
    }

    private Set<String> seats(String module) {
        Set<String> referenced = seats.get(module);
        if (referenced == null) {
            referenced = modules.get(module).requirements();
            seats.put(module, referenced);
        }
        return referenced;
    }

    private Map<String, NodeChanges> running() {
        if (running == null) {
            running = new HashMap<>();
            for (NodeChanges node : diffs) {
                if (!node.runs().isEmpty()) {
                    running.put(node.node(), node);
                }
            }
        }
        return running;
    }

    /** The ids of the start or restart changes of the processes of the modules holding {@code seat} on {@code node}. */
    private List<String> holderStarts(String node, String seat) {
        Map<String, List<String>> bySeat = holderStarts.computeIfAbsent(node, n -> new HashMap<>());
        List<String> ids = bySeat.get(seat);
        if (ids == null) {
            ids = new ArrayList<>();
            NodeChanges there = running().get(node);
            for (NodeChanges.Run run : there == null ? List.<NodeChanges.Run>of() : there.runs()) {
                if (run.starts() && modules.get(run.process().module()).claims().stream()
                        .anyMatch(claim -> claim.name().equals(seat))) {
                    ids.add(run.change().id());
                }
            }
            bySeat.put(seat, ids);
        }
        return ids;
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
}
