package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import dev.mesh.controller.core.FeedPolicy;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.mcp.Envelope;
import dev.mesh.controller.mcp.McpDispatcher;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verbs' broker transport (docs/design.md section 8, "Verbs over the broker"): consumes
 * {@link Topology#VERBS} and hands each request to the {@link McpDispatcher}, with the broker-validated
 * {@code user_id} as the principal and the {@code message_id} as the request id. The reply goes to the
 * default exchange with routing key {@code reply_to}, the request's {@code correlation_id}, headers
 * {@code epoch} and {@code instance} from the {@link Lifecycle}, and body the JSON-RPC response as over
 * HTTP. A request is acknowledged only after the broker confirmed its reply; see docs/bus.md for what
 * is rejected, and how.
 *
 * <p>A consuming channel the broker closes, or a consumer it cancels (the queue deleted), is reopened after
 * {@value Subscription#REOPEN_PAUSE_MS} ms ({@link Subscription}); a dropped connection is the client's
 * automatic recovery's.
 *
 * <p>Which controller the broker feeds (docs/design.md section 10; RabbitMQ 3.10 does not tell a single active
 * consumer it became active): started with a {@link Feeding}, the transport publishes a tick to the verbs'
 * queue every tick period of its {@link FeedPolicy} ({@link Ticks}) and tells the listener what the policy
 * makes of the deliveries: {@link Feeding#fed()} at the first one (a tick or a verb), {@link Feeding#starved()}
 * when nothing arrived for too long ({@link FeedWatch}). A tick, from any controller, is acknowledged and nothing
 * more: not answered, not counted, never dead-lettered.
 *
 * <p>A consuming transport that the policy finds due for a renewal (nothing delivered to it for
 * {@link FeedPolicy#renewAfter()}, twenty tick periods by the handover's rule) consumes again on a new channel.
 *
 * <p>A mutating verb that arrives while the {@link Lifecycle} is not active (the overlap after the previous
 * active cancelled, or before this one took the lock) waits up to {@value #ACTIVATION_WAIT_MS} ms for it to
 * become active, then runs; when meanwhile this transport {@linkplain #stopConsuming() stopped consuming}, it
 * is given back to the queue (the broker feeds another controller); otherwise it is answered as core answers
 * it ({@code unavailable}). Reads are answered at once in every role.
 *
 * <p>Two lanes: reads (and what is rejected) are answered one at a time on the client's consumer thread;
 * mutating verbs ({@code tools/call} of one) one at a time, in the order they arrived, on a thread of their own,
 * each acknowledged there. A mutation waiting for activation, or slow to run, never holds the reads behind it
 * (docs/design.md section 10: read verbs never wait for the lock); a read is answered from the state of its time,
 * so a caller that reads its own change waits for the change's reply first (docs/bus.md). {@link #close()} and
 * {@link #stopConsuming()} are thread-safe.
 */
public final class BrokerVerbs implements AutoCloseable {

    /** How many requests the broker hands over before the first is acknowledged. */
    public static final int PREFETCH = 16;

    /** How long a mutating verb that arrived while this controller is not active waits for it, at most. */
    public static final long ACTIVATION_WAIT_MS = 2_000;
    /** A request that took longer than this, in milliseconds, is logged at DEBUG. */
    private static final long SLOW_MS = 20;

    private static final Logger LOG = LoggerFactory.getLogger(BrokerVerbs.class);

    private final Broker broker;
    private final Lifecycle lifecycle;
    private final McpDispatcher dispatcher;
    /** For requests without {@code message_id}: the same verbs, with mutating ones {@code invalid}. */
    private final McpDispatcher withoutMessageId;
    /** The replies of the requests answered on the consumer thread: reads, and what is rejected. */
    private final Replies replies;
    /** The replies of the mutating requests, answered on their lane. */
    private final Replies laneReplies;
    /** The mutating requests, one at a time in the order they arrived, beside the reads. */
    private final ExecutorService mutations;
    private final AtomicLong unreadableCount = new AtomicLong();
    private final OncePerMinute unreadableLog = new OncePerMinute(Clock.systemUTC());
    /** What the deliveries say of the feed; null without a {@link Feeding}: no ticks, nothing watched. */
    private final FeedWatch feed;
    private final Identity identity;
    /** What a mutating request waiting for activation waits on: told of each change of the life cycle and of {@link #consuming}. */
    private final Object activation = new Object();
    private final Runnable stopListening;
    private volatile boolean consuming = true;
    private volatile Subscription subscription;
    private volatile Ticks ticks;

    private BrokerVerbs(Broker broker, Verbs verbs, Identity identity, String version, Lifecycle lifecycle,
            Feeding feeding, FeedPolicy policy) {
        this.broker = broker;
        this.lifecycle = lifecycle;
        this.identity = identity;
        this.feed = feeding == null ? null : new FeedWatch(feeding, policy, Topology.VERBS);
        this.dispatcher = McpDispatcher.of(verbs, identity, version);
        this.withoutMessageId = McpDispatcher.of(verbs, MutatingVerbs.withoutMessageId(identity), version);
        this.replies = new Replies(broker.connection());
        this.laneReplies = new Replies(broker.connection());
        this.mutations = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("mesh-verbs-mutating").daemon()
                .factory());
        this.stopListening = lifecycle.onChange(status -> wakeWaiting());
    }

    /**
     * Starts consuming the verbs' queue, which {@link Topology#declare} declared.
     *
     * @param broker the connection to consume on
     * @param verbs the verbs, the same instance as every other transport's
     * @param identity who may call which verb
     * @param version the controller's version, told in {@code initialize}
     * @param lifecycle the controller's life cycle, whose epoch and instance every reply carries
     * @return the running transport
     * @throws BusException when the queue cannot be consumed (it does not exist, or the broker is gone)
     */
    public static BrokerVerbs start(Broker broker, Verbs verbs, Identity identity, String version,
            Lifecycle lifecycle) {
        return open(broker, verbs, identity, version, lifecycle, null, null);
    }

    /**
     * Starts consuming the verbs' queue, and ticking: tells {@code feeding} whether the broker feeds this
     * controller, as {@code policy} decides from the deliveries (see the class's description).
     *
     * @param broker the connection to consume and tick on
     * @param verbs the verbs, the same instance as every other transport's
     * @param identity who may call which verb
     * @param version the controller's version, told in {@code initialize}
     * @param lifecycle the controller's life cycle, whose epoch and instance every reply carries and every
     *     tick names
     * @param feeding told {@code fed} and {@code starved}, on a thread of the transport's
     * @param policy the tick period and what the deliveries mean (the handover's rule), for this transport alone
     * @return the running transport
     * @throws BusException when the queue cannot be consumed (it does not exist, or the broker is gone)
     */
    public static BrokerVerbs start(Broker broker, Verbs verbs, Identity identity, String version,
            Lifecycle lifecycle, Feeding feeding, FeedPolicy policy) {
        return open(broker, verbs, identity, version, lifecycle, Objects.requireNonNull(feeding, "feeding"),
                Objects.requireNonNull(policy, "policy"));
    }

    private static BrokerVerbs open(Broker broker, Verbs verbs, Identity identity, String version,
            Lifecycle lifecycle, Feeding feeding, FeedPolicy policy) {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(verbs, "verbs");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(lifecycle, "lifecycle");
        try {
            BrokerVerbs transport = new BrokerVerbs(broker, verbs, identity, version, lifecycle, feeding, policy);
            try {
                transport.replies.open();
                transport.laneReplies.open();
                transport.subscription = Subscription.start(broker, Topology.VERBS, PREFETCH, transport::serve);
            } catch (IOException | ShutdownSignalException e) {
                transport.mutations.shutdownNow();
                transport.replies.close();
                transport.laneReplies.close();
                if (transport.feed != null) {
                    transport.feed.close();
                }
                transport.stopListening.run();
                throw e;
            }
            if (feeding != null) {
                transport.ticks = Ticks.start(broker, lifecycle.status().instance(), policy.tick().toMillis(),
                        transport::tick);
            }
            LOG.info("broker verbs consuming queue={} vhost={} prefetch={} instance={}", Topology.VERBS,
                    broker.settings().vhost(), PREFETCH, lifecycle.status().instance());
            return transport;
        } catch (IOException | ShutdownSignalException e) {
            throw new BusException("cannot consume " + Topology.VERBS + " in virtual host " + broker.settings().vhost()
                    + ": " + Broker.reason(e) + "; declare the topology first (prepare), and check the broker", e);
        }
    }

    /** After each tick: the feed's check, then a renewal when the broker fed nothing for too long. */
    private void tick() {
        feed.check();
        if (consuming && feed.renewDue()) {
            subscription.renew("nothing delivered for " + feed.renewAfter().toMillis() + " ms");
        }
    }

    private void serve(Channel channel, com.rabbitmq.client.Envelope delivery, AMQP.BasicProperties properties,
            byte[] body) {
        // What arrives after stopConsuming was sent before the cancel: it does not tell that the broker feeds us.
        boolean counted = consuming && feed != null;
        if (counted) {
            feed.arrived();
        }
        Runnable handled = counted ? feed::handled : () -> { };
        boolean handedOn = false;
        try {
            if (Ticks.is(properties)) {
                // Any controller's tick, an old one's too: it only told this consumer that the broker feeds it.
                settle(channel, delivery.getDeliveryTag(), true, false);
                return;
            }
            Bodies.Body read = Bodies.read(body);
            if (!mutating(read)) {
                handle(channel, delivery, properties, body, read, replies);
                return;
            }
            // Held until the lane settled it: settled() and the feed count it as handled only then.
            Runnable release = subscription.hold();
            try {
                mutations.execute(new Mutation(() -> handleOnTheLane(channel, delivery, properties, body, read),
                        () -> {
                            release.run();
                            handled.run();
                        }));
                handedOn = true;
            } catch (RejectedExecutionException e) {
                release.run(); // closing: the channel gives the request back to the queue
            }
        } finally {
            if (!handedOn) {
                handled.run();
            }
        }
    }

    /**
     * Handles a mutating request on its lane. What the client does for the consumer thread (a handler that
     * throws closes the channel, so the delivery goes back to the queue) is done here for the lane: a failure
     * gives the request back, and the delivery limit dead-letters one that keeps failing. Nothing in {@link
     * #handle} is known to throw; this keeps a bug from holding a delivery unacknowledged for good.
     */
    private void handleOnTheLane(Channel channel, com.rabbitmq.client.Envelope delivery,
            AMQP.BasicProperties properties, byte[] body, Bodies.Body read) {
        try {
            if (!activeOrWaitedFor(properties, read)) {
                LOG.info("broker verb given back reason=stopped-consuming messageId={} role={}",
                        properties.getMessageId(), lifecycle.status().role().label());
                settle(channel, delivery.getDeliveryTag(), false, true);
                return;
            }
            handle(channel, delivery, properties, body, read, laneReplies);
        } catch (RuntimeException e) {
            LOG.warn("broker verb failed reason=\"{}\" messageId={}; given back to the queue", e,
                    properties.getMessageId());
            settle(channel, delivery.getDeliveryTag(), false, true);
        }
    }

    /**
     * @return whether the body calls a mutating verb ({@code tools/call} of one): it is handled on the mutations'
     *     lane, so that a wait for activation or a slow change never holds the reads behind it
     */
    private static boolean mutating(Bodies.Body body) {
        return body instanceof Bodies.Body.Json(var request)
                && "tools/call".equals(request.path("method").asString(""))
                && Verbs.mutates(request.path("params").path("name").asString(""));
    }

    /** A mutating request on the lane, and what to do once it is settled, or dropped at close. */
    private record Mutation(Runnable work, Runnable done) implements Runnable {
        @Override
        public void run() {
            try {
                work.run();
            } finally {
                done.run();
            }
        }
    }

    private void handle(Channel channel, com.rabbitmq.client.Envelope delivery, AMQP.BasicProperties properties,
            byte[] body, Bodies.Body read, Replies through) {
        long tag = delivery.getDeliveryTag();
        String replyTo = properties.getReplyTo();
        if (replyTo == null || replyTo.isEmpty()) {
            // Nowhere to answer, now or on any redelivery: straight to the dead letters.
            LOG.warn("broker verb rejected reason=no-reply-to messageId={}", properties.getMessageId());
            settle(channel, tag, false, false);
            return;
        }
        if (read instanceof Bodies.Body.Unreadable unreadable) {
            // docs/design.md section 8: a message that cannot be read is dead at once, never answered or retried.
            long count = unreadableCount.incrementAndGet();
            if (unreadableLog.due("unreadable")) {
                LOG.warn("broker verb rejected reason=unreadable problem=\"{}\" messageId={} unreadable={}",
                        unreadable.problem(), properties.getMessageId(), count);
            }
            settle(channel, tag, false, false);
            return;
        }
        long started = System.nanoTime();
        McpDispatcher.Answer answer = answer(properties, body);
        Optional<byte[]> response = answer.response();
        long answered = System.nanoTime();
        // A mutating verb that passed the identity's check while this controller was active, then found it
        // releasing (a SIGTERM in between) and was refused by the gate, is given back, as a verb held when the
        // release began is, so that the successor runs it rather than the caller seeing an error. Its request ran
        // nothing here, so a redelivery runs it once.
        if (answer.notActive() && lifecycle.status().role() == Role.RELEASING) {
            LOG.info("broker verb given back reason=stopped-consuming messageId={} role={}", properties.getMessageId(),
                    lifecycle.status().role().label());
            settle(channel, tag, false, true);
            return;
        }
        if (response.isEmpty()) {
            settle(channel, tag, true, false);
            return;
        }
        byte[] reply = response.get();
        if (reply.length > Broker.MAX_BODY_BYTES) {
            // The broker would refuse it (its max_message_size), and every redelivery the same: say so instead.
            LOG.warn("broker verb answer too large bytes={} limit={} messageId={}", reply.length, Broker.MAX_BODY_BYTES,
                    properties.getMessageId());
            reply = McpDispatcher.instead(reply, new VerbException(VerbException.Code.INVALID, "the answer is "
                    + reply.length + " bytes, over the " + Broker.MAX_BODY_BYTES + " bytes a message on the broker may "
                    + "hold; ask for less, or call the verb over HTTP (serve --http)", ""));
        }
        try {
            through.send(replyTo, properties.getCorrelationId(), reply, lifecycle.status());
            settle(channel, tag, true, false);
            slow(properties, started, answered);
        } catch (BusException e) {
            LOG.warn("broker verb requeued reason={} messageId={} redelivered={}", e.getMessage(),
                    properties.getMessageId(), delivery.isRedeliver());
            settle(channel, tag, false, true);
        }
    }

    /** Logs, at DEBUG, a request whose answer and reply took longer than {@value #SLOW_MS} ms together. */
    private void slow(AMQP.BasicProperties properties, long started, long answered) {
        long now = System.nanoTime();
        if (now - started > SLOW_MS * 1_000_000 && LOG.isDebugEnabled()) {
            LOG.debug("broker verb slow messageId={} answerMs={} replyMs={} role={}", properties.getMessageId(),
                    (answered - started) / 1_000_000, (now - answered) / 1_000_000, lifecycle.status().role().label());
        }
    }

    /** @return the dispatcher's answer to the request: its response, empty for a notification */
    private McpDispatcher.Answer answer(AMQP.BasicProperties properties, byte[] body) {
        // No user_id: the empty principal, which no identity grants anything, so a call is unauthorized.
        String principal = properties.getUserId() == null ? "" : properties.getUserId();
        String messageId = properties.getMessageId();
        if (messageId == null || messageId.isEmpty()) {
            return withoutMessageId.answer(body, Envelope.of(principal));
        }
        return dispatcher.answer(body, Envelope.of(principal, messageId));
    }

    /**
     * Lets a mutating request with {@code message_id} that may run wait, while this controller is not active, up
     * to {@value #ACTIVATION_WAIT_MS} ms for it to become active, or for this transport to stop consuming. Told of
     * both, it does not poll. A request without {@code message_id}, or from a principal that may not call the verb,
     * does not wait: the dispatcher refuses it at once.
     *
     * @return whether to answer the request: false when this transport stopped consuming and this controller is
     *     not active, so that the request goes back to the queue for the next controller. When the wait ran out
     *     it is answered, and core's gate refuses it naming the active controller
     */
    private boolean activeOrWaitedFor(AMQP.BasicProperties properties, Bodies.Body read) {
        String messageId = properties.getMessageId();
        String principal = properties.getUserId() == null ? "" : properties.getUserId();
        String verb = read instanceof Bodies.Body.Json(var request)
                ? request.path("params").path("name").asString("") : "";
        if (messageId == null || messageId.isEmpty() || !identity.allows(principal, verb)) {
            return true;
        }
        long deadline = System.nanoTime() + ACTIVATION_WAIT_MS * 1_000_000;
        synchronized (activation) {
            while (consuming && lifecycle.status().role() != Role.ACTIVE) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(activation, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return true;
                }
            }
        }
        return consuming || lifecycle.status().role() == Role.ACTIVE;
    }

    private void wakeWaiting() {
        synchronized (activation) {
            activation.notifyAll();
        }
    }

    private static void settle(Channel channel, long tag, boolean ack, boolean requeue) {
        Subscription.settle(channel, tag, ack, requeue, "broker verb");
    }

    /** @return how many requests were dead-lettered at once for a body that is not UTF-8 JSON */
    public long unreadable() {
        return unreadableCount.get();
    }

    /** @return whether the broker is believed to feed this controller now (see {@link Feeding}) */
    public boolean fed() {
        return feed != null && feed.fed();
    }

    /**
     * Stops consuming ({@code basic.cancel}; docs/design.md section 10, a planned release): the broker feeds the next
     * consumer at once, while the requests this one holds are still handled and acknowledged here (a mutating
     * one that finds this controller not active is given back to the queue). Tells {@link Feeding#starved()}
     * when fed. Ticks go on until {@link #close()}. Does nothing the second time.
     */
    public void stopConsuming() {
        consuming = false;
        wakeWaiting();
        subscription.pause();
        if (feed != null) {
            feed.stopped("stopped consuming");
        }
    }

    /**
     * Consumes again after {@link #stopConsuming()} ({@code basic.consume}; docs/design.md section 10, a standby
     * rejoining): with a single active consumer, the broker feeds this controller only after the consumers that
     * registered before. {@link Feeding#fed()} is told again at the first delivery. Does nothing while consuming.
     */
    public void resumeConsuming() {
        consuming = true;
        subscription.resume();
    }

    /**
     * Waits until this transport holds no request unacknowledged: none being handled, and none that the broker
     * sent before the last {@link #stopConsuming()} left to hand. Meaningful after {@link #stopConsuming()}: while
     * consuming, more may come at any time.
     *
     * @param wait how long to wait at most
     * @return whether it holds nothing now
     */
    public boolean settled(Duration wait) {
        return subscription.idle(wait);
    }

    /** @return the channel consuming now, for a test to inject a fault into */
    Channel consuming() {
        return subscription.channel();
    }

    /**
     * Stops consuming: closes the channel, so the requests it held and did not acknowledge go back to the
     * queue. Does nothing when closed already.
     */
    @Override
    public void close() {
        consuming = false;
        wakeWaiting();
        stopListening.run();
        Ticks running = ticks;
        if (running != null) {
            running.close();
        }
        subscription.close();
        // What the lane had not begun went back to the queue with the channel; each is let go.
        mutations.shutdownNow().forEach(dropped -> ((Mutation) dropped).done().run());
        if (feed != null) {
            feed.close();
        }
        replies.close();
        laneReplies.close();
        LOG.info("broker verbs stopped queue={} vhost={}", Topology.VERBS, broker.settings().vhost());
    }
}
