package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's {@link Deliveries} on the broker (docs/design.md section 8, "Declarations"): publishes a node's
 * declaration to {@link Topology#DECLARATIONS} with the node's name as routing key, persistent, content type
 * {@code application/json}, {@code user_id} the controller's own broker user (which the broker checks is the
 * connection's: a host accepts a declaration from that user alone), headers {@code revision} and {@code epoch}, and
 * body the declaration's canonical
 * JSON ({@link CanonicalJson#bytes}, the bytes its revision is the digest of, as {@code compose --json}
 * prints it). It declares the node's queue ({@link Topology#declareHost}) once per node: when the
 * execution {@linkplain #prepare prepares} the node (as soon as the controller knows it), else before the first
 * delivery to it; a delivery that fails forgets that, so the next one declares the queue again. Each message is published {@code mandatory} and confirmed by the broker before
 * {@link #deliver} returns (see {@link ConfirmedPublisher}).
 *
 * <p>Thread-safe: deliveries are serialized on one channel.
 */
public final class BrokerDeliveries implements Deliveries, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerDeliveries.class);

    private final Broker broker;
    private final ConfirmedPublisher publisher;
    /** The nodes whose queue this instance declared, to their queue's name. */
    private final ConcurrentMap<String, String> hosts = new ConcurrentHashMap<>();

    /**
     * @param broker the connection to publish on; it stays the caller's to close
     */
    public BrokerDeliveries(Broker broker) {
        this.broker = Objects.requireNonNull(broker, "broker");
        this.publisher = new ConfirmedPublisher(broker);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Declares {@code mesh-host.<node>} first when this instance has not yet, then publishes the
     * declaration and waits for the broker to confirm it (up to {@value ConfirmedPublisher#CONFIRM_TIMEOUT_MS}
     * ms).
     *
     * @throws BusException naming the node, the revision and the virtual host, and what to do, when the
     *     node's queue cannot be declared, the channel or the connection fails, or the broker nacks the
     *     declaration, returns it (no queue bound for the node) or does not confirm it in time
     */
    @Override
    public void deliver(Declaration declaration, long epoch) {
        Objects.requireNonNull(declaration, "declaration");
        String node = declaration.node();
        String revision = declaration.revision();
        if (revision.isEmpty()) {
            throw new IllegalArgumentException("the declaration of node " + node
                    + " has no revision; deliver a composed declaration");
        }
        if (epoch < 1) {
            throw new IllegalArgumentException("a delivery carries the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
        String what = "declaration " + revision + " of node " + node;
        try {
            hosts.computeIfAbsent(node, n -> declareHost(n, what));
            publisher.publish(Topology.DECLARATIONS, node, properties(broker.settings().user(), revision, epoch), CanonicalJson.bytes(declaration),
                    what, "no queue is bound to " + Topology.DECLARATIONS + " with key " + node + " (" + Topology
                            .HOST_QUEUE_PREFIX + node + " or its binding was deleted); deliver it again: the next "
                            + "delivery declares the queue again");
        } catch (BusException e) {
            // Whatever failed, the queue may be what is missing: declaring it again costs one round trip.
            hosts.remove(node);
            throw e;
        }
        LOG.debug("declaration delivered node={} revision={} epoch={} vhost={}", node, revision, epoch,
                broker.settings().vhost());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Declares {@code mesh-host.<node>} and its binding ({@link Topology#declareHost}) when this instance has not
     * yet; the next {@link #deliver} to the node then does not declare it again.
     *
     * @throws BusException naming the node and the virtual host when the queue cannot be declared (it exists with
     *     other arguments, the broker is gone)
     */
    @Override
    public void prepare(String node) {
        Objects.requireNonNull(node, "node");
        hosts.computeIfAbsent(node, n -> {
            try {
                String queue = Topology.declareHost(broker, n);
                LOG.debug("host queue declared node={} queue={} vhost={}", n, queue, broker.settings().vhost());
                return queue;
            } catch (BusException e) {
                throw new BusException("cannot prepare node " + n + " in virtual host " + broker.settings().vhost()
                        + ": its queue " + Topology.HOST_QUEUE_PREFIX + n + " could not be declared (" + e.getMessage()
                        + "); the next round declares it again", e);
            }
        });
    }

    private String declareHost(String node, String what) {
        try {
            String queue = Topology.declareHost(broker, node);
            LOG.debug("host queue declared node={} queue={} vhost={}", node, queue, broker.settings().vhost());
            return queue;
        } catch (BusException e) {
            throw new BusException("cannot deliver the " + what + " in virtual host " + broker.settings().vhost()
                    + ": its queue " + Topology.HOST_QUEUE_PREFIX + node + " could not be declared (" + e.getMessage()
                    + "); deliver it again once the broker is fixed", e);
        }
    }

    /**
     * @return a declaration's message properties: persistent JSON from {@code user}, with the {@code revision} and
     *     {@code epoch}
     */
    static AMQP.BasicProperties properties(String user, String revision, long epoch) {
        return new AMQP.BasicProperties.Builder()
                .deliveryMode(2)
                .contentType("application/json")
                .userId(user)
                .headers(Map.of("revision", revision, "epoch", epoch))
                .build();
    }

    /** Closes the publishing channel (not the broker's connection); does nothing when closed already. */
    @Override
    public void close() {
        publisher.close();
    }
}
