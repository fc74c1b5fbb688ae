package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.impl.NetworkConnection;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.memory.MemoryBuilders;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.plan.DeclarationReader;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Declarations out to the real RabbitMQ, a virtual host per test; the host's side is plain amqp-client code,
 * as a host in another language would read its queue.
 */
class BrokerDeliveriesIT {

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerDeliveries deliveries;
    /** The test's own connection, with the plain client, to read the hosts' queues. */
    private Connection plain;

    @BeforeEach
    void connect() throws Exception {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        deliveries = new BrokerDeliveries(broker);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitVhost.HOST);
        factory.setVirtualHost(vhost.name());
        plain = factory.newConnection("it-host");
    }

    @AfterEach
    void disconnect() throws Exception {
        plain.close();
        deliveries.close();
        broker.close();
        vhost.close();
    }

    @Test
    void deliver_firstToANode_declaresItsQueue_andTheDeclarationArrivesThereExactly() throws Exception {
        assertThat(queueExists("mesh-host.n1")).as("before the first delivery").isFalse();
        Topology.declareHost(broker, "n2");
        Declaration declaration = Declarations.of("n1", "1");

        deliveries.deliver(declaration, 42);

        GetResponse got = plain.createChannel().basicGet("mesh-host.n1", true);
        assertThat(got).isNotNull();
        assertThat(got.getEnvelope().getExchange()).isEqualTo("mesh.declarations");
        assertThat(got.getEnvelope().getRoutingKey()).isEqualTo("n1");
        AMQP.BasicProperties properties = got.getProps();
        assertThat(properties.getDeliveryMode()).isEqualTo(2);
        assertThat(properties.getContentType()).isEqualTo("application/json");
        // The quorum queue adds its own x-delivery-count; the controller sends these two only.
        assertThat(properties.getHeaders().keySet()).filteredOn(key -> !key.startsWith("x-"))
                .containsExactlyInAnyOrder("revision", "epoch");
        assertThat(properties.getHeaders().get("revision")).hasToString(declaration.revision());
        assertThat(properties.getHeaders().get("epoch")).isEqualTo(42L);
        assertThat(properties.getUserId()).as("the controller's user, which the broker checks").isEqualTo(broker.settings().user());
        assertThat(got.getBody()).isEqualTo(CanonicalJson.bytes(declaration));
        // What a host reads back is the declaration, and its revision is the digest of what it read.
        assertThat(DeclarationReader.read(got.getBody(), "mesh-host.n1")).isEqualTo(declaration);
        assertThat(got.getMessageCount()).isZero();
        assertThat(plain.createChannel().queueDeclarePassive("mesh-host.n2").getMessageCount())
                .as("the other node's queue").isZero();
    }

    @Test
    void executionRound_declaresTheQueueOfEveryKnownNode_beforeAnythingIsDeliveredToIt() throws Exception {
        MemoryInventory inventory = new MemoryInventory();
        inventory.report(new Node("n1", "10.0.0.1", "debian-12"));
        Execution execution = Execution.of(new Execution.Ports(inventory, deliveries, new MemoryBuilders(),
                new MemoryEvents(), Layout.DEFAULT, Controllers.CLOCK));
        assertThat(queueExists("mesh-host.n1")).as("before the round").isFalse();

        Execution.Round round = execution.run(1);

        assertThat(round.delivered()).as("nothing is assigned: nothing to deliver").isEmpty();
        assertThat(round.failed()).isEmpty();
        assertThat(queueExists("mesh-host.n1")).as("the node known, its queue declared").isTrue();
        // A declaration published now, before its host ever connected, waits in the queue.
        Channel publishing = plain.createChannel();
        publishing.confirmSelect();
        publishing.basicPublish("mesh.declarations", "n1", true, null, new byte[] {'{', '}'});
        publishing.waitForConfirmsOrDie(5_000);
        GetResponse got = publishing.basicGet("mesh-host.n1", true);
        assertThat(got).as("routed to the node's queue").isNotNull();

        inventory.report(new Node("n2", "10.0.0.2", "debian-12"));
        execution.run(1);
        assertThat(queueExists("mesh-host.n2")).as("a node known later, at the next round").isTrue();
    }

    @Test
    void deliver_declaresTheQueueOncePerNode_andAgainAfterAFailure() throws Exception {
        deliveries.deliver(Declarations.of("n1", "1"), 1);
        plain.createChannel().queueDelete("mesh-host.n1");
        Declaration second = Declarations.of("n1", "2");

        // Declared once: this instance does not look for the queue again, so the broker returns the message.
        assertThatThrownBy(() -> deliveries.deliver(second, 1)).isInstanceOf(BusException.class)
                .hasMessage("the broker could not route the declaration " + second.revision() + " of node n1 to a "
                        + "queue (312 NO_ROUTE; exchange mesh.declarations, routing key n1, virtual host "
                        + vhost.name() + "): no queue is bound to mesh.declarations with key n1 (mesh-host.n1 or "
                        + "its binding was deleted); deliver it again: the next delivery declares the queue again");
        deliveries.deliver(second, 1);

        GetResponse got = plain.createChannel().basicGet("mesh-host.n1", true);
        assertThat(got.getBody()).isEqualTo(CanonicalJson.bytes(second));
        assertThat(got.getMessageCount()).isZero();
    }

    @Test
    void deliver_whileTheConnectionIsDown_failsNamingNodeRevisionAndVhost_andTheNextOneSucceeds() throws Exception {
        deliveries.deliver(Declarations.of("n1", "1"), 1);
        CountDownLatch down = new CountDownLatch(1);
        broker.connection().addShutdownListener(cause -> down.countDown());
        CountDownLatch recovered = RabbitVhost.recovery(broker.connection());
        vhost.closeConnection(((NetworkConnection) broker.connection()).getLocalPort());
        assertThat(down.await(10, TimeUnit.SECONDS)).as("the broker closed the connection").isTrue();
        Declaration second = Declarations.of("n1", "2");

        assertThatThrownBy(() -> deliveries.deliver(second, 2)).isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot publish the declaration " + second.revision() + " of node n1 to "
                        + "exchange mesh.declarations in virtual host " + vhost.name() + ": ")
                .hasMessageContaining("CONNECTION_FORCED")
                .hasMessageEndingWith("; it was not stored: check that RabbitMQ runs and that the exchange exists "
                        + "(prepare declares it), then send it again");
        assertThat(recovered.await(20, TimeUnit.SECONDS)).as("the client reconnected").isTrue();
        deliveries.deliver(second, 2);

        Channel channel = plain.createChannel();
        assertThat(channel.basicGet("mesh-host.n1", true).getBody()).isEqualTo(CanonicalJson.bytes(
                Declarations.of("n1", "1")));
        GetResponse got = channel.basicGet("mesh-host.n1", true);
        assertThat(got.getBody()).isEqualTo(CanonicalJson.bytes(second));
        assertThat(got.getProps().getHeaders().get("epoch")).isEqualTo(2L);
    }

    @Test
    void deliver_withoutRevisionOrEpoch_isRefusedBeforeAnythingIsSent() throws Exception {
        Declaration unsigned = Declarations.of("n1", "1").withRevision("");

        assertThatThrownBy(() -> deliveries.deliver(unsigned, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the declaration of node n1 has no revision; deliver a composed declaration");
        assertThatThrownBy(() -> deliveries.deliver(Declarations.of("n1", "1"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a delivery carries the epoch of the plan lock taken, at least 1, not 0");
        assertThat(queueExists("mesh-host.n1")).isFalse();
    }

    private boolean queueExists(String queue) throws IOException {
        // A passive declaration of a missing queue closes the channel: one of its own.
        Channel channel = plain.createChannel();
        try {
            channel.queueDeclarePassive(queue);
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            channel.abort();
        }
    }
}
