package dev.mesh.controller.bus;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import dev.mesh.controller.core.BuildersContract;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link BrokerBuilders} on the real RabbitMQ, a virtual host per test, passes core's builders' contract: a
 * builder reads its system's queue {@code mesh-builder.<system>} with the plain client.
 */
class BrokerBuildersContractIT extends BuildersContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerBuilders builders;
    private Connection builder;

    @Override
    protected Builders newBuilders() {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-controller");
        Topology.declare(broker);
        builders = new BrokerBuilders(broker);
        try {
            builder = vhost.connect(RabbitVhost.USER);
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException("cannot connect to RabbitMQ as a builder", e);
        }
        return builders;
    }

    @Override
    protected List<Received> receivedOn(String system) {
        List<Received> received = new ArrayList<>();
        for (GetResponse got : RabbitVhost.drain(builder, "mesh-builder." + system)) {
            JsonNode body = JSON.readTree(got.getBody());
            received.add(new Received(new BuildOrder(text(body, "build"), text(body, "module"), text(body, "version"),
                    text(body, "artifact"), text(body, "kind"), text(body, "language"), text(body, "system"),
                    text(body, "from"), text(body, "binary")), (Long) got.getProps().getHeaders().get("epoch")));
        }
        return received;
    }

    private static String text(JsonNode body, String field) {
        return body.get(field).stringValue();
    }

    @AfterEach
    void disconnect() throws IOException {
        builder.close();
        builders.close();
        broker.close();
        vhost.close();
    }
}
