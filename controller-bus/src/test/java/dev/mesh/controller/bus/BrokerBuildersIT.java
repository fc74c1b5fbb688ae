package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.mesh.controller.core.BuildOrder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Build orders out to the real RabbitMQ, a virtual host per test; the builders' side is plain amqp-client
 * code: a queue bound to {@code mesh.builds} with the system it builds for.
 */
class BrokerBuildersIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final BuildOrder ORDER = new BuildOrder("build:mesh-store@1.4.0/server", "mesh-store", "1.4.0",
            "server", "binary", "rust", "debian-12", "src/server", "mesh-store-server");

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerBuilders builders;
    private Connection plain;

    @BeforeEach
    void connect() throws Exception {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        builders = new BrokerBuilders(broker);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitVhost.HOST);
        factory.setVirtualHost(vhost.name());
        plain = factory.newConnection("it-builder");
    }

    @AfterEach
    void disconnect() throws Exception {
        plain.close();
        builders.close();
        broker.close();
        vhost.close();
    }

    /** @return a builder's queue, bound to {@code mesh.builds} with {@code system} */
    private String builderQueue(Channel channel, String system) throws Exception {
        String queue = channel.queueDeclare("builder." + system, true, false, false, null).getQueue();
        channel.queueBind(queue, "mesh.builds", system);
        return queue;
    }

    @Test
    void request_arrivesOnTheQueueBoundWithItsSystem_withTheExactFields() throws Exception {
        Channel channel = plain.createChannel();
        String debian = builderQueue(channel, "debian-12");
        String arch = builderQueue(channel, "arch");

        builders.request(ORDER, 7);

        GetResponse got = channel.basicGet(debian, true);
        assertThat(got).isNotNull();
        assertThat(got.getEnvelope().getExchange()).isEqualTo("mesh.builds");
        assertThat(got.getEnvelope().getRoutingKey()).isEqualTo("debian-12");
        AMQP.BasicProperties properties = got.getProps();
        assertThat(properties.getDeliveryMode()).isEqualTo(2);
        assertThat(properties.getContentType()).isEqualTo("application/json");
        assertThat(properties.getHeaders()).containsOnlyKeys("epoch");
        assertThat(properties.getHeaders().get("epoch")).isEqualTo(7L);
        JsonNode body = JSON.readTree(got.getBody());
        assertThat(body.propertyNames()).containsExactly("build", "module", "version", "artifact", "kind",
                "language", "system", "from", "binary");
        assertThat(body.get("build").stringValue()).isEqualTo("build:mesh-store@1.4.0/server");
        assertThat(body.get("module").stringValue()).isEqualTo("mesh-store");
        assertThat(body.get("version").stringValue()).isEqualTo("1.4.0");
        assertThat(body.get("artifact").stringValue()).isEqualTo("server");
        assertThat(body.get("kind").stringValue()).isEqualTo("binary");
        assertThat(body.get("language").stringValue()).isEqualTo("rust");
        assertThat(body.get("system").stringValue()).isEqualTo("debian-12");
        assertThat(body.get("from").stringValue()).isEqualTo("src/server");
        assertThat(body.get("binary").stringValue()).isEqualTo("mesh-store-server");
        assertThat(channel.queueDeclarePassive(arch).getMessageCount()).as("another system's builder").isZero();
    }

    @Test
    void request_withNoBuilderYet_declaresTheSystemsBuildQueue_whereTheOrderWaitsForOne() throws Exception {
        builderQueue(plain.createChannel(), "arch");

        builders.request(ORDER, 7);

        // Seen: mesh-builder.debian-12 declared by the controller and bound with the system, the order in it; a
        // builder needs only to read it (docs/security.md).
        Channel channel = plain.createChannel();
        assertThat(channel.queueDeclarePassive("mesh-builder.debian-12").getMessageCount()).isEqualTo(1);
        GetResponse got = channel.basicGet("mesh-builder.debian-12", true);
        assertThat(JSON.readTree(got.getBody()).get("build").stringValue()).isEqualTo("build:mesh-store@1.4.0/server");
    }

    @Test
    void request_afterTheBuildQueuesBindingWasDeleted_failsSayingSo_andTheNextOneDeclaresItAgain() throws Exception {
        builders.request(ORDER, 7);
        Channel channel = plain.createChannel();
        channel.queuePurge("mesh-builder.debian-12");
        // Injected: the binding deleted under the controller, which believes the queue declared.
        channel.queueUnbind("mesh-builder.debian-12", "mesh.builds", "debian-12");

        assertThatThrownBy(() -> builders.request(ORDER, 7)).isInstanceOf(BusException.class)
                .hasMessage("the broker could not route the build order build:mesh-store@1.4.0/server for system "
                        + "debian-12 to a queue (312 NO_ROUTE; exchange mesh.builds, routing key debian-12, virtual "
                        + "host " + vhost.name() + "): no queue is bound to mesh.builds with routing key debian-12 "
                        + "(mesh-builder.debian-12 or its binding was deleted); request the build again: the next order "
                        + "declares the queue again");

        builders.request(ORDER, 7);
        assertThat(channel.queueDeclarePassive("mesh-builder.debian-12").getMessageCount()).isEqualTo(1);
    }

    @Test
    void request_withoutTheExchange_failsSayingSo_andTheNextOneDeclaresItAgain() throws Exception {
        builders.request(ORDER, 7);
        plain.createChannel().exchangeDelete("mesh.builds");

        assertThatThrownBy(() -> builders.request(ORDER, 7)).isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot publish the build order build:mesh-store@1.4.0/server for system "
                        + "debian-12 to exchange mesh.builds in virtual host " + vhost.name() + ": ")
                .hasMessageContaining("NOT_FOUND - no exchange 'mesh.builds'")
                .hasMessageEndingWith("then send it again");

        builders.request(ORDER, 7);
        assertThat(plain.createChannel().queueDeclarePassive("mesh-builder.debian-12").getMessageCount()).isEqualTo(2);
    }
}
