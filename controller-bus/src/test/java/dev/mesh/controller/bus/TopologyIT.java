package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TopologyIT {

    private RabbitVhost vhost;
    private Broker broker;
    /** The test's own connection, with the plain client, to look at what the controller declared. */
    private Connection plain;

    @BeforeEach
    void connect() throws Exception {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitVhost.HOST);
        factory.setVirtualHost(vhost.name());
        plain = factory.newConnection("it-plain");
    }

    @AfterEach
    void disconnect() throws Exception {
        plain.close();
        broker.close();
        vhost.close();
    }

    @Test
    void declare_twice_isIdempotent_andDeadLettersReachTheDeadQueue_andAreCounted() throws Exception {
        List<String> all = List.of("exchange mesh-controller.dead", "queue mesh-controller.dead",
                "queue mesh-controller.verbs", "queue mesh-controller.reports", "exchange mesh.declarations",
                "exchange mesh.builds");

        Topology.Declared first = Topology.declare(broker);
        Topology.Declared second = Topology.declare(broker);

        assertThat(first).isEqualTo(new Topology.Declared(vhost.name(), all, List.of()));
        assertThat(second).isEqualTo(new Topology.Declared(vhost.name(), List.of(), all));
        assertThat(second.size()).isEqualTo(6);
        assertThat(Topology.deadLetters(broker)).isZero();

        Channel channel = plain.createChannel();
        for (String queue : List.of("mesh-controller.verbs", "mesh-controller.reports", "mesh-controller.dead")) {
            assertThat(channel.queueDeclarePassive(queue).getQueue()).isEqualTo(queue);
        }
        // The same arguments from another client: accepted, so they are the wire contract's.
        channel.queueDeclare("mesh-controller.verbs", true, false, false, Map.of("x-queue-type", "quorum",
                "x-single-active-consumer", true, "x-delivery-limit", 5, "x-dead-letter-exchange",
                "mesh-controller.dead"));
        channel.exchangeDeclarePassive("mesh.declarations");
        channel.exchangeDeclarePassive("mesh.builds");
        channel.confirmSelect();
        channel.basicPublish("mesh-controller.dead", "any", null, "dead".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(5_000);
        assertThat(channel.queueDeclarePassive("mesh-controller.dead").getMessageCount()).isEqualTo(1);
        assertThat(Topology.deadLetters(broker)).isEqualTo(1);
    }

    @Test
    void declare_someThere_toldApartFromTheNew() throws Exception {
        plain.createChannel().exchangeDeclare("mesh.builds", "direct", true);

        Topology.Declared declared = Topology.declare(broker);

        assertThat(declared.found()).containsExactly("exchange mesh.builds");
        assertThat(declared.created()).hasSize(5).doesNotContain("exchange mesh.builds");
    }

    @Test
    void deadLetters_withoutTheTopology_isABusException_sayingWhatToRun() {
        assertThatThrownBy(() -> Topology.deadLetters(broker)).isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot count the messages in queue mesh-controller.dead in virtual host "
                        + vhost.name() + ": ")
                .hasMessageEndingWith("; check that RabbitMQ runs and that the topology is declared (mesh-controller "
                        + "prepare)");
    }

    @Test
    void declare_queueWithOtherArguments_isRefused_namingQueueArgumentAndFix_andDeclaresTheRest() throws Exception {
        plain.createChannel().queueDeclare("mesh-controller.verbs", true, false, false, Map.of("x-queue-type",
                "quorum", "x-single-active-consumer", true, "x-delivery-limit", 3, "x-dead-letter-exchange",
                "mesh-controller.dead"));

        assertThatThrownBy(() -> Topology.declare(broker)).isInstanceOf(BusException.class)
                .hasMessageStartingWith("the broker's topology in virtual host " + vhost.name() + " differs from the "
                        + "controller's (1 problem):\n  queue mesh-controller.verbs exists with other arguments: its "
                        + "x-delivery-limit differs from the controller's (the broker says: PRECONDITION_FAILED - "
                        + "inequivalent arg 'x-delivery-limit' for queue 'mesh-controller.verbs'")
                .hasMessageEndingWith("); delete the queue, or migrate it, then start again");
        Channel channel = plain.createChannel();
        assertThat(channel.queueDeclarePassive("mesh-controller.reports").getQueue())
                .isEqualTo("mesh-controller.reports");
        channel.exchangeDeclarePassive("mesh.builds");
    }

    @Test
    void declareHost_bindsTheNodesQueueToDeclarations_withTheNodesName() throws Exception {
        Topology.declare(broker);

        assertThat(Topology.declareHost(broker, "n1")).isEqualTo("mesh-host.n1");
        assertThat(Topology.declareHost(broker, "n1")).isEqualTo("mesh-host.n1");

        Channel channel = plain.createChannel();
        channel.confirmSelect();
        channel.basicPublish("mesh.declarations", "n1", new AMQP.BasicProperties.Builder().deliveryMode(2).build(),
                "{}".getBytes(StandardCharsets.UTF_8));
        channel.basicPublish("mesh.declarations", "n2", null, "{}".getBytes(StandardCharsets.UTF_8));
        channel.waitForConfirmsOrDie(5_000);
        GetResponse got = channel.basicGet("mesh-host.n1", true);
        assertThat(got).isNotNull();
        assertThat(got.getMessageCount()).as("the other node's declaration is not in this queue").isZero();
    }
}
