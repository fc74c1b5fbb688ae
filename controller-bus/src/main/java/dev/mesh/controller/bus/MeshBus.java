package dev.mesh.controller.bus;

import dev.mesh.controller.core.Closer;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.FeedPolicy;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mesh's controller on the broker and the bus, opened in the order a start needs them: first
 * {@link #open} — the broker's connection with its topology, the declarations' and builds' publishers, the
 * events on NATS, and, with the management API, the keeper of every principal's broker permissions; then
 * {@link #listen} — reports and facts in, once the executor can take them; last {@link #serve} — the verbs'
 * queues, once the verbs are built. The launcher wires it; {@link #close()} closes what was opened, the last
 * first.
 *
 * <p>Thread-safe once opened.
 */
public final class MeshBus implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MeshBus.class);

    private final Broker broker;
    private final NatsSettings nats;
    private final Clock clock;
    private final NatsEvents events;
    private final Deliveries deliveries;
    private final BrokerBuilders builders;
    private final Optional<PermissionsKeeper> keeper;
    /** What {@link #close()} closes, the last opened first; guarded by {@code this}. */
    private final Closer opened;

    private MeshBus(Broker broker, NatsSettings nats, Clock clock, NatsEvents events, Deliveries deliveries,
            BrokerBuilders builders, Optional<PermissionsKeeper> keeper, Closer opened) {
        this.broker = broker;
        this.nats = nats;
        this.clock = clock;
        this.events = events;
        this.deliveries = deliveries;
        this.builders = builders;
        this.keeper = keeper;
        this.opened = opened;
    }

    /**
     * Where the bus is and who the controller is there.
     *
     * @param broker the broker's AMQP connection
     * @param management the broker's management API, when the controller keeps every principal's permissions
     * @param nats the bus
     * @param instance this controller's id, the connections' name
     * @param heartbeat the AMQP heartbeat (the handover's timing)
     */
    public record Settings(BrokerSettings broker, Optional<BrokerManagement> management, NatsSettings nats,
            String instance, Duration heartbeat) {

        public Settings {
            Objects.requireNonNull(broker, "broker");
            Objects.requireNonNull(management, "management");
            Objects.requireNonNull(nats, "nats");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(heartbeat, "heartbeat");
        }
    }

    /**
     * Connects to the broker, declares its topology, and opens what the executor sends through.
     *
     * @param settings where and as whom
     * @param grants each enabled principal's grants, for the permissions keeper
     * @param inventory the mesh's record: the nodes whose queues are declared ahead, the keeper's principals
     * @param lifecycle the controller's gate: the keeper and the events read it
     * @param clock the events' clock
     * @return the bus, open
     * @throws BusException when the broker or NATS cannot be reached, or refuses; what was opened is closed again
     */
    public static MeshBus open(Settings settings, Supplier<Map<String, Set<String>>> grants, Inventory inventory,
            Lifecycle lifecycle, Clock clock) {
        Closer opened = new Closer();
        try {
            Broker broker = opened.open(Broker.connect(settings.broker(), settings.instance(),
                    settings.heartbeat()));
            Topology.declare(broker);
            checkBodyLimit(broker);
            // With the management API, the active controller owns what every principal may do on the broker.
            Optional<PermissionsKeeper> keeper = settings.management().map(management -> opened.open(
                    PermissionsKeeper.start(management.permissions(broker.settings()), grants, inventory, lifecycle)));
            NatsEvents events = opened.open(NatsEvents.start(settings.nats(), lifecycle::status, clock));
            broker.onRecovery((from, to) -> failover(events, "broker", from, to));
            BrokerDeliveries deliveries = opened.open(new BrokerDeliveries(broker));
            BrokerBuilders builders = opened.open(new BrokerBuilders(broker));
            warm(inventory, deliveries);
            return new MeshBus(broker, settings.nats(), clock, events,
                    keeper.map(k -> k.deliveries(deliveries)).orElse(deliveries), builders, keeper, opened);
        } catch (RuntimeException e) {
            opened.closeAll().forEach(e::addSuppressed);
            throw e;
        }
    }

    /** @return where declarations go: the hosts' queues, through the permissions keeper when there is one */
    public Deliveries deliveries() {
        return deliveries;
    }

    /** @return where build orders go */
    public BrokerBuilders builders() {
        return builders;
    }

    /** @return the events on NATS */
    public Events events() {
        return events;
    }

    /**
     * Publishes that a connection of this controller moved to another member of its cluster, or came back to the
     * same (the event {@value NatsEvents#FAILOVER}: {@code of}, {@code from}, {@code to}).
     *
     * @param of {@code broker}, {@code nats} or {@code store}
     * @param from the member it was on, {@code host:port} or a URL
     * @param to the member it is on now
     */
    public void failover(String of, String from, String to) {
        failover(events, of, from, to);
    }

    private static void failover(Events events, String of, String from, String to) {
        events.publish(NatsEvents.FAILOVER, Map.of("of", of, "from", from, "to", to));
    }

    /** Tells the permissions keeper, if any, that this controller became active. */
    public void activated() {
        keeper.ifPresent(PermissionsKeeper::activated);
    }

    /**
     * Starts taking hosts' reports on the broker and facts on NATS, and registers the bus's counts.
     *
     * @param identity who may report
     * @param reports where each report goes (the executor)
     * @param known whether facts from a principal or node are taken (a known principal, or a node the inventory
     *     holds: docs/security.md)
     * @param inventory where facts are recorded
     * @param metrics where the bus's counts are registered
     * @param prefix the metrics' names' prefix
     * @return what {@code status} tells of the bus
     */
    public BusWire listen(Identity identity, ReportsIn.Sink reports, Predicate<String> known, Inventory inventory,
            PrometheusRegistry metrics, String prefix) {
        ReportsIn in = opened(ReportsIn.start(broker, identity, reports, clock));
        FactsIn facts = opened(FactsIn.start(nats, inventory, clock, known));
        BusMetrics.register(metrics, prefix, broker, facts, in, events);
        return new BusWire(broker, facts, in, events);
    }

    /**
     * Starts consuming the verbs' queue: a standby until the broker feeds it.
     *
     * @param verbs the verbs
     * @param identity who may call which verb
     * @param version the controller's version, told to callers
     * @param lifecycle the controller's gate
     * @param policy when the feed is starved (the handover's)
     * @return the consumers, which the handover drives
     */
    public BrokerConsumers serve(Verbs verbs, Identity identity, String version, Lifecycle lifecycle,
            FeedPolicy policy) {
        return opened(BrokerConsumers.of(broker, verbs, identity, version, lifecycle, policy));
    }

    /** @return the broker's connection settings, for the start's log line */
    public BrokerSettings broker() {
        return broker.settings();
    }

    /** Closes what was opened, the last first, going on past failures. */
    @Override
    public void close() {
        List<Exception> failures;
        synchronized (this) {
            failures = opened.closeAll();
        }
        Closer.throwIfAny(failures, (first, cause) -> new BusException("the bus did not close cleanly: " + first, cause));
    }

    private synchronized <T extends AutoCloseable> T opened(T one) {
        return opened.open(one);
    }

    /**
     * Declares, in the background, the queue of every node the inventory knows, as the first round of an active
     * controller would, so that a standby taking over spends its first round delivering, not declaring
     * (docs/handover.md). Best effort: what fails is declared by that round.
     */
    private static void warm(Inventory inventory, BrokerDeliveries deliveries) {
        Thread.ofVirtual().name("mesh-controller-warm").start(() -> {
            try {
                inventory.nodes().forEach(node -> deliveries.prepare(node.name()));
            } catch (RuntimeException e) {
                LOG.debug("host queues not declared ahead reason=\"{}\"", e.getMessage());
            }
        });
    }

    /**
     * Tells, off the start's path, whether the broker refuses bodies over the controller's limit, as the mesh's
     * broker module configures it: a WARN when it does not (a large body then costs the controller a dropped
     * connection per delivery, docs/security.md), nothing more.
     */
    private static void checkBodyLimit(Broker broker) {
        Thread.ofVirtual().name("mesh-body-limit").start(() -> {
            try {
                if (broker.refusesLargeBodies()) {
                    LOG.debug("broker refuses bodies over the controller's limit maxBodyBytes={}", Broker.MAX_BODY_BYTES);
                } else {
                    LOG.warn("broker takes bodies over the controller's limit maxBodyBytes={} at={}; set "
                            + "max_message_size = {} in the broker's rabbitmq.conf (docs/security.md, \"Bounded "
                            + "bodies\"): a larger message then never reaches a queue", Broker.MAX_BODY_BYTES,
                            broker.settings().where(), Broker.MAX_BODY_BYTES);
                }
            } catch (RuntimeException e) {
                LOG.debug("broker body limit not known reason=\"{}\"", e.getMessage());
            }
        });
    }
}
