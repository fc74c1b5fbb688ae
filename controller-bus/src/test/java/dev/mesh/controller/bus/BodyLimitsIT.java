package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Large bodies against the controller's verbs (issue 23, finding 3: a 50 MB request was read whole, and forty
 * of them killed both controllers), on the real RabbitMQ: with the broker's {@code max_message_size} at the
 * controller's limit such a request never reaches the queue; without it, the controller's client refuses it
 * before reading it, and the broker dead-letters it past the delivery limit, while nothing else is lost.
 */
class BodyLimitsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String STATUS = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"status\", \"arguments\": {}}}";

    private final Controllers controller = new Controllers();
    private RabbitVhost vhost;
    private Broker broker;
    private BrokerVerbs transport;
    private Caller guest;
    private long brokerLimitWas = -1;

    @BeforeEach
    void start() throws Exception {
        vhost = RabbitVhost.create();
        controller.identity.add("guest");
        controller.identity.grant("guest", "tools", "status");
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        transport = BrokerVerbs.start(broker, controller.verbs, controller.identity, Controllers.VERSION,
                controller.lifecycle);
    }

    @AfterEach
    void stop() throws Exception {
        if (brokerLimitWas > 0) {
            RabbitVhost.maxMessageSize(brokerLimitWas);
        }
        if (guest != null) {
            guest.close();
        }
        transport.close();
        broker.close();
        vhost.close();
    }

    @Test
    void refusesLargeBodies_tellsTheBrokersSetting() {
        assertThat(broker.refusesLargeBodies()).as("RabbitMQ's default max_message_size, 128 MiB").isFalse();
        brokerLimitWas = RabbitVhost.maxMessageSize(Broker.MAX_BODY_BYTES);
        assertThat(broker.refusesLargeBodies()).as("max_message_size = 4194304, as the broker module sets").isTrue();
        RabbitVhost.maxMessageSize(Broker.MAX_BODY_BYTES + 1);
        assertThat(broker.refusesLargeBodies()).as("one byte more: the probe is at the limit").isFalse();
        // The connection is left as it was: the verbs are answered.
        RabbitVhost.maxMessageSize(brokerLimitWas);
        brokerLimitWas = -1;
        try (Caller caller = new Caller(vhost.name(), "guest", "guest")) {
            assertThat(JSON.readTree(caller.call(caller.request("m-1").build(), STATUS).getBody())
                    .at("/result/isError").asBoolean()).isFalse();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void withTheBrokersLimit_a50MbRequestIsRefusedAtItsPublisher_andStatusIsAnswered() throws Exception {
        brokerLimitWas = RabbitVhost.maxMessageSize(Broker.MAX_BODY_BYTES);
        guest = new Caller(vhost.name(), "guest", "guest");

        // Injected: a 50 MB request, as the hostile node sent forty of.
        Channel channel = guest.channel().getConnection().createChannel();
        channel.confirmSelect();
        byte[] large = new byte[50 * 1024 * 1024];
        assertThatThrownBy(() -> {
            channel.basicPublish("", Topology.VERBS, guest.request("m-large").build(), large);
            channel.waitForConfirmsOrDie(10_000);
        }).hasStackTraceContaining("PRECONDITION_FAILED").hasStackTraceContaining("larger than configured max size");

        // Seen: it never reached the queue; the controller answers as before.
        assertThat(broker.connection().createChannel().queueDeclarePassive(Topology.VERBS).getMessageCount()).isZero();
        assertThat(JSON.readTree(guest.call(guest.request("m-1").build(), STATUS).getBody()).at("/result/isError")
                .asBoolean()).isFalse();
    }

    @Test
    void withoutTheBrokersLimit_aBodyOverTheClientsIsNeverRead_deadLetteredPastTheLimit_andStatusAnsweredAfter()
            throws Exception {
        guest = new Caller(vhost.name(), "guest", "guest");
        BlockingQueue<Delivery> dead = new LinkedBlockingQueue<>();
        // On the caller's connection, which has the client's default limit (64 MiB): the controller's would refuse it.
        guest.channel().getConnection().createChannel().basicConsume(Topology.DEAD, true, (tag, d) -> dead.add(d),
                tag -> { });

        // Injected: a request of the client's limit and 1 byte, into the queue (the broker allows 128 MiB here).
        guest.send(guest.request("m-large").build(), "x".repeat(Broker.MAX_BODY_BYTES + 1));

        // Seen: the controller's connection refuses it at its header and recovers, once per delivery, until the
        // broker dead-letters it; then a request is answered.
        Delivery poison = dead.poll(60, TimeUnit.SECONDS);
        assertThat(poison).as("dead-lettered past the delivery limit").isNotNull();
        assertThat(poison.getBody()).hasSize(Broker.MAX_BODY_BYTES + 1);
        assertThat(poison.getProperties().getHeaders().get("x-first-death-reason")).hasToString("delivery_limit");
        assertThat(JSON.readTree(guest.call(guest.request("m-1").build(), STATUS).getBody()).at("/result/isError")
                .asBoolean()).isFalse();
    }
}
