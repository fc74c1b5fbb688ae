package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Node;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The client commands against a controller in the test's process: every verb in text and in JSON,
 * verb errors, an unreachable controller, a refused token, and push's own checks of its file.
 */
class ClientCommandsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/client");
    private static final Path CORE_GOLDEN = Path.of("../controller-core/src/test/resources/golden");

    @TempDir
    Path state;

    @TempDir
    Path dir;

    private TestController controller;

    @BeforeEach
    void start() {
        controller = new TestController(state);
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    private static JsonNode json(CommandRun run) {
        return TestController.JSON.readTree(run.out());
    }

    private static String golden(String name) throws IOException {
        return Files.readString(GOLDEN.resolve(name));
    }

    @Test
    void status_ofAnEmptyInventory_isKeyValueLines() {
        CommandRun run = controller.run("status");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).contains("role: active", "epoch: 1", "nodes: 3", "modules: 0", "assignments: 0",
                "plan: no changes");
        assertThat(run.lines()).allMatch(line -> line.matches("[a-zA-Z]+: .+"));
        assertThat(run.err()).isEmpty();
    }

    @Test
    void status_ofTheExampleMesh_summarisesThePlan() {
        controller.withExampleMesh();

        assertThat(controller.run("status").lines()).contains("modules: 5", "assignments: 7",
                "plan: 66 to create, 2 to remove, 5 to build");
    }

    @Test
    void status_inAMesh_showsTheBusOnOneLine_countsByReasonSummed() {
        controller.close();
        controller = new TestController(state, () -> {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("received", 10);
            facts.put("written", 9);
            facts.put("dropped", Map.of("unreadable", 1, "node-mismatch", 0));
            facts.put("server", "nats://127.0.0.1:4232");
            Map<String, Object> store = new LinkedHashMap<>();
            store.put("primary", "127.0.0.1:5442");
            store.put("synchronous", true);
            Map<String, Object> bus = new LinkedHashMap<>();
            bus.put("broker", "ok");
            bus.put("dead", 2);
            bus.put("brokerNode", "127.0.0.1:5682");
            bus.put("facts", facts);
            bus.put("store", store);
            return bus;
        });

        CommandRun run = controller.run("status");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.lines()).last().isEqualTo("bus: broker ok; 2 dead; brokerNode 127.0.0.1:5682; facts 10 "
                + "received, 9 written, 1 dropped, server nats://127.0.0.1:4232; store primary 127.0.0.1:5442, "
                + "synchronous true");
        assertThat(json(controller.run("status", "--json")).at("/bus/facts/dropped/unreadable").asInt()).isEqualTo(1);
    }

    @Test
    void status_brokerUnavailable_saysSo_andTheDeadLettersAreUnknown() {
        controller.close();
        controller = new TestController(state, () -> {
            Map<String, Object> bus = new LinkedHashMap<>();
            bus.put("broker", "unavailable: cannot count");
            bus.put("dead", null);
            return bus;
        });

        assertThat(controller.run("status").lines()).last().isEqualTo("bus: broker unavailable: cannot count; "
                + "dead unknown");
    }

    @Test
    void status_tellsHowTheLockWasTaken_onOneLine() {
        CommandRun run = controller.run("status");

        assertThat(run.lines()).anySatisfy(line -> assertThat(line).matches(
                "handover: first at \\S+, gap none, lock wait \\d+ ms"));
    }

    @Test
    void status_json_isTheVerbsResult() {
        controller.withExampleMesh();

        CommandRun run = controller.run("status", "--json");

        assertThat(run.exitCode()).isZero();
        assertThat(json(run).get("modules").asInt()).isEqualTo(5);
        assertThat(json(run).get("assignments").asInt()).isEqualTo(7);
        assertThat(json(run).get("plan").get("create").asInt()).isPositive();
        assertThat(run.lines()).hasSize(1);
    }

    @Test
    void tools_isATableOfVerbsWithTheirArguments() {
        CommandRun run = controller.run("tools");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(13);
        assertThat(run.lines().getFirst()).matches("VERB +ARGUMENTS +DESCRIPTION");
        assertThat(run.out()).contains("\nassign    module node        Assigns a module to a node;")
                .contains("\nbuild     module [artifact]  Requests the build")
                .contains("\nstatus    -                  The controller's role");
    }

    @Test
    void tools_json_listsTheTwelveVerbs() {
        JsonNode tools = json(controller.run("tools", "--json")).get("tools");

        assertThat(tools.valueStream().map(t -> t.get("name").asString()).toList()).containsExactly("tools",
                "status", "nodes", "node", "modules", "seats", "builds", "plan", "assign", "unassign", "push", "build");
    }

    @Test
    void nodes_ofTheExampleMesh_isTheGoldenTable() throws IOException {
        controller.withExampleMesh();

        CommandRun run = controller.run("nodes");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(golden("nodes.txt"));
    }

    @Test
    void nodes_json_isTheVerbsResult() {
        JsonNode nodes = json(controller.run("nodes", "--json")).get("nodes");

        assertThat(nodes).hasSize(3);
        assertThat(nodes.get(0).get("name").asString()).isEqualTo("alpha");
        assertThat(nodes.get(0).get("seats").isEmpty()).isTrue();
    }

    @Test
    void nodes_ofMoreThanAPage_followsTheCursor_everyNodeOnceInOrder() {
        // 2,500 nodes: three of the verb's pages of 1,000 (a page is 1,000 when no limit is given).
        for (int i = 0; i < 2_497; i++) {
            controller.inventory.report(new Node("node-%04d".formatted(i), "10.1.0.1", "debian-12"));
        }

        CommandRun run = controller.run("nodes");
        JsonNode json = json(controller.run("nodes", "--json"));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> names = run.lines().stream().skip(1).map(line -> line.split(" +")[0]).toList();
        assertThat(names).hasSize(2_500).doesNotHaveDuplicates().isSorted().startsWith("alpha", "beta", "gamma",
                "node-0000").endsWith("node-2496");
        assertThat(json.propertyNames()).as("the pages as one answer, without next").containsExactly("nodes");
        assertThat(json.get("nodes").valueStream().map(node -> node.get("name").asString()).toList())
                .isEqualTo(names);
    }

    @Test
    void nodes_limit_printsOnePage_andOnStandardErrorTheCommandThatPrintsTheNext() {
        CommandRun first = controller.run("nodes", "--limit", "2");
        String more = first.err().strip();
        String cursor = more.substring(more.lastIndexOf(' ') + 1);
        CommandRun next = controller.run("nodes", "--limit", "2", "--after", cursor);

        assertThat(first.exitCode()).isZero();
        assertThat(first.lines()).hasSize(3).startsWith("NODE   ADDRESS     SYSTEM     SEATS");
        assertThat(first.lines().get(1)).startsWith("alpha ");
        assertThat(first.lines().get(2)).startsWith("beta ");
        assertThat(first.err()).matches("more: mesh-controller nodes --limit 2 --after [A-Za-z0-9_-]+\n");
        assertThat(next.exitCode()).isZero();
        assertThat(next.lines()).hasSize(2);
        assertThat(next.lines().get(1)).startsWith("gamma ");
        assertThat(next.err()).as("the last page: nothing more").isEmpty();
    }

    @Test
    void nodes_limitJson_isTheVerbsPage_withNext() {
        JsonNode first = json(controller.run("nodes", "--limit", "2", "--json"));
        CommandRun rest = controller.run("nodes", "--after", first.get("next").asString(), "--json");

        assertThat(first.get("nodes")).hasSize(2);
        assertThat(first.get("next").asString()).matches("[A-Za-z0-9_-]+");
        assertThat(json(rest).get("nodes").valueStream().map(node -> node.get("name").asString()).toList())
                .as("--after alone: every node after it").containsExactly("gamma");
        assertThat(rest.err()).isEmpty();
    }

    @Test
    void nodes_afterTheLastNode_saysThereAreNoneAfterIt() {
        controller.inventory.report(new Node("zulu", "10.20.0.26", "debian-12"));
        String more = controller.run("nodes", "--limit", "3").err().strip();
        String afterGamma = more.substring(more.lastIndexOf(' ') + 1);
        // The same controller's store without zulu: it was removed since that page.
        controller.close();
        controller = new TestController(state);

        CommandRun none = controller.run("nodes", "--after", afterGamma);
        CommandRun page = controller.run("nodes", "--limit", "5", "--after", afterGamma);

        assertThat(more).startsWith("more: mesh-controller nodes --limit 3 --after ");
        assertThat(none.exitCode()).isZero();
        assertThat(none.out()).isEqualTo("No nodes after that cursor.\n");
        assertThat(none.err()).isEmpty();
        assertThat(page.out()).isEqualTo("No nodes after that cursor.\n");
        assertThat(page.err()).isEmpty();
    }

    @Test
    void nodes_limitOutOfRange_isTheVerbsError_exits1_withThePointer() {
        CommandRun run = controller.run("nodes", "--limit", "0");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error (invalid): the argument \"limit\" must be an integer from 1 to 1000, "
                + "not 0\n  at /limit\n");
    }

    @Test
    void nodes_malformedCursor_isTheVerbsError_exits1_sayingWhatToPass() {
        CommandRun run = controller.run("nodes", "--after", "beta");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error (invalid): the cursor \"beta\" given as after is not one a nodes "
                + "answer gave as next; pass next as it came, or leave after out to start at the first node\n"
                + "  at /after\n");
    }

    @Test
    void node_isKeyValueLines_withItsDeclaration() {
        controller.withExampleMesh();

        CommandRun run = controller.run("node", "alpha");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).startsWith("node: alpha", "address: 10.20.0.11", "system: debian-12",
                "modules: mesh-host, mesh-store", "seats: mesh-host, mesh-store", "acknowledged: none");
        assertThat(run.lines().get(6)).matches("declaration: sha256:[0-9a-f]{64} \\(not acknowledged yet\\)");
    }

    @Test
    void node_json_hasTheDeclaration() {
        controller.withExampleMesh();

        JsonNode node = json(controller.run("node", "gamma", "--json"));

        assertThat(node.get("declaration").get("node").asString()).isEqualTo("gamma");
        assertThat(node.get("modules").toString()).isEqualTo("[\"mesh-controller\",\"mesh-host\"]");
    }

    @Test
    void node_unknown_isAVerbError_exits1_withCodeMessageAndPointer() {
        CommandRun run = controller.run("node", "zeta");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error (not-found): there is no node \"zeta\"; nodes report themselves when "
                + "their host starts\n  at /name\n");
    }

    @Test
    void node_unknown_json_alsoPrintsTheErrorAsADocument() {
        CommandRun run = controller.run("node", "zeta", "--json");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(json(run).get("error").get("code").asString()).isEqualTo("not-found");
        assertThat(json(run).get("error").get("pointer").asString()).isEqualTo("/name");
        assertThat(run.err()).startsWith("error (not-found): ");
    }

    @Test
    void modules_isATable_orSaysThereAreNone() {
        assertThat(controller.run("modules").out()).isEqualTo("No modules: push a manifest with mesh-controller "
                + "push FILE.\n");
        controller.withExampleMesh();

        CommandRun run = controller.run("modules");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(6);
        assertThat(run.lines().getFirst()).matches("MODULE +VERSION +CLAIMS +REQUIRES");
        assertThat(run.out()).contains("\nmesh-controller  0.1.0    mesh-controller (mesh)  mesh-broker, mesh-store\n")
                .contains("\nmesh-host        0.1.0    mesh-host (node)        mesh-broker\n");
        assertThat(json(controller.run("modules", "--json")).get("modules")).hasSize(5);
    }

    @Test
    void seats_isOneRowPerHolder() {
        controller.withExampleMesh();

        CommandRun run = controller.run("seats");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(8).first().asString().matches("SEAT +SCOPE +NODE +MODULE");
        assertThat(run.lines()).contains("mesh-host        node   beta   mesh-host",
                "mesh-store       mesh   alpha  mesh-store");
        assertThat(json(controller.run("seats", "--json")).get("conflicts").isEmpty()).isTrue();
    }

    @Test
    void builds_showsNeededAndRequestedBuilds() {
        controller.withExampleMesh();
        assertThat(controller.run("build", "mesh-bus").exitCode()).isZero();

        CommandRun run = controller.run("builds");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines().getFirst()).matches("BUILD +STATE +SYSTEM +NODES");
        assertThat(run.lines()).contains(
                "build:mesh-bus@2.10.22/nats             needed, requested  debian-12  beta",
                "build:mesh-host@0.1.0/host              needed             debian-12  alpha, beta, gamma");
        assertThat(json(controller.run("builds", "--json")).get("requested").toString())
                .isEqualTo("[\"build:mesh-bus@2.10.22/nats\"]");
    }

    @Test
    void plan_ofTheControllerForTheExampleMesh_isWhatPlanMeshPrints_exits2() throws IOException {
        controller.withExampleMesh();

        CommandRun run = controller.run("plan");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEqualTo(Files.readString(CORE_GOLDEN.resolve("plan.txt")));
        assertThat(run.err()).isEmpty();
    }

    @Test
    void plan_json_isTheVerbsResult_withTheSameExitCode() {
        controller.withExampleMesh();

        CommandRun run = controller.run("plan", "--json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(json(run).get("plan").get("changes").isEmpty()).isFalse();
        assertThat(json(run).get("text").asString()).endsWith(" to build.\n");
    }

    @Test
    void plan_withNothingAssigned_hasNoChanges_exits0() {
        CommandRun run = controller.run("plan");

        assertThat(run.out()).isEqualTo("No changes. Every node runs its declaration.\n");
        assertThat(run.exitCode()).isZero();
    }

    @Test
    void aNodeThatDoesNotCompose_showsItsProblems_andThePlanExits1() {
        assertThat(controller.run("push", "../examples/modules/mesh-controller.json").exitCode()).isZero();
        assertThat(controller.run("assign", "mesh-controller", "gamma").exitCode()).isZero();

        CommandRun node = controller.run("node", "gamma");
        CommandRun plan = controller.run("plan");

        assertThat(node.exitCode()).isZero();
        assertThat(node.lines()).contains("declaration: none (5 problems)");
        // push sends the file's text, so the controller locates problems in the file's own lines.
        assertThat(node.lines().getLast()).matches("  manifest:53:41: /resources/2/env/MESH_BROKER_MANAGEMENT_PORT: no "
                + "node holds the seat \"mesh-broker\" that .*");
        assertThat(plan.exitCode()).isEqualTo(1);
        assertThat(plan.lines()).hasSize(7).first().asString().contains(": no node holds the seat \"mesh-");
        assertThat(plan.lines().getLast()).isEqualTo("No changes. Every node runs its declaration.");
    }

    @Test
    void plan_meshWithControllerOptions_isAUsageError_exits1() {
        CommandRun run = controller.run("plan", "--mesh", "../examples/mesh.json", "--url", "http://127.0.0.1:1/mcp");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("--url, --state and --token-file ask the running controller for its plan, "
                + "--mesh plans offline: give one or the other");
    }

    @Test
    void assignAndUnassign_confirmWithThePlansSummary() {
        controller.withExampleMesh();

        CommandRun unassign = controller.run("unassign", "mesh-bus", "beta");
        CommandRun again = controller.run("unassign", "mesh-bus", "beta");
        CommandRun assign = controller.run("assign", "mesh-bus", "gamma");
        CommandRun twice = controller.run("assign", "mesh-bus", "gamma");

        assertThat(unassign.out()).matches("unassigned mesh-bus from beta; plan: \\d+ to create, \\d+ to remove, "
                + "\\d+ to build\n");
        assertThat(again.out()).startsWith("mesh-bus was not assigned to beta already; nothing changed; plan: ");
        assertThat(assign.out()).startsWith("assigned mesh-bus to gamma; plan: ");
        assertThat(twice.out()).startsWith("mesh-bus was assigned to gamma already; nothing changed; plan: ");
        assertThat(json(controller.run("assign", "mesh-bus", "gamma", "--json")).get("changed").asBoolean()).isFalse();
    }

    @Test
    void assign_unknownModule_isNotFound_exits1_withThePointer() {
        CommandRun run = controller.run("assign", "web", "alpha");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("error (not-found): there is no module \"web\"; push its manifest first\n"
                + "  at /module\n");
    }

    @Test
    void mutatingVerbs_sendAFreshRequestIdEachTime() {
        controller.withExampleMesh();
        controller.requestIds.clear();

        controller.run("unassign", "mesh-bus", "beta");
        controller.run("assign", "mesh-bus", "beta");
        controller.run("push", "../examples/modules/mesh-bus.json");
        controller.run("build", "mesh-bus", "nats");
        controller.run("nodes");

        assertThat(controller.requestIds).hasSize(4).doesNotHaveDuplicates()
                .allMatch(id -> id.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
    }

    @Test
    void push_confirmsTheModuleAndVersion_thenSaysNothingChanged() {
        CommandRun first = controller.run("push", "../examples/modules/mesh-bus.json");
        CommandRun second = controller.run("push", "../examples/modules/mesh-bus.json");

        assertThat(first.out()).isEqualTo("pushed mesh-bus 2.10.22\n");
        assertThat(second.out()).isEqualTo("mesh-bus 2.10.22 was pushed already; nothing changed\n");
        assertThat(json(controller.run("push", "../examples/modules/mesh-bus.json", "--json")))
                .isEqualTo(TestController.JSON.readTree("{\"changed\":false,\"module\":\"mesh-bus\",\"version\":"
                        + "\"2.10.22\"}"));
    }

    @Test
    void push_manifestWithAWarning_isPushed_andPrintsTheWarningLocatedInTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("web.json"), "{\"module\": \"web\", \"version\": \"1\",\n"
                + "  \"resources\": [{\"id\": \"c\", \"type\": \"container\", \"name\": \"c\", \"image\": \"i\", "
                + "\"env\": {\"AT\": \"$<node:name>\"}}]}\n");

        CommandRun run = controller.run("push", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().getFirst()).isEqualTo("pushed web 1");
        assertThat(run.lines().getLast()).startsWith("warning: " + file + ":2:92: /resources/0/env/AT: "
                + "\"$<node:name>\" is literal text");
    }

    @Test
    void push_ofAFileThatIsNotJson_isRefusedBeforeSending_exits2_withTheLocation() throws IOException {
        Path file = Files.writeString(dir.resolve("web.json"), "{\n  \"module\": \"web\",\n  oops\n}\n");

        CommandRun run = controller.run("push", file.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("mesh-controller: " + file + ":3:3: not JSON: Unexpected character ('o' (code 111)): was expecting double-quote "
                + "to start property name")
                .endsWith("; a module manifest is a JSON object\n");
        assertThat(controller.inventory.modules()).isEmpty();
    }

    @Test
    void push_ofJsonThatIsNotAnObject_exits2() throws IOException {
        Path array = Files.writeString(dir.resolve("list.json"), "[1, 2]\n");
        Path twice = Files.writeString(dir.resolve("twice.json"), "{\"module\": \"a\", \"module\": \"b\"}");

        CommandRun run = controller.run("push", array.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("mesh-controller: " + array + ":1:1: the manifest is a JSON array, not an "
                + "object; a module manifest is a JSON object\n");
        assertThat(controller.run("push", twice.toString()).err()).contains(":1:25: not JSON: Duplicate Object property \"module\"");
    }

    @Test
    void push_ofAMissingFile_exits2_evenWithNoController() {
        CommandRun run = Cli.run(Map.of("MESH_CONTROLLER_STATE", dir.toString()), "push", "nowhere.json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("mesh-controller: nowhere.json: no such file; give the path of a module "
                + "manifest\n");
    }

    @Test
    void push_ofAnInvalidManifest_isTheControllersInvalid_exits1_withTheProblemsLocatedInTheFile()
            throws IOException {
        Path file = Files.writeString(dir.resolve("web.json"), "{\n  \"module\": \"web\",\n  \"versoin\": \"1\"\n}\n");
        List<String> validate = Cli.run("validate", file.toString()).lines();

        CommandRun run = controller.run("push", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(validate).hasSizeGreaterThan(1);
        assertThat(run.err().lines().toList()).containsExactlyElementsOf(Stream.concat(Stream.of(
                "error (invalid): the controller refused the manifest " + file + ": " + (validate.size() - 1)
                        + " problem" + (validate.size() == 2 ? "" : "s")),
                validate.subList(0, validate.size() - 1).stream()).toList());
        assertThat(run.err()).contains(file + ":3:3: /versoin: ");
        assertThat(controller.inventory.modules()).isEmpty();
    }

    @Test
    void push_ofAnInvalidManifest_json_isTheControllersError() throws IOException {
        Path file = Files.writeString(dir.resolve("web.json"), "{\n  \"module\": \"web\"\n}\n");

        CommandRun run = controller.run("push", file.toString(), "--json");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(json(run).get("error").get("code").asString()).isEqualTo("invalid");
        assertThat(json(run).get("error").get("message").asString()).startsWith("the manifest has ");
        assertThat(json(run).get("error").get("pointer").asString()).startsWith("/manifest");
    }

    @Test
    void build_printsWhatItRequested_andAnUnknownArtifactIsNotFound() {
        controller.withExampleMesh();

        CommandRun run = controller.run("build", "mesh-host");
        CommandRun unknown = controller.run("build", "mesh-host", "nope");

        assertThat(run.out()).isEqualTo("requested build:mesh-host@0.1.0/host\n");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).isEqualTo("error (not-found): module mesh-host has no artifact \"nope\"\n"
                + "  at /artifact\n");
    }

    @Test
    void aClosedPort_isUnreachable_exits3_namingWhatWasTried() throws IOException {
        String url;
        try (ServerSocket socket = new ServerSocket(0)) {
            url = "http://127.0.0.1:" + socket.getLocalPort() + "/mcp";
        }
        CommandRun run = Cli.run(Map.of("MESH_CONTROLLER_URL", url, "MESH_CONTROLLER_STATE", state.toString()), "nodes");

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines().toList()).hasSize(3);
        assertThat(run.err().lines().toList().get(0)).isEqualTo("mesh-controller: no controller was reached; tried, "
                + "in order:");
        assertThat(run.err().lines().toList().get(1)).isEqualTo("  --url: not given");
        assertThat(run.err().lines().toList().get(2)).startsWith("  " + url + " (from MESH_CONTROLLER_URL): cannot "
                + "connect to the controller at " + url);
    }

    @Test
    void somethingThatIsNotAnMcpEndpoint_isUnreachable_exits3() {
        String url = controller.server.endpoint().resolve("/elsewhere").toString();

        CommandRun run = controller.run("status", "--url", url);

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("mesh-controller: no controller was reached; tried, in order:\n  " + url
                + " (from --url): initialize failed at " + url + ": not found: the MCP endpoint is /mcp\n");
    }

    @Test
    void theUrlOption_winsOverTheVariable_andTheStatesTokenIsStillUsed() {
        Map<String, String> env = Map.of("MESH_CONTROLLER_URL", "http://127.0.0.1:1/mcp",
                "MESH_CONTROLLER_STATE", state.toString());

        CommandRun run = Cli.run(env, "nodes", "--url", controller.server.endpoint().toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines().getFirst()).startsWith("NODE");
    }

    @Test
    void theStateOption_findsTheController() {
        CommandRun run = Cli.run(Map.of("MESH_CONTROLLER_STATE", dir.toString()), "nodes", "--state", state.toString());

        assertThat(run.exitCode()).isZero();
    }

    @Test
    void noControllerFound_exits3_namingEverySource() {
        Path empty = dir.resolve("empty");

        CommandRun run = Cli.run(Map.of("MESH_CONTROLLER_STATE", empty.toString()), "status");

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("""
                mesh-controller: no controller was reached; tried, in order:
                  --url: not given
                  MESH_CONTROLLER_URL: not set
                  %s (MESH_CONTROLLER_STATE): no such file, so no controller serves from that state directory; \
                start one with mesh-controller serve --dev, or say where it is with --url or --state
                """.formatted(empty.resolve("url")));
    }

    @Test
    void aWrongToken_isUnauthorized_exits1_notUnreachable() throws IOException {
        Path other = Files.writeString(dir.resolve("other-token"), "not-the-token");
        Files.setPosixFilePermissions(other, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

        CommandRun run = controller.run("status", "--token-file", other.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("error (unauthorized): " + controller.server.endpoint() + " refused the "
                + "request (HTTP 401");
    }

    @Test
    void aUrlThatIsNotAUrl_isAConfigurationError_exits2() {
        CommandRun run = controller.run("nodes", "--url", "127.0.0.1:7300");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("mesh-controller: --url: \"127.0.0.1:7300\" is not the URL of a controller "
                + "(an http:// or https:// URL with a host, and no query or fragment, is needed); give its MCP "
                + "endpoint, e.g. http://127.0.0.1:7300/mcp\n");
    }

    @Test
    void aMissingArgument_isAUsageError_exits2() {
        CommandRun run = controller.run("assign", "mesh-bus");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter: 'NODE'");
    }
}
