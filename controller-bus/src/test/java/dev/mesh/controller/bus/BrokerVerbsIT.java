package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.mcp.Envelope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class BrokerVerbsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ASSIGN = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-store\", \"node\": \"alpha\"}}}";

    private final Controllers controller = new Controllers();
    private RabbitVhost vhost;
    private Broker broker;
    private BrokerVerbs transport;
    private Caller guest;

    @BeforeEach
    void start() throws Exception {
        vhost = RabbitVhost.create();
        controller.identity.add("guest");
        controller.identity.grant("guest", "tools", "status", "nodes", "assign");
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        transport = BrokerVerbs.start(broker, controller.verbs, controller.identity, Controllers.VERSION,
                controller.lifecycle);
        guest = new Caller(vhost.name(), "guest", "guest");
    }

    @AfterEach
    void stop() throws Exception {
        guest.close();
        transport.close();
        broker.close();
        vhost.close();
    }

    private static String call(String verb) {
        return "{\"jsonrpc\": \"2.0\", \"id\": \"r-1\", \"method\": \"tools/call\", \"params\": {\"name\": \"" + verb
                + "\", \"arguments\": {}}}";
    }

    private static JsonNode body(Delivery reply) {
        return JSON.readTree(reply.getBody());
    }

    @Test
    void readVerbs_overTheBroker_answerExactlyWhatTheDispatcherAnswers() throws Exception {
        for (String request : new String[] {call("status"), call("nodes"),
                "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/list\"}"}) {
            Delivery reply = guest.call(guest.request("m-" + UUID.randomUUID()).build(), request);

            byte[] direct = controller.dispatcher().dispatch(request.getBytes(StandardCharsets.UTF_8),
                    Envelope.of("guest")).orElseThrow();
            assertThat(new String(reply.getBody(), StandardCharsets.UTF_8)).as(request)
                    .isEqualTo(new String(direct, StandardCharsets.UTF_8));
        }
        assertThat(body(guest.call(guest.request(null).build(), call("nodes"))).at("/result/isError").asBoolean())
                .as("a read needs no message_id").isFalse();
    }

    @Test
    void reply_carriesTheCorrelationId_andTheControllersEpochAndInstance() throws Exception {
        AMQP.BasicProperties request = guest.request("m-1").build();

        Delivery reply = guest.call(request, call("status"));

        assertThat(reply.getProperties().getCorrelationId()).isEqualTo(request.getCorrelationId());
        assertThat(reply.getProperties().getContentType()).isEqualTo("application/json");
        assertThat(reply.getProperties().getHeaders().get("epoch")).isEqualTo(1L);
        assertThat(reply.getProperties().getHeaders().get("instance")).hasToString(Controllers.INSTANCE);
        assertThat(body(reply).at("/result/structuredContent/role").asString()).isEqualTo("active");
    }

    @Test
    void assign_withTheSameMessageIdTwice_changesTheInventoryOnce_andAnswersTheRecordedResult() throws Exception {
        pushMeshStore();

        Delivery first = guest.call(guest.request("assign-1").build(), ASSIGN);
        Delivery second = guest.call(guest.request("assign-1").build(), ASSIGN);
        Delivery other = guest.call(guest.request("assign-2").build(), ASSIGN);

        assertThat(body(first).at("/result/isError").asBoolean()).isFalse();
        assertThat(body(first).at("/result/structuredContent/changed").asBoolean()).isTrue();
        assertThat(second.getBody()).as("the recorded answer").isEqualTo(first.getBody());
        assertThat(body(other).at("/result/structuredContent/changed").asBoolean())
                .as("another message_id runs again, and finds it done").isFalse();
        assertThat(controller.inventory.assignments()).containsExactly(new Assignment("mesh-store", "alpha"));
    }

    @Test
    void assign_withoutMessageId_isInvalid_andChangesNothing() throws Exception {
        pushMeshStore();

        JsonNode reply = body(guest.call(guest.request(null).build(), ASSIGN));

        assertThat(reply.at("/id").asInt()).isEqualTo(7);
        assertThat(reply.at("/result/isError").asBoolean()).isTrue();
        assertThat(reply.at("/result/structuredContent/code").asString()).isEqualTo("invalid");
        assertThat(reply.at("/result/structuredContent/message").asString()).isEqualTo("assign changes the mesh, so "
                + "over the broker it needs the message property message_id (1 to 200 characters, one per request), "
                + "which makes it idempotent; send the request again with one");
        assertThat(controller.inventory.assignments()).isEmpty();
    }

    @Test
    void knownPrincipalWithoutGrants_mayRead() throws Exception {
        String user = vhost.addUser();
        controller.identity.add(user);
        try (Caller reader = new Caller(vhost.name(), user, user)) {
            JsonNode reply = body(reader.call(reader.request("m-1").build(), call("status")));

            assertThat(reply.at("/result/isError").asBoolean()).as("reads: any known principal (docs/design.md "
                    + "section 7): " + reply).isFalse();
        }
    }

    @Test
    void unknownPrincipal_isUnauthorized_asTheDispatcherAnswersIt() throws Exception {
        String user = vhost.addUser(); // a broker user the identity has never heard of
        try (Caller stranger = new Caller(vhost.name(), user, user)) {
            AMQP.BasicProperties request = stranger.request("m-1").build();
            Delivery reply = stranger.call(request, call("status"));

            assertThat(body(reply).at("/result/structuredContent/code").asString()).isEqualTo("unauthorized");
            byte[] direct = controller.dispatcher().dispatch(call("status").getBytes(StandardCharsets.UTF_8),
                    Envelope.of(user, "m-1")).orElseThrow();
            assertThat(new String(reply.getBody(), StandardCharsets.UTF_8))
                    .isEqualTo(new String(direct, StandardCharsets.UTF_8));
        }
    }

    @Test
    void mutatingVerbWithoutTheGrant_isUnauthorized_andChangesNothing() throws Exception {
        pushMeshStore();
        String user = vhost.addUser();
        controller.identity.add(user);
        try (Caller reader = new Caller(vhost.name(), user, user)) {
            JsonNode read = body(reader.call(reader.request("m-read").build(), call("status")));
            JsonNode reply = body(reader.call(reader.request("m-assign").build(), ASSIGN));

            assertThat(read.at("/result/isError").asBoolean()).as("a read: " + read).isFalse();
            assertThat(reply.at("/result/isError").asBoolean()).isTrue();
            assertThat(reply.at("/result/structuredContent/code").asString()).isEqualTo("unauthorized");
            assertThat(reply.at("/result/structuredContent/message").asString()).startsWith("\"" + user
                    + "\" may not call assign");
            assertThat(controller.inventory.assignments()).isEmpty();
        }
    }

    /**
     * docs/design.md section 8: "a message that cannot be read is rejected without requeue (so it lands in
     * mesh-controller.dead at once) and counted". A body that is not UTF-8 JSON is such a message: no
     * reply, dead with x-first-death-reason rejected, counted, and the next request is answered.
     */
    @Test
    void bodyNotUtf8Json_isDeadAtOnce_counted_andTheConsumerKeepsServing() throws Exception {
        BlockingQueue<Delivery> dead = deadLetters();

        byte[][] malformed = {"not json {".getBytes(StandardCharsets.UTF_8), {(byte) 0xff, (byte) 0xfe, '{', '}'},
            new byte[0]};
        for (int i = 0; i < malformed.length; i++) {
            guest.channel().basicPublish("", Caller.VERBS, guest.request("m-bad-" + i).build(), malformed[i]);
        }
        for (int i = 0; i < malformed.length; i++) {
            Delivery letter = dead.poll(30, TimeUnit.SECONDS);
            assertThat(letter).as("dead letter " + i).isNotNull();
            assertThat(letter.getProperties().getMessageId()).isEqualTo("m-bad-" + i);
            assertThat(letter.getProperties().getHeaders().get("x-first-death-reason")).hasToString("rejected");
        }
        Delivery answered = guest.call(guest.request("m-2").build(), call("status"));
        assertThat(body(answered).at("/result/isError").asBoolean()).as("answered after them").isFalse();
        assertThat(transport.unreadable()).isEqualTo(malformed.length);
    }

    @Test
    void requestWithoutUserId_isUnauthorized() throws Exception {
        JsonNode reply = body(guest.call(guest.request("m-1").userId(null).build(), call("status")));

        assertThat(reply.at("/result/structuredContent/code").asString()).isEqualTo("unauthorized");
    }

    @Test
    void replyThatCannotBeDelivered_isRetriedUpToTheDeliveryLimit_thenDead_andTheConsumerKeepsServing()
            throws Exception {
        BlockingQueue<Delivery> dead = deadLetters();

        guest.send(guest.request("m-poison").replyTo("no-such-queue").build(), call("status"));

        Delivery poison = dead.poll(30, TimeUnit.SECONDS);
        assertThat(poison).as("dead-lettered after the delivery limit").isNotNull();
        assertThat(poison.getProperties().getMessageId()).isEqualTo("m-poison");
        assertThat(poison.getProperties().getHeaders().get("x-first-death-reason")).hasToString("delivery_limit");
        assertThat(body(guest.call(guest.request("m-2").build(), call("status"))).at("/result/isError").asBoolean())
                .isFalse();
    }

    @Test
    void requestWithoutReplyTo_isDeadAtOnce_andTheConsumerKeepsServing() throws Exception {
        BlockingQueue<Delivery> dead = deadLetters();

        guest.send(guest.request("m-nowhere").replyTo(null).build(), call("status"));

        Delivery nowhere = dead.poll(30, TimeUnit.SECONDS);
        assertThat(nowhere).isNotNull();
        assertThat(nowhere.getProperties().getHeaders().get("x-first-death-reason")).hasToString("rejected");
        assertThat(body(guest.call(guest.request("m-2").build(), call("status"))).at("/result/isError").asBoolean())
                .isFalse();
    }

    @Test
    void consumerCancelledByTheBroker_theQueueDeletedAndDeclaredAgain_isConsumedAgain() throws Exception {
        assertThat(body(guest.call(guest.request("m-1").build(), call("status"))).at("/result/isError").asBoolean())
                .isFalse();

        Channel consuming = transport.consuming();
        CountDownLatch left = new CountDownLatch(1);
        consuming.addShutdownListener(signal -> left.countDown());

        // Injected: the verbs' queue deleted under the running consumer, so the broker cancels it (basic.cancel);
        // once the transport left that channel for a new one, the queue declared again, as a second serve would.
        // (Declared again at once, RabbitMQ 3.10 may not cancel the consumer at all: see docs/bus.md.)
        guest.channel().queueDelete(Caller.VERBS);
        assertThat(left.await(10, TimeUnit.SECONDS)).as("the transport left the cancelled consumer's channel").isTrue();
        Topology.declare(broker);

        // Seen: the request waits in the new queue until the consumer is back (after 1 s), then is answered.
        assertThat(body(guest.call(guest.request("m-2").build(), call("status"))).at("/result/isError").asBoolean())
                .isFalse();
    }

    @Test
    void answerOverTheBrokersLimit_isRefusedWithATooLargeToolError_notRetriedUntilDeadLettered() throws Exception {
        // A page of the nodes verb (1,000 nodes) over 4 MiB: each entry about 2.6 KB, twice (text and structured).
        // No real node has such a name (the store holds 63 characters); the in-memory inventory takes any, and a
        // page of real names stays far below the limit, so this is the way to an answer too large.
        for (int i = 0; i < 1_000; i++) {
            controller.inventory.report(new Node("node-" + i + "-" + "x".repeat(2_500), "10.1." + (i / 250) + "."
                    + (i % 250), "debian-12"));
        }
        BlockingQueue<Delivery> dead = deadLetters();

        Delivery reply = guest.call(guest.request("m-big").build(), call("nodes"));

        JsonNode result = body(reply).path("result");
        assertThat(result.path("isError").asBoolean()).as(new String(reply.getBody(), 0, 300)).isTrue();
        assertThat(result.path("structuredContent").path("code").asString()).isEqualTo("invalid");
        assertThat(result.path("structuredContent").path("message").asString()).startsWith("the answer is ")
                .contains("over the 4194304 bytes a message on the broker may hold");
        assertThat(reply.getBody().length).isLessThan(1_000);
        assertThat(dead.poll(1, TimeUnit.SECONDS)).as("answered, not dead-lettered").isNull();
    }

    @Test
    void consumingChannelClosedByTheBroker_isReopened_andRequestsAreAnsweredAgain() throws Exception {
        Channel consuming = transport.consuming();
        CountDownLatch closed = new CountDownLatch(1);
        consuming.addShutdownListener(signal -> closed.countDown());

        // Injected: a channel error on the consuming channel: an acknowledgement of a delivery tag it never had,
        // which the broker answers with 406 PRECONDITION_FAILED, closing that channel (not the connection).
        consuming.basicAck(999_999, false);

        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the broker closed the channel").isTrue();
        assertThat(consuming.getCloseReason().isHardError()).as("a channel error, not the connection's").isFalse();
        assertThat(consuming.getCloseReason().getReason()).isInstanceOf(AMQP.Channel.Close.class);
        assertThat(((AMQP.Channel.Close) consuming.getCloseReason().getReason()).getReplyCode()).isEqualTo(406);
        // Seen: answered again, on another channel.
        assertThat(body(guest.call(guest.request("m-2").build(), call("status"))).at("/result/isError").asBoolean())
                .isFalse();
        assertThat(transport.consuming()).isNotSameAs(consuming);
        assertThat(transport.consuming().isOpen()).isTrue();
    }

    private BlockingQueue<Delivery> deadLetters() throws Exception {
        BlockingQueue<Delivery> dead = new LinkedBlockingQueue<>();
        Channel channel = guest.channel().getConnection().createChannel();
        channel.basicConsume("mesh-controller.dead", true, (tag, delivery) -> dead.add(delivery), tag -> { });
        return dead;
    }

    private void pushMeshStore() {
        ObjectNode arguments = JSON.createObjectNode();
        arguments.set("manifest", JSON.readTree(Path.of("../examples/modules/mesh-store.json").toFile()));
        controller.verbs.call("push", arguments);
    }
}
