package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code nodes} verb a page at a time: {@code limit} nodes in name order, {@code next} only when more
 * follow, {@code after} taking it back; a page reads the inventory for its own nodes alone.
 */
class NodesPagingTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant SEEN = Instant.parse("2026-11-29T21:00:00Z");

    private final MemoryInventory memory = new MemoryInventory();
    private final NotedReads reads = new NotedReads(memory);
    private final Verbs verbs = verbs(reads);

    private static Verbs verbs(Inventory inventory) {
        return Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, new Hands(SEEN)));
    }

    /** Five nodes, reported out of order; each runs mesh-host (a node seat), delta mesh-store (a mesh seat). */
    @BeforeEach
    void fiveNodes() throws IOException {
        for (String name : List.of("echo", "alpha", "delta", "charlie", "bravo")) {
            memory.report(new Node(name, "10.0.0." + (name.charAt(0) - 'a' + 1), "debian-12"));
        }
        memory.report(List.of(new Facts(new Node("charlie", "10.0.0.3", "debian-12"), "sha256:cc", List.of(), SEEN)));
        for (String module : List.of("mesh-host", "mesh-store")) {
            memory.push(ModuleVersion.parse(Files.readString(Path.of("../examples/modules/" + module + ".json")),
                    "manifest"));
        }
        for (String name : List.of("alpha", "bravo", "charlie", "delta", "echo")) {
            memory.assign(new Assignment("mesh-host", name));
        }
        memory.assign(new Assignment("mesh-store", "delta"));
    }

    private JsonNode call(String arguments) {
        return verbs.call("nodes", JSON.readTree(arguments));
    }

    private static JsonNode page(Verbs verbs, int limit, String after) {
        ObjectNode arguments = JSON.createObjectNode().put("limit", limit);
        if (after != null) {
            arguments.put("after", after);
        }
        return verbs.call("nodes", arguments);
    }

    private static List<String> names(JsonNode answer) {
        return answer.path("nodes").valueStream().map(node -> node.path("name").asString()).toList();
    }

    @Test
    void firstPage_isTheFirstNodesByName_withNext() {
        JsonNode first = page(verbs, 2, null);

        assertThat(names(first)).containsExactly("alpha", "bravo");
        assertThat(first.path("next").isString()).as(first.toString()).isTrue();
        assertThat(first.propertyNames()).containsExactly("nodes", "next");
    }

    @Test
    void middleAndLastPage_followTheCursor_andTheLastHasNoNext() {
        JsonNode first = page(verbs, 2, null);
        JsonNode middle = page(verbs, 2, first.path("next").asString());
        JsonNode last = page(verbs, 2, middle.path("next").asString());

        assertThat(names(middle)).containsExactly("charlie", "delta");
        assertThat(middle.has("next")).isTrue();
        assertThat(names(last)).containsExactly("echo");
        assertThat(last.has("next")).as("no more nodes follow").isFalse();
    }

    @Test
    void pageEndingOnTheLastNode_hasNoNext_soNoEmptyPageIsAskedFor() {
        JsonNode first = page(verbs, 3, null);
        JsonNode last = page(verbs, 2, first.path("next").asString());

        assertThat(names(last)).containsExactly("delta", "echo");
        assertThat(last.has("next")).isFalse();
        assertThat(page(verbs, 5, null).has("next")).as("exactly every node").isFalse();
    }

    @Test
    void pageEntries_areTheWholeMeshsEntries_seatsAndSightingsIncluded() {
        JsonNode whole = call("{}");
        List<JsonNode> paged = new ArrayList<>();
        String after = null;
        do {
            JsonNode answer = page(verbs, 2, after);
            answer.path("nodes").forEach(paged::add);
            after = answer.path("next").asString(null);
        } while (after != null);

        assertThat(paged).containsExactlyElementsOf(whole.path("nodes"));
        assertThat(paged.get(3)).isEqualTo(JSON.readTree("""
                {"name": "delta", "address": "10.0.0.4", "system": "debian-12", "seats": ["mesh-host", "mesh-store"],
                 "revision": null, "lastSeen": null, "silent": false}"""));
        assertThat(paged.get(2).path("revision").asString()).isEqualTo("sha256:cc");
        assertThat(paged.get(2).path("lastSeen").asString()).isEqualTo("2026-11-29T21:00:00Z");
    }

    @Test
    void aPage_readsItsOwnNodes_neverTheWholeMesh() {
        reads.calls.clear();

        JsonNode middle = page(verbs, 2, page(verbs, 2, null).path("next").asString());

        assertThat(names(middle)).containsExactly("charlie", "delta");
        assertThat(reads.calls).as("a page of 2 reads 3 nodes, and the sightings and seats of 2")
                .contains("nodes(, 3)", "nodes(bravo, 3)", "sightings(bravo, delta)",
                        "assignments([mesh-host, mesh-store], bravo, delta)")
                .doesNotContain("nodes()", "sightings()", "assignments()", "assignments(modules)");
    }

    @Test
    void noLimit_isAPageOf1000() {
        for (int i = 0; i < 1_000; i++) {
            memory.report(new Node("node-%04d".formatted(i), "10.1.0.1", "debian-12"));
        }

        JsonNode first = call("{}");
        JsonNode second = call("{\"after\": \"" + first.path("next").asString() + "\"}");

        assertThat(first.path("nodes")).hasSize(1_000);
        assertThat(names(first)).startsWith("alpha", "bravo", "charlie", "delta", "echo", "node-0000")
                .endsWith("node-0994");
        assertThat(names(second)).containsExactly("node-0995", "node-0996", "node-0997", "node-0998", "node-0999");
        assertThat(second.has("next")).isFalse();
    }

    @Test
    void aMeshOfAPageOrLess_isAnsweredWhole_asBeforePaging() {
        JsonNode all = call("{}");

        assertThat(names(all)).containsExactly("alpha", "bravo", "charlie", "delta", "echo");
        assertThat(all.propertyNames()).containsExactly("nodes");
    }

    @Test
    void emptyMesh_isNoNodes_andNoNext() {
        JsonNode none = verbs(new MemoryInventory()).call("nodes", JSON.readTree("{\"limit\": 10}"));

        assertThat(none).isEqualTo(JSON.readTree("{\"nodes\": []}"));
    }

    @Test
    void cursorOfARemovedNode_stillWorks_thePageStartingAfterItsName() {
        String afterBravo = page(verbs, 2, null).path("next").asString();
        MemoryInventory withoutBravo = new MemoryInventory();
        memory.nodes().stream().filter(node -> !node.name().equals("bravo")).forEach(withoutBravo::report);

        JsonNode next = page(verbs(withoutBravo), 2, afterBravo);

        assertThat(names(next)).containsExactly("charlie", "delta");
        assertThat(names(page(verbs, 10, Cursor.after("c")))).as("after a name no node ever had")
                .containsExactly("charlie", "delta", "echo");
    }

    @Test
    void cursorPastTheLastNode_isAnEmptyPage() {
        JsonNode past = page(verbs, 2, Cursor.after("zulu"));

        assertThat(past).isEqualTo(JSON.readTree("{\"nodes\": []}"));
    }

    @Test
    void malformedCursor_isInvalidAtAfter_namingItAndWhatToPass() {
        String expected = "the cursor %s given as after is not one a nodes answer gave as next; pass next as it "
                + "came, or leave after out to start at the first node";
        assertInvalid("{\"after\": \"bravo\"}", "/after", expected.formatted("\"bravo\""));
        // Base64url of "abc": well formed, but not a cursor of nodes.
        assertInvalid("{\"after\": \"YWJj\"}", "/after", expected.formatted("\"YWJj\""));
        // Base64url of "after:" with no name after it.
        assertInvalid("{\"after\": \"YWZ0ZXI6\"}", "/after", expected.formatted("\"YWZ0ZXI6\""));
        assertInvalid("{\"after\": \"" + "x".repeat(150) + "\"}", "/after",
                expected.formatted("\"" + "x".repeat(100) + "…\""));
        assertInvalid("{\"after\": \"\"}", "/after",
                "the argument \"after\" must be a non-empty string, not an empty string");
    }

    @Test
    void limitOutOfRange_isInvalidAtLimit_namingTheValueAndTheRange() {
        assertInvalid("{\"limit\": 0}", "/limit", "the argument \"limit\" must be an integer from 1 to 1000, not 0");
        assertInvalid("{\"limit\": 1001, \"after\": \"" + Cursor.after("alpha") + "\"}", "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not 1001");
    }

    @Test
    void defaultPage_isTheSchemasMaximum() {
        JsonNode limit = verbs.tools().stream().filter(tool -> tool.name().equals("nodes")).findFirst().orElseThrow()
                .inputSchema().path("properties").path("limit");

        assertThat(limit.path("maximum").asInt()).isEqualTo(Reads.PAGE);
        assertThat(limit.path("description").asString()).contains("default " + Reads.PAGE);
    }

    private void assertInvalid(String arguments, String pointer, String message) {
        assertThatThrownBy(() -> call(arguments)).isInstanceOfSatisfying(VerbException.class, e -> {
            assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
            assertThat(e.pointer()).isEqualTo(pointer);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    /** The memory inventory, noting each read a verb makes of the nodes, their sightings and assignments. */
    private static final class NotedReads extends ForwardingInventory {

        final List<String> calls = new CopyOnWriteArrayList<>();

        NotedReads(Inventory delegate) {
            super(delegate);
        }

        @Override
        public List<Node> nodes() {
            calls.add("nodes()");
            return super.nodes();
        }

        @Override
        public List<Node> nodes(String after, int limit) {
            calls.add("nodes(" + after + ", " + limit + ")");
            return super.nodes(after, limit);
        }

        @Override
        public Map<String, Sighting> sightings() {
            calls.add("sightings()");
            return super.sightings();
        }

        @Override
        public Map<String, Sighting> sightings(String after, String last) {
            calls.add("sightings(" + after + ", " + last + ")");
            return super.sightings(after, last);
        }

        @Override
        public List<Assignment> assignments() {
            calls.add("assignments()");
            return super.assignments();
        }

        @Override
        public List<Assignment> assignments(Set<String> modules) {
            calls.add("assignments(modules)");
            return super.assignments(modules);
        }

        @Override
        public List<Assignment> assignments(Set<String> modules, String after, String last) {
            calls.add("assignments(" + modules.stream().sorted().toList() + ", " + after + ", " + last + ")");
            return super.assignments(modules, after, last);
        }
    }
}
