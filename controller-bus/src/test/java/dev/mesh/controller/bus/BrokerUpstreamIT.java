package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.mcp.McpException;
import dev.mesh.controller.mcp.StdioBridge;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code mesh-controller mcp} in a mesh: the stdio bridge forwarding over the broker to a controller's verbs. */
class BrokerUpstreamIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Controllers controller = new Controllers();
    private RabbitVhost vhost;
    private Broker broker;
    private BrokerVerbs transport;

    @BeforeEach
    void start() {
        vhost = RabbitVhost.create();
        controller.identity.add("guest");
        controller.identity.grant("guest", "tools", "status", "nodes", "assign");
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        transport = BrokerVerbs.start(broker, controller.verbs, controller.identity, Controllers.VERSION,
                controller.lifecycle);
    }

    @AfterEach
    void stop() {
        transport.close();
        broker.close();
        vhost.close();
    }

    private static List<JsonNode> bridge(BrokerUpstream upstream, String... lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StdioBridge.of(upstream, "0.1.0-bridge").run(new ByteArrayInputStream((String.join("\n", lines) + "\n")
                .getBytes(StandardCharsets.UTF_8)), out);
        return out.toString(StandardCharsets.UTF_8).lines().map(JSON::readTree).toList();
    }

    @Test
    void theBridge_answersReadsAndMutatingVerbs_overTheBroker() {
        try (BrokerUpstream upstream = BrokerUpstream.connect(vhost.settings(), Duration.ofSeconds(10))) {
            List<JsonNode> answers = bridge(upstream,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"nodes\",\"arguments\":{}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"assign\","
                            + "\"arguments\":{\"module\":\"mesh-store\",\"node\":\"alpha\"}}}");

            assertThat(answers).hasSize(3);
            assertThat(answers.get(1).at("/result/structuredContent/nodes/0/name").asString()).isEqualTo("alpha");
            assertThat(answers.get(2).at("/result/isError").asBoolean()).as(answers.get(2).toString()).isTrue();
            assertThat(answers.get(2).at("/result/structuredContent/code").asString())
                    .as("assign ran (message_id given): mesh-store is not pushed").isEqualTo("not-found");
            assertThat(controller.inventory.assignments()).doesNotContain(new Assignment("mesh-store", "alpha"));
        }
    }

    @Test
    void noControllerServing_isUnreachable_namingTheQueueAndTheBroker() {
        transport.close();
        try (BrokerUpstream upstream = BrokerUpstream.connect(vhost.settings(), Duration.ofMillis(500))) {
            assertThatThrownBy(() -> upstream.exchange(JSON.readTree(
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")))
                    .isInstanceOf(McpException.class)
                    .hasMessageContaining("no controller answered on the queue mesh-controller.verbs at guest@")
                    .hasMessageContaining(vhost.name());
        }
    }
}
