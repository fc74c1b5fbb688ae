package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.manifest.MeshException;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosts' and builders' reports in (docs/design.md section 8, "Reports"; docs/bus.md): consumes {@link
 * Topology#REPORTS} with manual acknowledgements, reads each body ({@link ReportReader}), checks its sender
 * — the broker-validated {@code user_id}: a host's report must come from the user named like its node, a
 * build report from a principal the identity grants {@value #BUILD_VERB} — and hands it to a {@link Sink}.
 *
 * <p>A message that cannot be read or comes from the wrong sender is rejected without requeue (so it is
 * in {@link Topology#DEAD} at once), counted, and logged once per reason per minute without its content. When
 * the sink (or the identity) is unavailable — core's {@code VerbException} {@code unavailable}, or a failure of
 * another category than a verb's: not active, a store down — the consumer stops consuming ({@code basic.cancel})
 * and keeps the report unacknowledged, trying it again every {@value #RETRY_PAUSE_MS} ms, then consumes again: on
 * RabbitMQ 3.10 every return to a quorum queue counts against {@link Topology#DELIVERY_LIMIT}, so an outage never
 * dead-letters a report. It gives the report back only to another consumer of the queue (another controller),
 * while it has deliveries to spare. A report the sink fails otherwise is rejected with requeue after {@value
 * #RETRY_PAUSE_MS} ms: the broker delivers it again and dead-letters it past the limit, so a poison message never
 * loops. Nothing is thrown into the RabbitMQ client.
 *
 * <p>Deliveries are handled one at a time on the client's consumer thread. {@link #counts()} and {@link
 * #close()} are thread-safe.
 */
public final class ReportsIn implements AutoCloseable {

    /** Where an accepted report goes; core's {@code Executor::record} is one. */
    @FunctionalInterface
    public interface Sink {
        /**
         * Records a report. Called on the consumer thread, one report at a time.
         *
         * @param report what a host or builder reported, its sender checked
         * @return whether it changed anything (only logged)
         * @throws RuntimeException when the report cannot be recorded: core's {@code VerbException} {@code
         *     unavailable} (not active, the store down), or a {@code MeshException} of another category than a
         *     verb's, holds it and pauses the consumer until the sink takes it; anything else gives it back to the
         *     broker, which dead-letters it past the delivery limit
         */
        boolean record(Report report);
    }

    /** Why a message was rejected for good (to {@link Topology#DEAD}). */
    public enum Rejection {
        /** Not UTF-8 JSON of a report's shape: a field missing or of another type, an unknown kind or status. */
        UNREADABLE,
        /** The message has no {@code user_id}, so nobody vouches for it. */
        NO_USER_ID,
        /** A host's report whose {@code node} is not its sender's {@code user_id}. */
        NODE_MISMATCH,
        /** A build report from a principal the identity does not grant {@value ReportsIn#BUILD_VERB}. */
        NOT_A_BUILDER;

        /** @return the reason as logs spell it, e.g. {@code node-mismatch} */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * What the consumer did so far.
     *
     * @param received messages delivered, redeliveries included
     * @param accepted reports the sink recorded (and that were then acknowledged)
     * @param requeued deliveries given back to the broker: the sink failed (not for unavailability), or another
     *     consumer took the queue while this one held the report
     * @param paused how many times the consumer stopped because the sink (or the identity) was unavailable
     * @param rejected messages rejected for good, by reason; every reason present
     */
    public record Counts(long received, long accepted, long requeued, long paused, Map<Rejection, Long> rejected) {

        /** Copies the parts. */
        public Counts {
            rejected = Map.copyOf(rejected);
        }

        /**
         * @param reason a reason
         * @return how many messages were rejected for it
         */
        public long rejected(Rejection reason) {
            return rejected.get(reason);
        }
    }

    /** How many reports the broker hands over before the first is acknowledged. */
    public static final int PREFETCH = 16;
    /** The verb a principal must be granted to report builds (docs/design.md section 8, "Principals on the wire"). */
    public static final String BUILD_VERB = "build";
    /**
     * How long a report the sink could not take waits before it is tried again (unavailable) or goes back to the
     * broker (failed), in milliseconds: a failing sink does not use up its {@link Topology#DELIVERY_LIMIT}
     * deliveries within milliseconds.
     */
    public static final long RETRY_PAUSE_MS = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(ReportsIn.class);

    private final Broker broker;
    private final Identity identity;
    private final Sink sink;
    private final ReportReader reader = new ReportReader();
    private final OncePerMinute logs;
    private volatile Subscription subscription;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong requeued = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final Map<Rejection, AtomicLong> rejected = new EnumMap<>(Rejection.class);

    private ReportsIn(Broker broker, Identity identity, Sink sink, Clock clock) {
        this.broker = broker;
        this.identity = identity;
        this.sink = sink;
        this.logs = new OncePerMinute(clock);
        for (Rejection reason : Rejection.values()) {
            rejected.put(reason, new AtomicLong());
        }
    }

    /**
     * Starts consuming the reports' queue, which {@link Topology#declare} declared.
     *
     * @param broker the connection to consume on
     * @param identity which principals may report builds
     * @param sink where accepted reports go
     * @param clock the controller's clock (for the once-a-minute logs)
     * @return the running consumer
     * @throws BusException when the queue cannot be consumed (it does not exist, or the broker is gone)
     */
    public static ReportsIn start(Broker broker, Identity identity, Sink sink, Clock clock) {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(clock, "clock");
        try {
            ReportsIn in = new ReportsIn(broker, identity, sink, clock);
            in.subscription = Subscription.start(broker, Topology.REPORTS, PREFETCH, in::handle);
            LOG.info("reports in consuming queue={} vhost={} prefetch={}", Topology.REPORTS,
                    broker.settings().vhost(), PREFETCH);
            return in;
        } catch (IOException | ShutdownSignalException e) {
            throw new BusException("cannot consume " + Topology.REPORTS + " in virtual host "
                    + broker.settings().vhost() + ": " + Broker.reason(e)
                    + "; declare the topology first (prepare), and check the broker", e);
        }
    }

    private void handle(Channel channel, Envelope delivery, AMQP.BasicProperties properties, byte[] body) {
        received.incrementAndGet();
        long tag = delivery.getDeliveryTag();
        String principal = properties.getUserId();
        // Who sent it first: nothing is read of a message nobody vouches for.
        if (principal == null || principal.isEmpty()) {
            reject(channel, tag, Rejection.NO_USER_ID, properties, "");
            return;
        }
        Report report;
        switch (reader.read(body)) {
            case ReportReader.Read.Unreadable unreadable -> {
                reject(channel, tag, Rejection.UNREADABLE, properties, " problem=" + unreadable.problem());
                return;
            }
            case ReportReader.Read.Readable readable -> report = readable.report();
        }
        switch (attempt(principal, report)) {
            case Outcome.Recorded recorded -> settle(channel, tag, true, false);
            case Outcome.Refused refused -> reject(channel, tag, refused.reason(), properties, "");
            case Outcome.Unavailable unavailable -> hold(channel, tag, properties, principal, report, unavailable);
            case Outcome.Failed failed -> requeue(channel, tag, properties, failed.failure());
        }
    }

    /** What handing a report on came to. */
    private sealed interface Outcome {
        /** The sink recorded it. */
        record Recorded() implements Outcome { }

        /** Its sender may not send it. */
        record Refused(Rejection reason) implements Outcome { }

        /** The sink or the identity cannot take it now: not active, a store down. */
        record Unavailable(MeshException failure) implements Outcome { }

        /** The sink failed otherwise: the report may be poison. */
        record Failed(RuntimeException failure) implements Outcome { }
    }

    private Outcome attempt(String principal, Report report) {
        try {
            Rejection refused = refusal(principal, report);
            if (refused != null) {
                return new Outcome.Refused(refused);
            }
            boolean changed = sink.record(report);
            accepted.incrementAndGet();
            LOG.debug("report recorded kind={} userId={} changed={}", kind(report), principal, changed);
            return new Outcome.Recorded();
        } catch (MeshException e) {
            return VerbException.from(e).code() == VerbException.Code.UNAVAILABLE ? new Outcome.Unavailable(e)
                    : new Outcome.Failed(e);
        } catch (RuntimeException e) {
            // A bug in the sink must not close the channel (the client's handler would): retried, then dead.
            return new Outcome.Failed(e);
        }
    }

    /**
     * The sink cannot take reports now: stops consuming and keeps this one in hand, unacknowledged (a return to
     * the queue would count against its delivery limit), trying it again every {@value #RETRY_PAUSE_MS} ms. It is
     * given back only when another consumer consumes the queue — with a single active consumer, the one the
     * broker feeds now — and it has deliveries to spare. Consumes again once it is settled.
     */
    private void hold(Channel channel, long tag, AMQP.BasicProperties properties, String principal, Report report,
            Outcome.Unavailable first) {
        subscription.pause();
        long count = paused.incrementAndGet();
        if (logs.due("paused")) {
            LOG.warn("reports paused reason=unavailable userId={} messageId={} deliveryCount={} paused={} error={}",
                    principal, properties.getMessageId(), deliveryCount(properties), count,
                    first.failure().getMessage());
        }
        long since = System.nanoTime();
        Outcome outcome = first;
        while (outcome instanceof Outcome.Unavailable) {
            if (deliveryCount(properties) + 1 < Topology.DELIVERY_LIMIT && othersConsume()) {
                requeued.incrementAndGet();
                LOG.debug("report given back userId={} messageId={}: another consumer takes the queue", principal,
                        properties.getMessageId());
                settle(channel, tag, false, true);
                outcome = null;
            } else if (pauseOrClose()) {
                return; // closing: the aborted channel gives the report back
            } else {
                outcome = attempt(principal, report);
            }
        }
        switch (outcome) {
            case null -> { }
            case Outcome.Recorded recorded -> settle(channel, tag, true, false);
            case Outcome.Refused refused -> reject(channel, tag, refused.reason(), properties, "");
            case Outcome.Failed failed -> requeue(channel, tag, properties, failed.failure());
            case Outcome.Unavailable unavailable -> throw new IllegalStateException("still unavailable");
        }
        subscription.resume();
        if (logs.due("resumed")) {
            LOG.info("reports resumed pausedMs={} paused={}", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since),
                    count);
        }
    }

    /** @return whether a consumer other than this one consumes the reports' queue now */
    private boolean othersConsume() {
        Channel probe = null;
        try {
            probe = broker.connection().createChannel();
            // RabbitMQ 3.10 still counts a cancelled consumer while it holds unacknowledged messages: this one.
            return probe.queueDeclarePassive(Topology.REPORTS).getConsumerCount() > 1;
        } catch (IOException | ShutdownSignalException e) {
            return false; // nobody known to give it to: keep it
        } finally {
            Broker.abort(probe);
        }
    }

    /** @return whether closing began during the pause */
    private boolean pauseOrClose() {
        try {
            return closed.await(RETRY_PAUSE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** @return why the sender may not send this report, or {@code null} when it may */
    private Rejection refusal(String principal, Report report) {
        return switch (report) {
            case Report.Applied applied -> principal.equals(applied.node()) ? null : Rejection.NODE_MISMATCH;
            case Report.Failed failed -> principal.equals(failed.node()) ? null : Rejection.NODE_MISMATCH;
            case Report.Build build -> identity.allows(principal, BUILD_VERB) ? null : Rejection.NOT_A_BUILDER;
        };
    }

    private static String kind(Report report) {
        return switch (report) {
            case Report.Applied applied -> "applied";
            case Report.Failed failed -> "failed";
            case Report.Build build -> "build";
        };
    }

    private void reject(Channel channel, long tag, Rejection reason, AMQP.BasicProperties properties, String more) {
        long count = rejected.get(reason).incrementAndGet();
        if (logs.due(reason.label())) {
            LOG.warn("report rejected reason={} userId={} messageId={} rejected={}{}", reason.label(),
                    properties.getUserId(), properties.getMessageId(), count, more);
        }
        settle(channel, tag, false, false);
    }

    private void requeue(Channel channel, long tag, AMQP.BasicProperties properties, RuntimeException e) {
        long count = requeued.incrementAndGet();
        if (logs.due("requeued")) {
            LOG.warn("report requeued reason=sink-failed userId={} messageId={} deliveryCount={} requeued={} error={}",
                    properties.getUserId(), properties.getMessageId(), deliveryCount(properties), count,
                    e.getMessage());
        }
        if (pauseOrClose()) {
            return; // closing: the aborted channel gives the report back
        }
        settle(channel, tag, false, true);
    }

    /** @return the quorum queue's count of earlier deliveries, {@code 0} on the first */
    private static long deliveryCount(AMQP.BasicProperties properties) {
        Map<String, Object> headers = properties.getHeaders();
        return headers != null && headers.get("x-delivery-count") instanceof Number count ? count.longValue() : 0;
    }

    private static void settle(Channel channel, long tag, boolean ack, boolean requeue) {
        Subscription.settle(channel, tag, ack, requeue, "report");
    }

    /** @return what the consumer did so far */
    public Counts counts() {
        Map<Rejection, Long> now = new EnumMap<>(Rejection.class);
        rejected.forEach((reason, count) -> now.put(reason, count.get()));
        return new Counts(received.get(), accepted.get(), requeued.get(), paused.get(), now);
    }

    /** @return the channel consuming now, for a test to inject a fault into */
    Channel consuming() {
        return subscription.channel();
    }

    /**
     * Stops consuming: aborts the channel, so the reports it held and did not acknowledge go back to the
     * queue. Does nothing more when closed already.
     */
    @Override
    public void close() {
        closed.countDown();
        subscription.close();
        LOG.info("reports in stopped queue={} vhost={} counts={}", Topology.REPORTS, broker.settings().vhost(),
                counts());
    }
}
