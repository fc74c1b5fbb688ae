package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.execute.Rollout;
import dev.mesh.controller.core.plan.PlanText;
import dev.mesh.controller.manifest.Claim;
import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The read verbs: answers built from a {@link State}, never holding the plan lock. */
final class Reads {

    private Reads() {
    }

    /**
     * How many nodes a page of {@code nodes} holds when the caller gives no {@code limit}: the most it may
     * ask for (the schema's {@code maximum}). A default page rather than every node, as Kubernetes' lists
     * chunk: at 100,000 nodes every node is tens of megabytes of answer, several times the 4 MiB a message on
     * the broker may hold, and what one call costs must not grow with the mesh.
     */
    static final int PAGE = 1000;

    /**
     * One page of the nodes, in name order: the first {@code limit} named after {@code after}, each with
     * its seats and when it was seen, and {@code next}, the cursor of the following page, only when more
     * nodes follow. Reads one more node than the page holds to know whether more follow, and only the
     * sightings and assignments of the page's range of names: a page costs in proportion to the page, not
     * the mesh.
     *
     * <p>Written as a tree directly, not as maps for Jackson to convert: with 10,000 nodes the answer
     * was a megabyte, and the maps and their conversion were a third of what the verb allocated.
     *
     * @param after the node name the page starts after ({@code ""} for the first)
     * @param limit at most this many nodes, 1 to {@link #PAGE}
     * @param now the verbs' clock, which says which nodes are silent
     */
    static ObjectNode nodes(State state, String after, int limit, Instant now) {
        List<Node> read = state.nodes(after, limit + 1);
        List<Node> page = read.size() > limit ? read.subList(0, limit) : read;
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        ArrayNode nodes = answer.putArray("nodes");
        if (page.isEmpty()) {
            return answer;
        }
        Seating seating = state.seating(after, page);
        Map<String, Sighting> sightings = state.sightings(after, page);
        for (Node node : page) {
            ObjectNode entry = nodes.addObject()
                    .put("name", node.name())
                    .put("address", node.address())
                    .put("system", node.system());
            ArrayNode seats = entry.putArray("seats");
            seating.heldBy(node).forEach(seats::add);
            seen(entry, sightings.get(node.name()), now);
        }
        if (page.size() < read.size()) {
            answer.put("next", Cursor.after(page.getLast().name()));
        }
        return answer;
    }

    /**
     * What the node's latest facts say: the revision it applied, when it was last seen and whether
     * it is silent. A node never heard from has {@code null} for both and is not silent: it has not
     * stopped reporting, it never began (a node from a mesh file whose host has not started yet).
     */
    private static void seen(ObjectNode entry, Sighting seen, Instant now) {
        if (seen == null) {
            entry.putNull("revision").putNull("lastSeen").put("silent", false);
        } else {
            entry.put("revision", seen.appliedRevision().orElse(null))
                    .put("lastSeen", seen.at().toString())
                    .put("silent", seen.silentAt(now));
        }
    }

    /** @param now the verbs' clock, which says whether the node is silent */
    static Map<String, Object> node(State state, String name, Instant now) {
        Node node = state.nodes().stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new VerbException(VerbException.Code.NOT_FOUND, "there is no node \"" + name
                        + "\"; nodes report themselves when their host starts", "/name"));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("node", node);
        answer.put("modules", state.mesh().assignments().stream().filter(a -> a.node().equals(name))
                .map(Assignment::module).sorted().toList());
        answer.put("seats", state.seating().heldBy(node));
        Declaration acknowledged = state.acknowledged().get(name);
        answer.put("acknowledged", acknowledged == null ? "" : acknowledged.revision());
        Facts facts = state.facts(name).orElse(null);
        answer.put("revision", facts == null ? null : facts.appliedRevision().orElse(null));
        answer.put("lastSeen", facts == null ? null : facts.at().toString());
        answer.put("silent", facts != null && facts.silentAt(now));
        answer.put("processes", facts == null ? List.of() : facts.processes().stream().map(Reads::process).toList());
        state.planning().composition().declarations().stream().filter(d -> d.node().equals(name)).findFirst()
                .ifPresent(declaration -> answer.put("declaration", declaration));
        answer.put("problems", state.planning().composition().blocked().getOrDefault(name, List.of()));
        Rollout rollout = state.rollouts(now).get(name);
        answer.put("rollout", rollout == null ? null : rollout.toMap());
        return answer;
    }

    private static Map<String, Object> process(ProcessState process) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", process.name());
        entry.put("state", process.state().label());
        entry.put("since", process.since().toString());
        entry.put("checks", process.checks());
        return entry;
    }

    static Map<String, Object> modules(List<Manifest> manifests) {
        List<Map<String, Object>> modules = new ArrayList<>();
        for (Manifest manifest : manifests) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("module", manifest.module());
            entry.put("version", manifest.version());
            entry.put("slug", manifest.slug());
            entry.put("claims", manifest.claims().stream().map(c -> Map.of("name", c.name(),
                    "scope", c.scope().name().toLowerCase(java.util.Locale.ROOT))).toList());
            entry.put("requires", List.copyOf(manifest.requirements()));
            entry.put("tools", manifest.tools());
            modules.add(entry);
        }
        return Map.of("modules", modules);
    }

    static Map<String, Object> seats(State state) {
        Map<String, List<Map<String, String>>> seats = new TreeMap<>();
        Map<String, Manifest> modules = state.mesh().modulesByName();
        for (Assignment assignment : state.mesh().assignments()) {
            Manifest manifest = modules.get(assignment.module());
            if (manifest != null) {
                for (Claim claim : manifest.claims()) {
                    seats.computeIfAbsent(claim.name(), s -> new ArrayList<>()).add(Map.of("node", assignment.node(),
                            "module", assignment.module(), "scope",
                            claim.scope().name().toLowerCase(java.util.Locale.ROOT)));
                }
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        seats.forEach((seat, holders) -> list.add(Map.of("seat", seat, "holders", holders)));
        return Map.of("seats", list, "conflicts", state.seating().conflicts());
    }

    static Map<String, Object> builds(Inventory inventory, State state) {
        Map<String, Built> built = inventory.built();
        return Map.of("built", built.keySet().stream().sorted().toList(),
                "artifacts", built.values().stream().sorted(java.util.Comparator.comparing(Built::build)).toList(),
                "requested", inventory.requested().stream().sorted().toList(),
                "failed", inventory.failedBuilds().stream().sorted().toList(),
                "needed", state.plan().builds());
    }

    static Map<String, Object> plan(State state, Instant now) {
        Map<String, Object> rollouts = new LinkedHashMap<>();
        state.rollouts(now).forEach((node, rollout) -> rollouts.put(node, rollout.toMap()));
        return Map.of("plan", state.plan(), "problems", state.planning().composition().problems(),
                "text", PlanText.of(state.plan()), "rollouts", rollouts);
    }

    /** Both names exist, or the verb fails naming the one that does not. */
    static void require(State state, String module, String node) {
        if (state.modules().stream().noneMatch(m -> m.module().equals(module))) {
            throw new VerbException(VerbException.Code.NOT_FOUND, "there is no module \"" + module
                    + "\"; push its manifest first", "/module");
        }
        if (state.nodes().stream().noneMatch(n -> n.name().equals(node))) {
            throw new VerbException(VerbException.Code.NOT_FOUND, "there is no node \"" + node
                    + "\"; nodes report themselves when their host starts", "/node");
        }
    }
}
