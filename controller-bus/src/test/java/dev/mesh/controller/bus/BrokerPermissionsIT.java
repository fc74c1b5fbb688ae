package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The broker's permissions as the controller sets them, on the real RabbitMQ with its management API: every act
 * issue 23 found a node's credentials could do is refused by the broker, and what each role needs works.
 */
class BrokerPermissionsIT {

    private RabbitVhost vhost;
    private Broker broker;
    private ManagementApi api;
    private BrokerPermissions permissions;
    private String n1;
    private String n2;
    private String builder;
    private final List<Connection> opened = new java.util.ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        vhost = RabbitVhost.create();
        api = RabbitVhost.management();
        // The users as an operator made them following the old docs: every permission (the drift to undo).
        n1 = vhost.addUser();
        n2 = vhost.addUser();
        builder = vhost.addUser();
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        Topology.declareHost(broker, n1);
        Topology.declareHost(broker, n2);
        Topology.declareBuilder(broker, "debian-12");
        permissions = new BrokerPermissions(api, vhost.name(), Set.of(RabbitVhost.USER));
    }

    @AfterEach
    void stop() throws Exception {
        for (Connection connection : opened) {
            connection.abort();
        }
        broker.close();
        vhost.close();
    }

    private Map<String, Access> desired() {
        return BrokerPermissions.desired(Map.of(n1, Set.of(), n2, Set.of("assign"), builder, Set.of("build")),
                Set.of(n1, n2));
    }

    @Test
    void reconcile_setsEachRoleExactly_andTheBrokerRefusesWhatANodeCouldDoBefore() throws Exception {
        BrokerPermissions.Changes changes = permissions.reconcile(desired());

        assertThat(changes.set()).containsExactlyInAnyOrder(n1, n2, builder);
        assertThat(api.permissions(vhost.name()).get(RabbitVhost.USER)).as("the controller's own, untouched")
                .isEqualTo(new Access(".*", ".*", ".*"));
        Channel as1 = channel(n1);

        // Refused, each closing the channel with 403 ACCESS_REFUSED: a forged declaration to another node,
        refused(() -> {
            Channel channel = channel(n1);
            channel.confirmSelect();
            channel.basicPublish(Topology.DECLARATIONS, n2, null, "{}".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(5_000);
        });
        // reading another node's declarations and other callers' dead requests,
        refused(() -> channel(n1).basicConsume(Topology.HOST_QUEUE_PREFIX + n2, true, (t, d) -> { }, t -> { }));
        refused(() -> channel(n1).basicConsume(Topology.DEAD, true, (t, d) -> { }, t -> { }));
        refused(() -> channel(n1).basicGet(Topology.VERBS, true));
        // binding its queue to another node's declarations or to the build orders,
        refused(() -> channel(n1).queueBind(Topology.HOST_QUEUE_PREFIX + n1, Topology.DECLARATIONS, n2));
        refused(() -> channel(n1).queueBind(Topology.HOST_QUEUE_PREFIX + n1, Topology.BUILDS, "debian-12"));
        // deleting the verbs' queue, or declaring any queue,
        refused(() -> channel(n1).queueDelete(Topology.VERBS));
        refused(() -> channel(n1).queueDeclare("rogue", true, false, false, Map.of("x-queue-type", "quorum")));
        // and a builder reading a host's queue or ordering builds.
        refused(() -> channel(builder).basicConsume(Topology.HOST_QUEUE_PREFIX + n1, true, (t, d) -> { }, t -> { }));
        refused(() -> {
            Channel channel = channel(builder);
            channel.confirmSelect();
            channel.basicPublish(Topology.BUILDS, "debian-12", null, "{}".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(5_000);
        });
        assertThat(broker.connection().createChannel().queueDeclarePassive(Topology.VERBS)).as("still there")
                .isNotNull();

        // Allowed: a host reads its own declarations,
        new BrokerDeliveries(broker).deliver(Declarations.of(n1, "1"), 3);
        GetResponse declaration = as1.basicGet(Topology.HOST_QUEUE_PREFIX + n1, true);
        assertThat(declaration).isNotNull();
        assertThat(declaration.getProps().getUserId()).isEqualTo(RabbitVhost.USER);
        // publishes its report as itself,
        Channel reporting = channel(n1);
        reporting.confirmSelect();
        reporting.basicPublish("", Topology.REPORTS, new AMQP.BasicProperties.Builder().userId(n1).build(),
                "{}".getBytes(StandardCharsets.UTF_8));
        reporting.waitForConfirmsOrDie(5_000);
        assertThat(broker.connection().createChannel().queueDeclarePassive(Topology.REPORTS).getMessageCount())
                .isEqualTo(1);
        // calls a verb with its replies on direct reply-to,
        BlockingQueue<com.rabbitmq.client.Delivery> requests = new LinkedBlockingQueue<>();
        broker.connection().createChannel().basicConsume(Topology.VERBS, true, (t, d) -> requests.add(d), t -> { });
        Channel calling = channel(n1);
        BlockingQueue<byte[]> replies = new LinkedBlockingQueue<>();
        calling.basicConsume("amq.rabbitmq.reply-to", true, (t, d) -> replies.add(d.getBody()), t -> { });
        calling.basicPublish("", Topology.VERBS, new AMQP.BasicProperties.Builder().userId(n1)
                .replyTo("amq.rabbitmq.reply-to").correlationId("c-1").build(), "{}".getBytes(StandardCharsets.UTF_8));
        com.rabbitmq.client.Delivery request = requests.poll(5, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.getProperties().getUserId()).isEqualTo(n1);
        broker.connection().createChannel().basicPublish("", request.getProperties().getReplyTo(), null,
                "answer".getBytes(StandardCharsets.UTF_8));
        assertThat(replies.poll(5, TimeUnit.SECONDS)).asString(StandardCharsets.UTF_8).isEqualTo("answer");
        // and a builder reads the build queue.
        new BrokerBuilders(broker).request(BrokerBuildersIT.ORDER, 2);
        assertThat(channel(builder).basicGet(Topology.BUILDER_QUEUE_PREFIX + "debian-12", true)).isNotNull();
    }

    @Test
    void reconcile_undoesADrift_clearsAPrincipalNoLongerKnown_andTellsOfAPrincipalWithNoUser() {
        permissions.reconcile(desired());
        assertThat(permissions.reconcile(desired()).none()).as("nothing to do the second time").isTrue();

        // Injected: n1 given every permission again by hand; n2 no longer a principal; a principal with no user.
        vhost.permitAll(n1);
        Map<String, Access> now = BrokerPermissions.desired(Map.of(n1, Set.of(), builder, Set.of("build"), "ghost",
                Set.of()), Set.of(n1, n2));
        BrokerPermissions.Changes changes = permissions.reconcile(now);

        assertThat(changes.set()).containsExactly(n1);
        assertThat(changes.cleared()).containsExactly(n2);
        assertThat(changes.noUser()).containsExactly("ghost");
        Map<String, Access> actual = api.permissions(vhost.name());
        assertThat(actual.get(n1)).isEqualTo(Access.of(n1, true, false));
        assertThat(actual).doesNotContainKey(n2);
        assertThat(actual.get(RabbitVhost.USER)).isEqualTo(new Access(".*", ".*", ".*"));
    }

    @Test
    void reconcile_withAWrongPassword_failsSayingWhichFileToFix() {
        ManagementApi wrong = new ManagementApi(RabbitVhost.HOST, RabbitVhost.MANAGEMENT_PORT, RabbitVhost.USER,
                dev.mesh.controller.core.Secret.of("not-the-password"), BrokerSettings.Transport.PLAIN);

        assertThatThrownBy(() -> new BrokerPermissions(wrong, vhost.name(), Set.of()).reconcile(desired()))
                .isInstanceOf(BusException.class)
                .hasMessage("cannot list the permissions of virtual host " + vhost.name() + ": the broker's management "
                        + "API refused user guest (401); fix MESH_BROKER_MANAGEMENT_FILE's user and password")
                .hasMessageNotContaining("not-the-password");
    }

    private Channel channel(String user) throws Exception {
        Connection connection = vhost.connect(user);
        opened.add(connection);
        return connection.createChannel();
    }

    private static void refused(ThrowingCallable act) {
        assertThatThrownBy(act).hasStackTraceContaining("ACCESS_REFUSED").hasStackTraceContaining("403");
    }
}
