package dev.mesh.controller.system;

import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * The broker a driver's mesh runs on, with a virtual host of the run's own: the local RabbitMQ ({@link Loopback}) or
 * the three nodes of {@code bin/clusters/rabbitmq} ({@link ClusterBroker}). {@link #close()} deletes the virtual host.
 */
interface MeshBroker extends AutoCloseable {

    /** @return the members' AMQP {@code host:port}, separated by commas, as {@code MESH_BROKER_ADDRESS_PORT} gives them */
    String members();

    /** @return the run's virtual host, which {@code guest} may use fully */
    String vhost();

    /** @return a client connection as {@code guest} to the virtual host, as a program in another language makes one */
    Connection connect(String name) throws IOException, TimeoutException;

    @Override
    void close();
}
