package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosts' facts in from NATS (docs/design.md section 8, docs/bus.md): subscribes to {@code
 * <prefix>mesh.nodes.*.facts}, reads each message, and hands the facts to the inventory on one writer thread: those
 * that change a node's facts in batches ({@link Inventory#report(java.util.Collection)}), those that repeat them as
 * the node's last seen time, in bulk every 5 s ({@link Inventory#seen(Map)}). A message that cannot be read, or whose
 * subject names another node than its body, is dropped and counted, and logged once per reason per
 * minute without its content; nothing is thrown into NATS.
 *
 * <p>Thread-safe. {@link #close()} stops the subscription, then writes what was still held, once.
 */
public final class FactsIn implements AutoCloseable {

    /** Why a message was dropped. */
    public enum Drop {
        /** Not UTF-8 JSON of the facts' shape. */
        UNREADABLE,
        /** The subject's node differs from the body's {@code node}. */
        NODE_MISMATCH,
        /** The node's name is outside the inventory's grammar ({@link FactsReader#NODE_NAME}). */
        BAD_NAME,
        /** Its {@code at} is further ahead of the controller's clock than {@link FactsReader#AHEAD}. */
        FUTURE,
        /** Its node is neither a known principal nor in the inventory: never a new node, never a queue. */
        UNKNOWN,
        /** The store failed for so long that the facts waiting for it passed their bound. */
        BACKLOG,
        /** The store refused the fact itself, while it took the others of its batch ({@link FactsWriter}). */
        REFUSED;

        /** @return the reason as logs spell it, e.g. {@code node-mismatch} */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * What the subscriber did so far.
     *
     * @param received messages received
     * @param written facts the inventory recorded: written whole, or, when they repeated their node's latest, as
     *     its last seen time
     * @param unchanged of {@code written}, the facts that repeated their node's latest and moved only its last
     *     seen time
     * @param dropped messages (or, for {@link Drop#BACKLOG} and {@link Drop#REFUSED}, facts) dropped, by reason;
     *     every reason present
     */
    public record Counts(long received, long written, long unchanged, Map<Drop, Long> dropped) {

        /** Copies the parts. */
        public Counts {
            dropped = Map.copyOf(dropped);
        }

        /**
         * @param reason a reason
         * @return how many were dropped for it
         */
        public long dropped(Drop reason) {
            return dropped.get(reason);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(FactsIn.class);
    private static final Duration SUBSCRIBED_WITHIN = Duration.ofSeconds(5);

    private final Connection connection;
    private final String url;
    private final FactsReader reader;
    private final FactsWriter writer;
    private final Predicate<String> known;
    private final AtomicLong received = new AtomicLong();
    private final Map<Drop, AtomicLong> dropped = new EnumMap<>(Drop.class);
    private final OncePerMinute dropLog;

    private FactsIn(Connection connection, String url, FactsReader reader, FactsWriter writer, Predicate<String> known,
            Clock clock) {
        this.connection = connection;
        this.known = known;
        this.url = url;
        this.reader = reader;
        this.writer = writer;
        this.dropLog = new OncePerMinute(clock);
        for (Drop reason : Drop.values()) {
            dropped.put(reason, new AtomicLong());
        }
    }

    /**
     * Connects to NATS and starts taking facts in.
     *
     * @param settings where NATS is, who the controller is on it, and the subject prefix
     * @param inventory where the facts go
     * @param clock the controller's clock (for the once-a-minute logs, and the facts' {@code at})
     * @param known which node names may announce facts: in the mesh, a known principal or a node of the inventory
     *     (docs/security.md); any other's facts are dropped ({@link Drop#UNKNOWN}) before anything is written
     * @return the running subscriber
     * @throws BusException when NATS cannot be reached or refuses the credentials
     */
    public static FactsIn start(NatsSettings settings, Inventory inventory, Clock clock, Predicate<String> known) {
        Objects.requireNonNull(known, "known");
        Connection connection = NatsConnector.connect(settings,
                NatsConnector.options(settings, "mesh-controller facts").build());
        FactsReader reader = new FactsReader(settings.subjectPrefix(), clock);
        FactsIn in = new FactsIn(connection, settings.url(), reader, FactsWriter.start(inventory, clock), known,
                clock);
        Dispatcher dispatcher = connection.createDispatcher(in::handle);
        dispatcher.subscribe(reader.subscription());
        in.confirmSubscribed(settings);
        LOG.info("facts in subscribed url={} subject={}", settings.url(), reader.subscription());
        return in;
    }

    /**
     * Waits until the server has the subscription: a SUB is sent without an answer, so until a PING after it
     * comes back, facts published from another connection may still find no one subscribed and be lost.
     */
    private void confirmSubscribed(NatsSettings settings) {
        try {
            connection.flush(SUBSCRIBED_WITHIN);
        } catch (TimeoutException e) {
            close();
            throw new BusException("NATS at " + settings.url() + " did not confirm the facts subscription within "
                    + SUBSCRIBED_WITHIN.toSeconds() + " s; check that the server is up and not overloaded", e);
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while subscribing to the facts on NATS at " + settings.url(), e);
        }
    }

    private void handle(Message message) {
        received.incrementAndGet();
        switch (reader.read(message.getSubject(), message.getData())) {
            case FactsReader.Read.Accepted accepted -> {
                if (known.test(accepted.facts().node().name())) {
                    writer.add(accepted.facts());
                } else {
                    drop(Drop.UNKNOWN, message);
                }
            }
            case FactsReader.Read.Dropped drop -> drop(drop.reason(), message);
        }
    }

    private void drop(Drop reason, Message message) {
        long count = dropped.get(reason).incrementAndGet();
        if (dropLog.due(reason.label())) {
            LOG.warn("facts dropped reason={} subject={} dropped={}", reason.label(), message.getSubject(), count);
        }
    }

    /** @return the NATS server the connection is on now, {@code nats://host:port}; {@code ""} while on none */
    public String server() {
        return NatsLog.connected(connection);
    }

    /** @return how many times the connection was made again since it was first made */
    public long reconnections() {
        return connection.getStatistics().getReconnects();
    }

    /** @return what the subscriber did so far, the writer's backlog drops included */
    public Counts counts() {
        Map<Drop, Long> now = new EnumMap<>(Drop.class);
        dropped.forEach((reason, count) -> now.put(reason, count.get()));
        now.put(Drop.BACKLOG, writer.droppedBacklog());
        now.put(Drop.REFUSED, writer.droppedRefused());
        return new Counts(received.get(), writer.written(), writer.unchanged(), now);
    }

    /**
     * Stops the subscription, then writes what was held, once.
     *
     * @throws BusException when interrupted while closing
     */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while closing the NATS connection to " + url, e);
        } finally {
            writer.close();
        }
        LOG.info("facts in stopped url={} counts={}", url, counts());
    }
}
