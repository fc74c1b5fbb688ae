package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class VerbsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryEvents events = new MemoryEvents();
    private final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), events,
            RequestRecords.NONE, Layout.DEFAULT, Clock.systemUTC()));

    @BeforeEach
    void nodesReportThemselves() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
        inventory.report(new Node("gamma", "10.0.0.3", "debian-12"));
    }

    private JsonNode call(String verb, String arguments) {
        return verbs.call(verb, JSON.readTree(arguments));
    }

    private void pushExamples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("../examples/modules"))) {
            for (Path file : files.sorted().toList()) {
                ObjectNode args = JSON.createObjectNode();
                args.set("manifest", JSON.readTree(file.toFile()));
                verbs.call("push", args);
            }
        }
    }

    @Test
    void tools_listsTheTwelveVerbsWithSchemas() {
        JsonNode tools = call("tools", "{}").path("tools");

        assertThat(tools.valueStream().map(t -> t.path("name").asString()).toList()).containsExactly("tools",
                "status", "nodes", "node", "modules", "seats", "builds", "plan", "assign", "unassign", "push", "build");
        assertThat(tools.valueStream()).allSatisfy(t -> {
            assertThat(t.path("inputSchema").path("type").asString()).isEqualTo("object");
            assertThat(t.path("description").asString()).isNotBlank();
            assertThat(t.path("outputSchema").path("type").asString()).isEqualTo("object");
            assertThat(t.path("outputSchema").path("anyOf").get(1).path("required").valueStream()
                    .map(JsonNode::asString)).as("a failure's structured content is allowed too")
                    .containsExactly("code", "message");
        });
    }

    @Test
    void names_areTheToolsNames_inTheirOrder() {
        assertThat(Verbs.names()).containsExactly("tools", "status", "nodes", "node", "modules", "seats", "builds",
                "plan", "assign", "unassign", "push", "build");
    }

    @Test
    void pushAssignPlan_composesTheMeshAndTellsThePlan() throws IOException {
        pushExamples();
        for (Assignment a : ComposerTest.assignments()) {
            call("assign", "{\"module\": \"%s\", \"node\": \"%s\"}".formatted(a.module(), a.node()));
        }

        JsonNode plan = call("plan", "{}");
        JsonNode status = call("status", "{}");

        assertThat(plan.path("problems").isEmpty()).isTrue();
        assertThat(plan.path("text").asString()).contains("+ gamma/process:mesh-controller");
        assertThat(status.path("modules").asInt()).isEqualTo(5);
        assertThat(status.path("assignments").asInt()).isEqualTo(7);
        assertThat(events.events()).extracting(MemoryEvents.Event::kind).containsOnly("plan");
        assertThat(call("node", "{\"name\": \"gamma\"}").path("seats").valueStream().map(JsonNode::asString))
                .containsExactly("mesh-controller", "mesh-host");
    }

    @Test
    void assign_secondHolderOfAMeshSeat_isAConflictAndChangesNothing() throws IOException {
        pushExamples();
        call("assign", "{\"module\": \"mesh-store\", \"node\": \"alpha\"}");
        ObjectNode copy = (ObjectNode) JSON.readTree(Path.of("../examples/modules/mesh-store.json").toFile());
        copy.put("module", "other-store");
        copy.put("slug", "other-store");
        ObjectNode args = JSON.createObjectNode();
        args.set("manifest", copy);
        verbs.call("push", args);

        assertThatThrownBy(() -> call("assign", "{\"module\": \"other-store\", \"node\": \"beta\"}"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT);
                    assertThat(e.getMessage()).contains("mesh-store").contains("beta");
                });
        assertThat(inventory.assignments()).containsExactly(new Assignment("mesh-store", "alpha"));
    }

    @Test
    void push_invalidManifest_listsEveryProblem_pointingIntoTheArguments() {
        assertThatThrownBy(() -> call("push", "{\"manifest\": {\"module\": \"Web\", \"version\": \"\"}}"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo("/manifest/module");
                    assertThat(e.getMessage()).startsWith("the manifest has 2 problems:\n  1:")
                            .contains(": /manifest/module: ").contains(": /manifest/version: ");
                });
        assertThat(inventory.modules()).isEmpty();
    }

    @Test
    void push_manifestWithAWarning_isRecorded_andTheReplyListsTheWarning() {
        ObjectNode args = JSON.createObjectNode().put("manifest", "{\"module\": \"web\", \"version\": \"1\", "
                + "\"resources\": [{\"id\": \"c\", \"type\": \"container\", \"name\": \"c\", \"image\": \"i\", "
                + "\"env\": {\"WHERE\": \"$<node:name>\"}}]}");

        var reply = verbs.call("push", args);

        assertThat(reply.path("changed").asBoolean()).isTrue();
        assertThat(reply.path("warnings")).hasSize(1);
        assertThat(reply.path("warnings").get(0).asString()).startsWith("1:127: /manifest/resources/0/env/WHERE: "
                + "\"$<node:name>\" is literal text, not a reference").endsWith("(did you mean \"${node:name}\"?)");
        assertThat(inventory.module("web")).isPresent();
    }

    @Test
    void push_asText_locatesProblemsInItsLines_andKeepsItAsWritten() {
        ObjectNode args = JSON.createObjectNode().put("manifest", "{\n  \"module\": \"web\",\n  \"version\": \"\"\n}\n");

        assertThatThrownBy(() -> verbs.call("push", args))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.pointer()).isEqualTo("/manifest/version");
                    assertThat(e.getMessage()).startsWith("the manifest has 1 problem:\n  3:14: /manifest/version: ");
                });

        args.put("manifest", "{\n  \"module\": \"web\",\n\n  \"version\": \"1\",\n  \"claims\": [{\"name\": \"www\", "
                + "\"scope\": \"node\"}]\n}\n");
        assertThat(verbs.call("push", args).path("changed").asBoolean()).isTrue();
        assertThat(inventory.module("web").orElseThrow().claims().getFirst().location().line()).isEqualTo(5);
    }

    @Test
    void push_manifestNeitherTextNorObject_isInvalid() {
        assertThatThrownBy(() -> call("push", "{\"manifest\": 42}"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo("/manifest");
                });
    }

    @Test
    void assign_again_ofASeatHolder_changesNothingAndIsNoConflict() throws IOException {
        pushExamples();
        call("assign", "{\"module\": \"mesh-store\", \"node\": \"alpha\"}");

        JsonNode again = call("assign", "{\"module\": \"mesh-store\", \"node\": \"alpha\"}");

        assertThat(again.path("changed").asBoolean()).isFalse();
        assertThat(inventory.assignments()).containsExactly(new Assignment("mesh-store", "alpha"));
    }

    @Test
    void badRequests_getTheirCodeAndPointer_andChangeNothing() throws IOException {
        pushExamples();
        List<Assignment> before = inventory.assignments();

        assertThatThrownBy(() -> call("assign", "{\"module\": \"mesh-store\"}")).isInstanceOfSatisfying(
                VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo("/node");
                });
        assertThatThrownBy(() -> call("assign", "{\"module\": \"mesh-store\", \"node\": \"delta\"}"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.NOT_FOUND);
                    assertThat(e.pointer()).isEqualTo("/node");
                });
        assertThatThrownBy(() -> call("push", "{\"manifest\": {\"module\": \"Bad\", \"version\": \"1\"}}"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo("/manifest/module");
                });
        assertThatThrownBy(() -> call("push", "{\"manifest\": {\"module\": \"mesh-bus\", \"version\": \"2.10.22\"}}"))
                .isInstanceOfSatisfying(VerbException.class, e ->
                        assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT));
        assertThatThrownBy(() -> call("frobnicate", "{}")).isInstanceOfSatisfying(VerbException.class, e ->
                assertThat(e.code()).isEqualTo(VerbException.Code.NOT_FOUND));
        assertThatThrownBy(() -> verbs.call("nodes", JSON.readTree("[1]"))).isInstanceOfSatisfying(
                VerbException.class, e -> assertThat(e.code()).isEqualTo(VerbException.Code.INVALID));

        assertThat(inventory.assignments()).isEqualTo(before);
        assertThat(inventory.module("Bad")).isEmpty();
    }

    @Test
    void build_requestsEachArtifactOfTheModuleOnce() throws IOException {
        pushExamples();

        JsonNode first = call("build", "{\"module\": \"mesh-store\"}");
        call("build", "{\"module\": \"mesh-store\"}");

        assertThat(first.path("requested").valueStream().map(JsonNode::asString)).singleElement().asString()
                .startsWith("build:mesh-store@");
        assertThat(call("builds", "{}").path("requested")).hasSize(1);
        assertThat(events.events()).filteredOn(e -> e.kind().equals("build")).as("each ask told, so a round sends it")
                .hasSize(2).allSatisfy(e -> assertThat(e.payload()).containsEntry("state", "requested"));
        assertThatThrownBy(() -> call("build", "{\"module\": \"mesh-store\", \"artifact\": \"nope\"}"))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.pointer()).isEqualTo("/artifact"));
    }
}
