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
    private static final BuildOrder ORDER = new BuildOrder("build:mesh-store@1.4.0/server", "mesh-store", "1.4.0",
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
    void request_withNoBuilderBoundForTheSystem_failsSayingHowToBindOne() throws Exception {
        builderQueue(plain.createChannel(), "arch");

        assertThatThrownBy(() -> builders.request(ORDER, 7)).isInstanceOf(BusException.class)
                .hasMessage("the broker could not route the build order build:mesh-store@1.4.0/server for system "
                        + "debian-12 to a queue (312 NO_ROUTE; exchange mesh.builds, routing key debian-12, virtual "
                        + "host " + vhost.name() + "): no builder consumes system debian-12: bind a queue to "
                        + "mesh.builds with routing key debian-12 (a builder for debian-12 does), then request the "
                        + "build again");

        // The channel is still good: once a builder is bound, the same order goes through.
        Channel channel = plain.createChannel();
        String debian = builderQueue(channel, "debian-12");
        builders.request(ORDER, 7);
        assertThat(channel.queueDeclarePassive(debian).getMessageCount()).isEqualTo(1);
    }

    @Test
    void request_withoutTheExchange_failsSayingToDeclareTheTopology_andWorksOnceItIsBack() throws Exception {
        plain.createChannel().exchangeDelete("mesh.builds");

        assertThatThrownBy(() -> builders.request(ORDER, 7)).isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot publish the build order build:mesh-store@1.4.0/server for system "
                        + "debian-12 to exchange mesh.builds in virtual host " + vhost.name() + ": ")
                .hasMessageContaining("NOT_FOUND - no exchange 'mesh.builds'")
                .hasMessageEndingWith("then send it again");

        Topology.declare(broker);
        Channel channel = plain.createChannel();
        String debian = builderQueue(channel, "debian-12");
        builders.request(ORDER, 7);
        assertThat(channel.queueDeclarePassive(debian).getMessageCount()).isEqualTo(1);
    }
}
