package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.verbs.Verbs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Core's verbs, unchanged, on the PostgreSQL inventory: they answer as on the in-memory one — but
 * for where a problem's location points. Core's {@code Inventory.push} hands over the parsed
 * manifest, not the pushed bytes, so the store keeps a document it writes back from the model, and
 * a problem found in a stored manifest points into that document (same pointer, other file name,
 * line and column). Passing the pushed bytes through the port would remove the difference.
 */
class VerbsOnPgInventoryIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path MESH = Path.of("../examples/mesh.json");
    private static final Path MODULES = Path.of("../examples/modules");

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    @Test
    void theExampleMesh_getsTheSameAnswersAsOnTheMemoryInventory() throws IOException {
        Mesh mesh = Mesh.read(MESH);

        ObjectNode onMemory = session(new MemoryInventory(), mesh);
        ObjectNode onStore = session(new PgInventory(databases.migrated(Database.INVENTORY).dataSource()), mesh);

        assertThat(onStore.path("plan").path("text").asString()).contains("+ ");
        assertThat(onStore.path("status").path("assignments").asInt()).isEqualTo(mesh.assignments().size());
        assertThat(onStore.path("builds").toString()).contains("build:mesh-store@");
        assertThat(onStore.properties()).extracting(Map.Entry::getKey)
                .containsExactlyElementsOf(onMemory.propertyNames());
        JsonNode problems = onStore.path("plan after unassign").path("problems");
        assertThat(problems.valueStream().map(p -> p.path("location").path("file").asString()))
                .isNotEmpty().allMatch("inventory:module_versions/mesh-controller@0.1.0"::equals);
        withoutPositions(onMemory);
        withoutPositions(onStore);
        // Each session's controller became active when it started: the two times differ, nothing else may.
        List.of(onMemory, onStore).forEach(answers -> ((ObjectNode) answers.path("status").path("handover"))
                .remove("at"));
        onMemory.properties().forEach(answer -> assertThat(onStore.get(answer.getKey()))
                .as(answer.getKey()).isEqualTo(answer.getValue()));
    }

    /** Drops file, line and column of every problem location, keeping the pointer. */
    private static void withoutPositions(JsonNode answer) {
        if (answer instanceof ObjectNode object) {
            if (object.get("location") instanceof ObjectNode location) {
                location.remove(List.of("file", "line", "column"));
            }
        }
        answer.values().forEach(VerbsOnPgInventoryIT::withoutPositions);
    }

    /** Pushes the example modules, assigns them as the example mesh does, plans and requests builds. */
    private static ObjectNode session(Inventory inventory, Mesh mesh) throws IOException {
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, mesh.layout(), Clock.systemUTC()));
        mesh.nodes().forEach(inventory::report);
        ObjectNode answers = JSON.createObjectNode();
        for (Path file : manifests()) {
            ObjectNode args = JSON.createObjectNode();
            args.set("manifest", JSON.readTree(file.toFile()));
            answers.set("push " + file.getFileName(), verbs.call("push", args));
            answers.set("push again " + file.getFileName(), verbs.call("push", args));
        }
        for (Assignment assignment : mesh.assignments()) {
            answers.set("assign " + assignment, verbs.call("assign", args(assignment)));
        }
        answers.set("plan", verbs.call("plan", JSON.createObjectNode()));
        answers.set("build", verbs.call("build", JSON.createObjectNode().put("module", "mesh-store")));
        answers.set("build-again", verbs.call("build", JSON.createObjectNode().put("module", "mesh-store")));
        for (String read : List.of("status", "nodes", "modules", "seats", "builds")) {
            answers.set(read, verbs.call(read, JSON.createObjectNode()));
        }
        // When each inventory was read differs; what was read must not.
        ((ObjectNode) answers.path("status")).remove(List.of("asOf", "since"));
        Assignment first = mesh.assignments().getFirst();
        answers.set("unassign", verbs.call("unassign", args(first)));
        answers.set("plan after unassign", verbs.call("plan", JSON.createObjectNode()));
        return answers;
    }

    private static ObjectNode args(Assignment assignment) {
        return JSON.createObjectNode().put("module", assignment.module()).put("node", assignment.node());
    }

    private static List<Path> manifests() throws IOException {
        try (Stream<Path> files = Files.list(MODULES)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }
}
