package dev.mesh.controller.bus;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.ConsumersContract;
import dev.mesh.controller.handover.FeedRule;
import dev.mesh.controller.handover.HandoverSettings;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link BrokerConsumers} on the real RabbitMQ, a virtual host per test, passes core's consumers' contract: alone
 * on the verbs' queue, its own ticks are what the broker feeds it.
 */
class BrokerConsumersContractIT extends ConsumersContract {

    private RabbitVhost vhost;
    private Broker broker;
    private BrokerConsumers consumers;

    @Override
    protected Consumers newConsumers() {
        vhost = RabbitVhost.create();
        broker = Broker.connect(vhost.settings(), "it-consumers");
        Topology.declare(broker);
        Controllers controller = new Controllers();
        consumers = BrokerConsumers.of(broker, controller.verbs, controller.identity, Controllers.VERSION,
                controller.lifecycle, FeedRule.of(HandoverSettings.DEFAULTS));
        return consumers;
    }

    @Override
    protected void arrive(Consumers consumers) {
        // Its ticks, every 250 ms, reach it while it consumes.
    }

    @Override
    protected Duration patience() {
        // Starved after 750 ms, and a renewal of the subscription after 5 s: a second and a half covers a tick's
        // way and the starving, and shows that no tick is counted while handed over.
        return Duration.ofMillis(1_500);
    }

    @AfterEach
    void close() {
        if (consumers != null) {
            consumers.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (vhost != null) {
            vhost.close();
        }
    }
}
