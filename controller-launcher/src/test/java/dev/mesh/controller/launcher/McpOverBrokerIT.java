package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerSettings;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code mesh-controller mcp} in a mesh: with the broker's variables set it forwards over the broker
 * (docs/design.md section 7) to a controller's verbs on {@code mesh-controller.verbs} — here core's in-memory
 * ports behind the bus's {@link BrokerVerbs}, in a virtual host of the test's own on the local RabbitMQ.
 */
class McpOverBrokerIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
    private static final String NODES = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"nodes\",\"arguments\":{}}}";

    @TempDir
    Path dir;

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerVerbs transport;
    private final MemoryInventory inventory = new MemoryInventory();

    /** What one run of {@code mcp} wrote, and how it exited. */
    private record Run(int exitCode, String out, String err) {

        List<JsonNode> messages() {
            return out.lines().map(JSON::readTree).toList();
        }
    }

    @BeforeEach
    void start() {
        vhost = RabbitVhost.create();
        Clock clock = Clock.systemUTC();
        Lifecycle lifecycle = LocalLifecycle.active(LocalPlanLock.create(), "it-controller:1", clock);
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        MemoryIdentity identity = new MemoryIdentity();
        identity.add("guest");
        identity.grant("guest", "tools", "status", "nodes");
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, clock));
        broker = Broker.connect(new BrokerSettings(RabbitVhost.HOST, RabbitVhost.PORT, vhost.name(), "guest",
                Secret.of("guest"), BrokerSettings.Transport.PLAIN), "it-controller");
        Topology.declare(broker);
        transport = BrokerVerbs.start(broker, verbs, identity, "0.1.0-it", lifecycle);
    }

    @AfterEach
    void stop() {
        transport.close();
        broker.close();
        vhost.close();
    }

    private static Run mcp(Map<String, String> env, String... lines) {
        ByteArrayInputStream in = new ByteArrayInputStream((String.join("\n", lines) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int exitCode = Main.commandLine(env, in, out).setErr(new PrintWriter(err)).execute("mcp");
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    @Test
    void withTheBrokersVariables_toolsListAndACall_areAnsweredOverTheBroker() {
        // No HTTP controller anywhere: a state directory without url, so HTTP would exit 3.
        Map<String, String> env = new HashMap<>(vhost.environment(dir));
        env.put("MESH_CONTROLLER_STATE", dir.resolve("none").toString());

        Run run = mcp(env, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}", LIST, NODES);

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> messages = run.messages();
        assertThat(messages).hasSize(3);
        assertThat(messages.get(1).at("/result/tools")).hasSize(Verbs.names().size());
        assertThat(messages.get(2).at("/result/isError").asBoolean()).as(messages.get(2).toString()).isFalse();
        assertThat(messages.get(2).at("/result/structuredContent/nodes/0/name").asString()).isEqualTo("alpha");
        assertThat(run.err()).doesNotContain("\tat ");
    }

    @Test
    void aVerbThePrincipalIsNotGranted_isTheControllersToolError() {
        Run run = mcp(vhost.environment(dir), "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"assign\",\"arguments\":{\"module\":\"web\",\"node\":\"alpha\"}}}");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode result = run.messages().getFirst().path("result");
        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.at("/structuredContent/code").asString()).isEqualTo("unauthorized");
        assertThat(inventory.assignments()).isEmpty();
    }

    @Test
    void theOptions_winOverTheBroker_andNameAnHttpController() {
        assertThat(Main.commandLine(vhost.environment(dir)).setErr(new PrintWriter(new StringWriter()))
                .execute("mcp", "--url", "http://127.0.0.1:1/mcp", "--token-file", dir.resolve("none").toString()))
                .as("--url and --token-file: HTTP, whose token file is missing").isEqualTo(2);
    }

    @Test
    void aBrokerThatDoesNotAnswer_exits3_inOneLineOfOurOwn_beforeServing() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Map<String, String> env = new HashMap<>(vhost.environment(dir));
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:" + closed);

        Run run = mcp(env, LIST);

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(2).first().isEqualTo("mesh-controller: no controller was reached; "
                + "tried, in order:");
        assertThat(run.err().lines().toList().get(1)).startsWith("  cannot connect to the broker as guest@127.0.0.1:"
                + closed + "/" + vhost.name() + ": ").doesNotContain("\tat ");
    }

    @Test
    void aWrongPassword_exits3_sayingTheBrokerRefusedTheUser_withoutThePassword() throws IOException {
        Path file = dir.resolve("wrong.json");
        Files.writeString(file, "{\"user\": \"guest\", \"password\": \"not-guest-7f3a\", \"vhost\": \"" + vhost.name()
                + "\"}");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Map<String, String> env = new HashMap<>(vhost.environment(dir));
        env.put("MESH_BROKER_ADDRESS_FILE", file.toString());

        Run run = mcp(env, LIST);

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).contains("refused user \"guest\"").doesNotContain("not-guest-7f3a");
    }

    @Test
    void halfTheBrokersVariables_exits2_namingTheOther() {
        Map<String, String> env = Map.of("MESH_BROKER_ADDRESS_FILE", vhost.environment(dir)
                .get("MESH_BROKER_ADDRESS_FILE"));

        Run run = mcp(env, LIST);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly("mesh-controller: MESH_BROKER_ADDRESS_PORT is not set; set it "
                + "to the broker's AMQP host:port, e.g. 127.0.0.1:5671");
    }
}
