package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.impl.NetworkConnection;
import dev.mesh.controller.bus.BrokerSettings.Transport;
import dev.mesh.controller.core.settings.Variables.Address;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The broker named by several addresses, as a cluster's members are ({@code MESH_BROKER_ADDRESS_PORT}
 * with commas), on the local RabbitMQ: an address where nothing listens stands for a member that is down.
 * The connection is made to the first that answers, in the order given, and made again the same way when
 * the broker closes it.
 */
class BrokerAddressesIT {

    private RabbitVhost vhost;

    @BeforeEach
    void vhost() {
        vhost = RabbitVhost.create();
    }

    @AfterEach
    void close() {
        vhost.close();
    }

    @Test
    void aMemberThatDoesNotAnswer_isPassedOver_forTheNextInOrder_andTheConnectionWorks() throws Exception {
        int down = portWhereNothingListens();
        try (Broker broker = Broker.connect(settings(down, RabbitVhost.PORT), "it-addresses")) {
            assertThat(broker.connection().getPort()).isEqualTo(RabbitVhost.PORT);
            assertRoundTrip(broker);
        }
    }

    @Test
    void noMemberAnswers_isOneErrorNamingEveryAddress() throws Exception {
        int first = portWhereNothingListens();
        int second = portWhereNothingListens();

        assertThatThrownBy(() -> Broker.connect(settings(first, second), "it-addresses"))
                .isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot connect to the broker as guest@127.0.0.1:" + first + ",127.0.0.1:"
                        + second + "/" + vhost.name() + ": ")
                .hasMessageEndingWith("; check that RabbitMQ runs there, that the virtual host exists and that the "
                        + "user may use it");
    }

    @Test
    void theBrokerClosesTheConnection_itIsMadeAgainThroughTheList_passingOverTheMemberThatIsDown() throws Exception {
        int down = portWhereNothingListens();
        try (Broker broker = Broker.connect(settings(down, RabbitVhost.PORT), "it-addresses")) {
            CountDownLatch recovered = RabbitVhost.recovery(broker.connection());

            vhost.closeConnection(((NetworkConnection) broker.connection()).getLocalPort());

            assertThat(recovered.await(20, TimeUnit.SECONDS)).as("the client connected again").isTrue();
            assertThat(broker.connection().getPort()).isEqualTo(RabbitVhost.PORT);
            assertRoundTrip(broker);
        }
    }

    private BrokerSettings settings(int first, int second) {
        return new BrokerSettings(List.of(new Address(RabbitVhost.HOST, first), new Address(RabbitVhost.HOST, second)),
                vhost.name(), RabbitVhost.USER, RabbitVhost.PASSWORD, Transport.PLAIN);
    }

    /** Declares a queue of its own, publishes to it and reads the message back, on the broker's connection. */
    private static void assertRoundTrip(Broker broker) throws Exception {
        try (Channel channel = broker.connection().createChannel()) {
            String queue = channel.queueDeclare("", false, true, true, null).getQueue();
            channel.basicPublish("", queue, null, "hello".getBytes(StandardCharsets.UTF_8));
            channel.confirmSelect();
            channel.basicPublish("", queue, null, "confirmed".getBytes(StandardCharsets.UTF_8));
            assertThat(channel.waitForConfirms(5_000)).isTrue();
            assertThat(new String(channel.basicGet(queue, true).getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
        }
    }

    /** @return a loopback port that was free a moment ago: a connection to it is refused at once */
    private static int portWhereNothingListens() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
