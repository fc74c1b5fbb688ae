package dev.mesh.controller.system;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.mesh.controller.testing.ClusterScript;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * A virtual host of the run's own on the three RabbitMQ nodes of {@code bin/clusters/rabbitmq} (AMQP on
 * 127.0.0.1:5681–5683), made with the script's {@code up} and {@code rabbitmqctl add_vhost} (the cluster's nodes
 * run no management plugin), {@code guest} given every permission on it; {@link #close()} deletes it through a
 * node that runs. A client connection is given the three addresses; it does not recover by itself (its owner makes
 * another), and gives up on a member within 2 s.
 */
final class ClusterBroker implements MeshBroker {

    static final ClusterScript SCRIPT = ClusterScript.named("rabbitmq");
    /** How long a client connection waits for a member to answer. */
    private static final int CONNECT_TIMEOUT_MS = 2_000;

    private final String members;
    private final String vhost;

    private ClusterBroker(String members, String vhost) {
        this.members = members;
        this.vhost = vhost;
    }

    /**
     * Brings the cluster up (or finds it up) and makes the virtual host.
     *
     * @throws IllegalStateException when the script fails, with what it printed
     */
    static ClusterBroker open() {
        String members = SCRIPT.run("up");
        String vhost = "mesh-cluster-" + UUID.randomUUID().toString().substring(0, 8);
        SCRIPT.run("ctl", "1", "add_vhost", vhost);
        SCRIPT.run("ctl", "1", "set_permissions", "-p", vhost, Loopback.USER, ".*", ".*", ".*");
        return new ClusterBroker(members, vhost);
    }

    @Override
    public String members() {
        return members;
    }

    @Override
    public String vhost() {
        return vhost;
    }

    /** @return the members, in order: node 1 first */
    List<String> memberList() {
        return List.of(members.split(","));
    }

    @Override
    public Connection connect(String name) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setVirtualHost(vhost);
        factory.setUsername(Loopback.USER);
        factory.setPassword(Loopback.PASSWORD);
        factory.setRequestedHeartbeat(2);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        factory.setHandshakeTimeout(CONNECT_TIMEOUT_MS);
        return factory.newConnection(Address.parseAddresses(members), name);
    }

    @Override
    public void close() {
        String running = SCRIPT.run("running");
        if (running.isEmpty()) {
            System.err.println("cluster driver: no node of the cluster runs; virtual host " + vhost + " left behind");
            return;
        }
        SCRIPT.run("ctl", running.split(" ")[0], "delete_vhost", vhost);
    }
}
