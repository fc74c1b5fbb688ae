package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Every verb holds its arguments to its input schema: unknown names, wrong types and empty strings are invalid. */
class ArgumentsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryEvents events = new MemoryEvents();
    private final Verbs verbs = verbs(inventory, events);

    /** The one place these tests build their verbs. */
    static Verbs verbs(MemoryInventory inventory, MemoryEvents events) {
        return verbs(inventory, events, RequestRecords.NONE);
    }

    private static Verbs verbs(MemoryInventory inventory, MemoryEvents events, RequestRecords records) {
        return Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), events, records,
                Layout.DEFAULT, Clock.systemUTC()));
    }

    @BeforeEach
    void oneNodeAndTheStore() throws IOException {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.push(ModuleVersion.parse(Files.readString(Path.of("../examples/modules/mesh-store.json")),
                "manifest"));
    }

    private JsonNode call(String verb, String arguments) {
        return verbs.call(verb, JSON.readTree(arguments));
    }

    private static void assertInvalid(Executable call, String pointer, String message) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(VerbException.class, e -> {
            assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
            assertThat(e.pointer()).isEqualTo(pointer);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void assign_extraArgument_isInvalidAtItsPointer_andAssignsNothing() {
        assertInvalid(() -> call("assign", "{\"module\": \"mesh-store\", \"node\": \"alpha\", \"force\": true}"),
                "/force", "unknown argument \"force\" for assign; assign takes module, node");

        assertThat(inventory.assignments()).isEmpty();
        assertThat(events.events()).isEmpty();
    }

    @Test
    void build_misspeltArtifact_isInvalidWithDidYouMean_andRequestsNothing() {
        assertInvalid(() -> call("build", "{\"module\": \"mesh-store\", \"artefact\": \"postgres\"}"), "/artefact",
                "unknown argument \"artefact\" for build; did you mean \"artifact\"? build takes module, artifact");

        assertThat(inventory.requested()).isEmpty();
        assertThat(call("build", "{\"module\": \"mesh-store\", \"artifact\": \"postgres\"}").path("requested"))
                .as("spelt right, it requests the one artifact").hasSize(1);
    }

    @Test
    void status_givenAnArgument_isInvalid() {
        assertInvalid(() -> call("status", "{\"verbose\": true}"), "/verbose",
                "unknown argument \"verbose\" for status; status takes no arguments");
    }

    @Test
    void unknownArgument_withARequestId_isInvalid_andNotRecorded() {
        MemoryRequestRecords records = new MemoryRequestRecords();
        JsonNode args = JSON.readTree("{\"module\": \"mesh-store\", \"nodes\": \"alpha\"}");

        assertInvalid(() -> verbs(inventory, events, records).call("r-1", "ops", "assign", args), "/nodes",
                "unknown argument \"nodes\" for assign; did you mean \"node\"? assign takes module, node");

        assertThat(records.find("r-1")).isEmpty();
        assertThat(inventory.assignments()).isEmpty();
    }

    @Test
    void unknownArgument_oddName_isQuotedAsJson_andItsPointerEscaped() {
        assertInvalid(() -> call("nodes", "{\"a/b~c\\n\": 1}"), "/a~1b~0c\n",
                "unknown argument \"a/b~c\\n\" for nodes; nodes takes limit, after");
    }

    @Test
    void wrongType_isInvalidAtItsPointer_sayingWhatItMustBe() {
        assertInvalid(() -> call("node", "{\"name\": 5}"), "/name",
                "the argument \"name\" must be a non-empty string, not number");
        assertInvalid(() -> call("build", "{\"module\": \"mesh-store\", \"artifact\": null}"), "/artifact",
                "the argument \"artifact\" must be a non-empty string, not null");
        assertInvalid(() -> call("push", "{\"manifest\": [1]}"), "/manifest",
                "the argument \"manifest\" must be a string or an object, not array");

        assertThat(inventory.requested()).isEmpty();
    }

    @Test
    void integer_outOfItsBoundsOrWithAFraction_isInvalid_namingTheValueAndTheRange() {
        assertInvalid(() -> call("nodes", "{\"limit\": 0}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not 0");
        assertInvalid(() -> call("nodes", "{\"limit\": 1001}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not 1001");
        assertInvalid(() -> call("nodes", "{\"limit\": -5}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not -5");
        assertInvalid(() -> call("nodes", "{\"limit\": 99999999999999999999999}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not 99999999999999999999999");
        assertInvalid(() -> call("nodes", "{\"limit\": 2.5}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not 2.5");
        assertInvalid(() -> call("nodes", "{\"limit\": \"10\"}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not string");
        assertInvalid(() -> call("nodes", "{\"limit\": null}"), "/limit",
                "the argument \"limit\" must be an integer from 1 to 1000, not null");
    }

    @Test
    void integer_atItsBounds_orWrittenWithAZeroFraction_isTaken() {
        assertThat(call("nodes", "{\"limit\": 1}").path("nodes")).hasSize(1);
        assertThat(call("nodes", "{\"limit\": 1000}").path("nodes")).hasSize(1);
        assertThat(call("nodes", "{\"limit\": 1.0}").path("nodes")).as("1.0 is an integer to JSON Schema").hasSize(1);
    }

    @Test
    void emptyString_isInvalidAtItsPointer() {
        assertInvalid(() -> call("assign", "{\"module\": \"\", \"node\": \"alpha\"}"), "/module",
                "the argument \"module\" must be a non-empty string, not an empty string");

        assertThat(inventory.assignments()).isEmpty();
    }

    @Test
    void missingRequired_isInvalidAtItsPointer() {
        assertInvalid(() -> call("assign", "{\"module\": \"mesh-store\"}"), "/node",
                "the argument \"node\" is required: a non-empty string");
        assertInvalid(() -> call("push", "{}"), "/manifest",
                "the argument \"manifest\" is required: a string or an object");
    }

    @Test
    void rightArguments_run() {
        assertThat(call("assign", "{\"module\": \"mesh-store\", \"node\": \"alpha\"}").path("changed").asBoolean())
                .isTrue();
        assertThat(inventory.assignments()).containsExactly(new Assignment("mesh-store", "alpha"));
    }

    /**
     * The check enforces every keyword the input schemas use, so that a schema cannot promise what
     * the verbs do not hold.
     */
    @Test
    void inputSchemas_useOnlyKeywordsTheCheckEnforces() {
        for (Tool tool : verbs.tools()) {
            JsonNode schema = tool.inputSchema();
            assertThat(schema.propertyNames()).as(tool.name())
                    .isSubsetOf("type", "additionalProperties", "required", "properties");
            assertThat(schema.path("type").asString()).as(tool.name()).isEqualTo("object");
            assertThat(schema.path("additionalProperties").asBoolean(true)).as(tool.name()).isFalse();
            for (JsonNode property : schema.path("properties")) {
                assertThat(property.propertyNames()).as(tool.name())
                        .isSubsetOf("type", "minLength", "minimum", "maximum", "description");
                List<String> types = property.path("type").isArray() ? property.path("type").valueStream()
                        .map(JsonNode::asString).toList() : List.of(property.path("type").asString());
                assertThat(types).as(tool.name())
                        .isSubsetOf(Set.of("string", "object", "array", "boolean", "number", "integer", "null"));
                if (property.has("minimum") || property.has("maximum")) {
                    assertThat(types).as(tool.name() + ": bounds are checked on an integer alone")
                            .containsExactly("integer");
                }
            }
        }
    }
}
