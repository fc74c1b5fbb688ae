package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Core's {@link Builders} on the broker (docs/design.md section 8, "Builds"): publishes a build order to
 * {@link Topology#BUILDS} with the artifact's {@code system} as routing key, persistent, content type
 * {@code application/json}, header {@code epoch}, and body {@code {"build", "module", "version",
 * "artifact", "kind", "language", "system", "from", "binary"}}. Each order is published {@code mandatory}
 * and confirmed by the broker before {@link #request} returns (see {@link ConfirmedPublisher}). Before the first
 * order for a system it declares that system's build queue, {@code mesh-builder.<system>} ({@link
 * Topology#declareBuilder}), so that an order waits there for a builder, which needs no permission to configure
 * (docs/security.md); an order the broker still returns (the binding deleted) is a failure rather than lost, and
 * the next order declares the queue again.
 *
 * <p>Thread-safe: orders are serialized on one channel.
 */
public final class BrokerBuilders implements Builders, AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Logger LOG = LoggerFactory.getLogger(BrokerBuilders.class);

    private final Broker broker;
    private final ConfirmedPublisher publisher;
    /** The systems whose build queue this instance declared. */
    private final Set<String> systems = ConcurrentHashMap.newKeySet();

    /**
     * @param broker the connection to publish on, whose topology {@link Topology#declare} declared; it stays
     *     the caller's to close
     */
    public BrokerBuilders(Broker broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
        this.publisher = new ConfirmedPublisher(broker);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for the broker to confirm the order (up to {@value ConfirmedPublisher#CONFIRM_TIMEOUT_MS} ms).
     *
     * @throws BusException naming the build, its system and the virtual host, and what to do, when no queue
     *     is bound to {@code mesh.builds} with the order's system (no builder consumes it), the channel or
     *     the connection fails, or the broker nacks the order or does not confirm it in time
     */
    @Override
    public void request(BuildOrder order, long epoch) {
        Objects.requireNonNull(order, "order");
        if (epoch < 1) {
            throw new IllegalArgumentException("a build order carries the epoch of the plan lock taken, at least 1, "
                    + "not " + epoch);
        }
        String system = order.system();
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .deliveryMode(2)
                .contentType("application/json")
                .headers(Map.of("epoch", epoch))
                .build();
        try {
            if (!systems.contains(system)) {
                Topology.declareBuilder(broker, system);
                systems.add(system);
            }
            publisher.publish(Topology.BUILDS, system, properties, body(order), "build order " + order.build()
                    + " for system " + system, "no queue is bound to " + Topology.BUILDS + " with routing key " + system
                    + " (" + Topology.BUILDER_QUEUE_PREFIX + system + " or its binding was deleted); request the build"
                    + " again: the next order declares the queue again");
        } catch (BusException e) {
            systems.remove(system);
            throw e;
        }
        LOG.debug("build requested build={} system={} epoch={} vhost={}", order.build(), system, epoch,
                broker.settings().vhost());
    }

    /**
     * @param order a build order
     * @return its message body: a JSON object of the wire contract's fields, in its order, UTF-8
     */
    static byte[] body(BuildOrder order) {
        // Named here, not bound from the record: the wire's names stay the same when a component is renamed.
        ObjectNode body = JSON.createObjectNode()
                .put("build", order.build())
                .put("module", order.module())
                .put("version", order.version())
                .put("artifact", order.artifact())
                .put("kind", order.kind())
                .put("language", order.language())
                .put("system", order.system())
                .put("from", order.from())
                .put("binary", order.binary());
        return JSON.writeValueAsBytes(body);
    }

    /** Closes the publishing channel (not the broker's connection); does nothing when closed already. */
    @Override
    public void close() {
        publisher.close();
    }
}
