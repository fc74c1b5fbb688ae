package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Report;
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
 * The hosts' and builders' reports in (DESIGN.md section 8, "Reports"; docs/bus.md): consumes {@link
 * Topology#REPORTS} with manual acknowledgements, reads each body ({@link ReportReader}), checks its sender
 * — the broker-validated {@code user_id}: a host's report must come from the user named like its node, a
 * build report from a principal the identity grants {@value #BUILD_VERB} — and hands it to a {@link Sink}.
 *
 * <p>A message that cannot be read or comes from the wrong sender is rejected without requeue (so it is
 * in {@link Topology#DEAD} at once), counted, and logged once per reason per minute without its content. A
 * report the sink cannot take now (it throws) is rejected with requeue after a pause of {@value
 * #RETRY_PAUSE_MS} ms: the broker delivers it again, and dead-letters it past {@link
 * Topology#DELIVERY_LIMIT}. Nothing is thrown into the RabbitMQ client.
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
         * @throws RuntimeException when the report cannot be recorded now (e.g. core's {@code VerbException}
         *     {@code unavailable}: not active, the store down): it is delivered again
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
     * @param requeued deliveries given back to the broker because the sink or the identity failed
     * @param rejected messages rejected for good, by reason; every reason present
     */
    public record Counts(long received, long accepted, long requeued, Map<Rejection, Long> rejected) {

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
    /** The verb a principal must be granted to report builds (DESIGN.md section 8, "Principals on the wire"). */
    public static final String BUILD_VERB = "build";
    /**
     * How long a report the sink refused waits before it goes back to the broker, in milliseconds: a store
     * that is down does not use up its {@link Topology#DELIVERY_LIMIT} deliveries within milliseconds.
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
        try {
            Rejection refused = refusal(principal, report);
            if (refused != null) {
                reject(channel, tag, refused, properties, "");
                return;
            }
            boolean changed = sink.record(report);
            accepted.incrementAndGet();
            LOG.debug("report recorded kind={} userId={} changed={}", kind(report), principal, changed);
            settle(channel, tag, true, false);
        } catch (MeshException e) {
            requeue(channel, tag, properties, "unavailable", e);
        } catch (RuntimeException e) {
            // A bug in the sink must not close the channel (the client's handler would): retried, then dead.
            requeue(channel, tag, properties, "sink-failed", e);
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

    private void requeue(Channel channel, long tag, AMQP.BasicProperties properties, String reason, RuntimeException e) {
        long count = requeued.incrementAndGet();
        if (logs.due("requeued")) {
            LOG.warn("report requeued reason={} userId={} messageId={} deliveryCount={} requeued={} error={}", reason,
                    properties.getUserId(), properties.getMessageId(), deliveryCount(properties), count,
                    e.getMessage());
        }
        try {
            if (closed.await(RETRY_PAUSE_MS, TimeUnit.MILLISECONDS)) {
                return; // closing: the aborted channel gives the report back
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        settle(channel, tag, false, true);
    }

    /** @return the quorum queue's count of earlier deliveries, {@code 0} on the first */
    private static Object deliveryCount(AMQP.BasicProperties properties) {
        Map<String, Object> headers = properties.getHeaders();
        Object count = headers == null ? null : headers.get("x-delivery-count");
        return count == null ? 0 : count;
    }

    /** Acknowledges or rejects; a channel lost meanwhile means the broker delivers the report again. */
    private static void settle(Channel channel, long tag, boolean ack, boolean requeue) {
        try {
            if (ack) {
                channel.basicAck(tag, false);
            } else {
                channel.basicReject(tag, requeue);
            }
        } catch (IOException | ShutdownSignalException e) {
            LOG.warn("report not settled reason={} ack={} requeue={}; the broker delivers it again",
                    Broker.reason(e), ack, requeue);
        }
    }

    /** @return what the consumer did so far */
    public Counts counts() {
        Map<Rejection, Long> now = new EnumMap<>(Rejection.class);
        rejected.forEach((reason, count) -> now.put(reason, count.get()));
        return new Counts(received.get(), accepted.get(), requeued.get(), now);
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
