package dev.mesh.controller.bus;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Lifecycle;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Core's {@link Events} on NATS (docs/design.md section 8, "Events"): each event is published on {@code
 * <prefix>mesh.events.<kind>} as the JSON object {@code {"kind", "epoch", "instance", "at", …}} — the
 * controller's epoch and instance from its {@link Lifecycle.Status}, {@code at} the clock's instant (RFC
 * 3339, UTC), then the payload's fields, written by Jackson (maps, lists, strings, numbers, booleans, records;
 * an {@link Instant} as its RFC 3339 text). A payload field named like one of the four is left out: the
 * envelope's own value is the one sent.
 *
 * <p>Core NATS, fire and forget: {@link #publish} hands the message to the client's buffer and returns. It
 * never throws into the caller and never waits for the server: an event that cannot be written, that the
 * client refuses (closed, or its reconnect buffer full) or that it discards (its outgoing queue full) is
 * counted ({@link #counts()}) and logged at WARN the first time and then once per reason per minute.
 *
 * <p>Thread-safe.
 */
public final class NatsEvents implements Events, AutoCloseable {

    /** Why an event was not sent. */
    public enum Failure {
        /** Its kind is not one subject token, or its payload holds a value Jackson cannot write. */
        UNWRITABLE,
        /** The client refused it: the connection is closed, or its reconnect buffer is full. */
        REFUSED,
        /** The client took it, then discarded it: its outgoing queue was full. */
        DISCARDED;

        /** @return the reason as logs spell it, e.g. {@code discarded} */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the publisher did so far.
     *
     * @param published events handed to the NATS client (those it then discarded included)
     * @param failed events not sent, by reason; every reason present
     */
    public record Counts(long published, Map<Failure, Long> failed) {

        /** Copies the parts. */
        public Counts {
            failed = Map.copyOf(failed);
        }

        /**
         * @param reason a reason
         * @return how many events failed for it
         */
        public long failed(Failure reason) {
            return failed.get(reason);
        }
    }

    /** How long {@link #close()} waits for the server to have what the client still holds. */
    static final long CLOSE_FLUSH_MS = 1_000;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> ENVELOPE = Set.of("kind", "epoch", "instance", "at");
    /** One subject token: no dot, no wildcard, no white space. */
    private static final Pattern KIND = Pattern.compile("[^.*>\\s]+");
    private static final Logger LOG = LoggerFactory.getLogger(NatsEvents.class);

    private final String url;
    private final String subjectStart;
    private final Supplier<Lifecycle.Status> status;
    private final Clock clock;
    private final AtomicLong published = new AtomicLong();
    private final Map<Failure, AtomicLong> failed = new EnumMap<>(Failure.class);
    private final OncePerMinute failureLog;
    private final Connection connection;

    /**
     * The kind of the event that says a connection of the controller moved to another member of its cluster
     * (or came back to the same): {@code of} ({@code broker}, {@code nats}, {@code store}), {@code from}, {@code to}.
     */
    public static final String FAILOVER = "failover";

    private NatsEvents(NatsSettings settings, Supplier<Lifecycle.Status> status, Clock clock) {
        this.url = settings.url();
        this.subjectStart = settings.subjectPrefix() + "mesh.events.";
        this.status = status;
        this.clock = clock;
        this.failureLog = new OncePerMinute(clock);
        for (Failure reason : Failure.values()) {
            failed.put(reason, new AtomicLong());
        }
        // Last: the client calls the listener on its own threads, which it starts here. Discarding rather than
        // waiting up to 5 s when the outgoing queue is full: events never hold the caller.
        // A move to another server of the cluster is an event of its own, published once the connection is back.
        this.connection = NatsConnector.connect(settings, NatsConnector.options(settings, "mesh-controller events",
                (from, to) -> publish(FAILOVER, Map.of("of", "nats", "from", from, "to", to)))
                .discardMessagesWhenOutgoingQueueFull().errorListener(new Listener()).build());
    }

    /**
     * Connects to NATS, for publishing events.
     *
     * @param settings where NATS is, who the controller is on it, and the subject prefix
     * @param status the controller's life cycle as it is now ({@code lifecycle::status}), for each event's
     *     {@code epoch} and {@code instance}; it must not block
     * @param clock each event's {@code at}, and the once-a-minute logs
     * @return the publisher
     * @throws BusException when NATS cannot be reached or refuses the credentials
     */
    public static NatsEvents start(NatsSettings settings, Supplier<Lifecycle.Status> status, Clock clock) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(clock, "clock");
        NatsEvents events = new NatsEvents(settings, status, clock);
        LOG.info("events publishing url={} subjects={}>", settings.url(), events.subjectStart);
        return events;
    }

    /**
     * Publishes one event, or counts why not; never throws but for {@code null} arguments, never waits for
     * the server.
     *
     * @param kind e.g. {@code plan}, {@code node}, {@code handover}: one subject token
     * @param payload the kind's own fields, JSON-able values
     */
    @Override
    public void publish(String kind, Map<String, Object> payload) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(payload, "payload");
        if (!KIND.matcher(kind).matches()) {
            fail(Failure.UNWRITABLE, kind, "the kind is not one subject token");
            return;
        }
        byte[] body;
        try {
            body = body(kind, payload, status.get(), clock.instant());
        } catch (JacksonException e) {
            fail(Failure.UNWRITABLE, kind, e.getOriginalMessage());
            return;
        }
        try {
            connection.publish(subjectStart + kind, body);
            published.incrementAndGet();
        } catch (IllegalStateException | IllegalArgumentException e) {
            // Closed, draining, the reconnect buffer full, or over the server's payload limit.
            fail(Failure.REFUSED, kind, e.getMessage());
        }
    }

    /**
     * @param kind the event's kind
     * @param payload its own fields
     * @param status the controller's epoch and instance
     * @param at when it happened
     * @return the event's JSON: {@code kind}, {@code epoch}, {@code instance}, {@code at}, then the payload's
     *     fields but those four, UTF-8
     * @throws JacksonException when a payload value cannot be written as JSON
     */
    static byte[] body(String kind, Map<String, Object> payload, Lifecycle.Status status, Instant at) {
        ObjectNode event = JSON.createObjectNode()
                .put("kind", kind)
                .put("epoch", status.epoch())
                .put("instance", status.instance());
        event.set("at", JSON.valueToTree(at));
        payload.forEach((field, value) -> {
            if (!ENVELOPE.contains(field)) {
                event.set(field, JSON.valueToTree(value));
            }
        });
        return JSON.writeValueAsBytes(event);
    }

    private void fail(Failure reason, String kind, String error) {
        long count = failed.get(reason).incrementAndGet();
        if (failureLog.due(reason.label())) {
            LOG.warn("event not published reason={} kind={} failed={} url={} error={}", reason.label(), kind, count,
                    url, error);
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

    /** @return what the publisher did so far */
    public Counts counts() {
        Map<Failure, Long> now = new EnumMap<>(Failure.class);
        failed.forEach((reason, count) -> now.put(reason, count.get()));
        return new Counts(published.get(), now);
    }

    /**
     * Sends what the client still holds, waiting up to {@value #CLOSE_FLUSH_MS} ms for the server to have it,
     * then closes the connection; events published afterwards are counted {@link Failure#REFUSED}.
     *
     * @throws BusException when interrupted while closing
     */
    @Override
    public void close() {
        try {
            connection.flush(Duration.ofMillis(CLOSE_FLUSH_MS));
        } catch (TimeoutException | IllegalStateException e) {
            // The server is away or the connection closed already: what is held is lost, as the counts say.
            LOG.warn("events not flushed url={} error={}", url, Broker.reason(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while flushing the events to NATS at " + url, e);
        }
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while closing the NATS connection to " + url, e);
        }
        LOG.info("events stopped url={} counts={}", url, counts());
    }

    /** Counts what the client discards, and logs its errors once per minute (it calls this on its own threads). */
    private final class Listener implements ErrorListener {

        @Override
        public void messageDiscarded(Connection conn, Message message) {
            String subject = message.getSubject();
            fail(Failure.DISCARDED, subject.startsWith(subjectStart) ? subject.substring(subjectStart.length())
                    : subject, "the client's outgoing queue is full");
        }

        @Override
        public void errorOccurred(Connection conn, String error) {
            if (failureLog.due("error")) {
                LOG.warn("events connection error url={} error={}", url, error);
            }
        }

        @Override
        public void exceptionOccurred(Connection conn, Exception exception) {
            if (failureLog.due("exception")) {
                LOG.warn("events connection failed url={} error={}", url, Broker.reason(exception));
            }
        }
    }
}
