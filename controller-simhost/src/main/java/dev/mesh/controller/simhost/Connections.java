package dev.mesh.controller.simhost;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Opening and closing the two clients' connections, as a host in another language would configure them. */
final class Connections {

    private Connections() {
    }

    /** @throws SimulationException when the broker does not answer or refuses the user or virtual host */
    static Connection amqp(BrokerSettings broker, String name) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(broker.host());
        factory.setPort(broker.port());
        factory.setVirtualHost(broker.vhost());
        factory.setUsername(broker.user());
        factory.setPassword(broker.password());
        factory.setRequestedHeartbeat(5);
        factory.setConnectionTimeout(5_000);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(1_000);
        try {
            return factory.newConnection(name);
        } catch (IOException | TimeoutException e) {
            throw new SimulationException("cannot connect to the broker as " + broker.where() + " (" + e
                    + "); is RabbitMQ up, and does the user exist with permissions on the virtual host?"
                    + " (rabbitmqctl add_user / set_permissions)", e);
        }
    }

    /** @throws SimulationException when the server does not answer, or refuses the user */
    static io.nats.client.Connection nats(NatsSettings nats, String name) {
        return nats(nats, name, null);
    }

    /**
     * @param errors told what the server reports on the connection (a permissions violation, say), or {@code null}
     * @throws SimulationException when the server does not answer, or refuses the user
     */
    static io.nats.client.Connection nats(NatsSettings nats, String name, ErrorListener errors) {
        Options.Builder builder = Options.builder().server(nats.url()).connectionName(name)
                .connectionTimeout(Duration.ofSeconds(5)).maxReconnects(-1).reconnectWait(Duration.ofSeconds(1));
        if (!nats.user().isEmpty()) {
            builder.userInfo(nats.user(), nats.password());
        }
        if (errors != null) {
            builder.errorListener(errors);
        }
        try {
            return Nats.connect(builder.build());
        } catch (IOException e) {
            throw new SimulationException("cannot connect to NATS at " + nats.url() + (nats.user().isEmpty() ? ""
                    : " as " + nats.user()) + " (" + e + "); is nats-server up, and does it know the user?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SimulationException("interrupted while connecting to NATS at " + nats.url(), e);
        }
    }

    /** Closes a channel that may already be closed (by the broker, or by its connection). */
    static void close(Channel channel) {
        if (channel == null || !channel.isOpen()) {
            return;
        }
        try {
            channel.close();
        } catch (IOException | TimeoutException | ShutdownSignalException e) {
            // Closed meanwhile: what it held goes back to its queue either way.
        }
    }

    /** Closes a connection that may already be closed. */
    static void close(Connection connection) {
        if (connection == null || !connection.isOpen()) {
            return;
        }
        try {
            connection.close(5_000);
        } catch (IOException | ShutdownSignalException e) {
            // Closed meanwhile.
        }
    }

    /** Closes a NATS connection. */
    static void close(io.nats.client.Connection connection) {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
