package dev.mesh.controller.bus;

import com.rabbitmq.client.Connection;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.DeliveriesContract;
import dev.mesh.controller.core.plan.DeclarationReader;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link BrokerDeliveries} on the real RabbitMQ, a virtual host per test, passes core's deliveries contract: a
 * node's host reads its queue {@code mesh-host.<node>} with the plain client.
 */
class BrokerDeliveriesContractIT extends DeliveriesContract {

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerDeliveries deliveries;
    private Connection host;

    @Override
    protected Deliveries newDeliveries() {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        deliveries = new BrokerDeliveries(broker);
        try {
            host = vhost.connect(RabbitVhost.USER);
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException("cannot connect to RabbitMQ as the host", e);
        }
        return deliveries;
    }

    @Override
    protected List<Received> receivedBy(String node) {
        String queue = "mesh-host." + node;
        return RabbitVhost.drain(host, queue).stream().map(got -> new Received(DeclarationReader.read(got.getBody(),
                queue), String.valueOf(got.getProps().getHeaders().get("revision")),
                (Long) got.getProps().getHeaders().get("epoch"))).toList();
    }

    @AfterEach
    void disconnect() throws IOException {
        host.close();
        deliveries.close();
        broker.close();
        vhost.close();
    }
}
