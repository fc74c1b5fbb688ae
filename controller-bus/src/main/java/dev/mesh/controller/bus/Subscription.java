package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue consumed with manual acknowledgements, on a channel of its own that comes back when the broker
 * takes it away. The client's automatic recovery restores channels and consumers after a <em>connection</em>
 * failure, not after the broker closed one channel (a channel error, e.g. a 406 on it) or cancelled the
 * consumer ({@code basic.cancel}: its queue was deleted): then the channel is aborted and, after {@value
 * #REOPEN_PAUSE_MS} ms, a new one opened and the queue consumed again, every {@value #REOPEN_PAUSE_MS} ms
 * until it works (the queue declared again, say). The loss is logged once, at WARN, and the return at INFO.
 *
 * <p>A consumer may also be {@linkplain #pause() paused} on purpose (cancelled; the deliveries it holds stay
 * its own) and {@linkplain #resume() resumed}. Nothing is reopened once {@link #close()} began.
 *
 * <p>Thread-safe.
 */
final class Subscription implements AutoCloseable {

    /** How long after a loss the channel is reopened, and how often that is tried again. */
    static final long REOPEN_PAUSE_MS = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(Subscription.class);

    /** What a delivery is handed to, on the client's consumer thread, one at a time per channel. */
    @FunctionalInterface
    interface Handler {
        /**
         * @param channel the channel it came on, where it is acknowledged
         * @param delivery its envelope
         * @param properties its properties
         * @param body its body
         */
        void handle(Channel channel, Envelope delivery, AMQP.BasicProperties properties, byte[] body);
    }

    private final Broker broker;
    private final String queue;
    private final int prefetch;
    private final Handler handler;
    private final ScheduledExecutorService reopener;
    private Channel channel;
    private Consumer consumer;
    private boolean paused;
    private boolean reopening;
    private boolean closed;
    /** Guards {@link #handling} and {@link #cancelling}; never held while calling the broker. */
    private final Object held = new Object();
    /** How many deliveries are held: being handled, or handed on ({@link #hold()}) and not settled yet. */
    private int handling;
    /** The consumer last cancelled whose {@code cancel-ok} was not dispatched yet, or {@code null}. */
    private Consumer cancelling;

    private Subscription(Broker broker, String queue, int prefetch, Handler handler) {
        this.broker = broker;
        this.queue = queue;
        this.prefetch = prefetch;
        this.handler = handler;
        this.reopener = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("mesh-reopen-" + queue).daemon().factory());
    }

    /**
     * Opens a channel and consumes the queue.
     *
     * @throws IOException when the queue cannot be consumed (it does not exist, the broker is gone)
     */
    static Subscription start(Broker broker, String queue, int prefetch, Handler handler) throws IOException {
        Subscription subscription = new Subscription(broker, queue, prefetch, handler);
        try {
            synchronized (subscription) {
                subscription.open();
            }
        } catch (IOException | RuntimeException e) {
            subscription.close();
            throw e;
        }
        return subscription;
    }

    /** Opens a channel, and consumes on it unless paused; the caller holds the monitor. */
    private void open() throws IOException {
        Channel opened = broker.connection().createChannel();
        try {
            opened.basicQos(prefetch);
            channel = opened;
            consumer = null;
            if (!paused) {
                consume();
            }
        } catch (IOException | RuntimeException e) {
            Broker.abort(opened);
            throw e;
        }
    }

    private void consume() throws IOException {
        Consumer started = new Consumer(channel);
        channel.basicConsume(queue, false, started);
        consumer = started;
    }

    /** @return the channel consumed on now, for a test to inject a fault into */
    synchronized Channel channel() {
        return channel;
    }

    /**
     * Stops consuming ({@code basic.cancel}): the broker sends nothing more (with a single active consumer, it
     * feeds the next consumer), and what this one holds unacknowledged stays its own. Does nothing when paused.
     * When the cancel fails, the channel is gone, which stops the deliveries too; {@link #resume()} reopens it.
     */
    synchronized void pause() {
        if (paused || closed) {
            return;
        }
        paused = true;
        Consumer cancelled = consumer;
        consumer = null;
        if (cancelled != null && channel.isOpen()) {
            synchronized (held) {
                cancelling = cancelled;
            }
            try {
                channel.basicCancel(cancelled.getConsumerTag());
            } catch (IOException | ShutdownSignalException e) {
                LOG.debug("broker consumer not cancelled queue={} reason=\"{}\"", queue, Broker.reason(e));
                cancelled(cancelled);
            }
        }
    }

    /**
     * Waits until nothing delivered to this subscription is held: no delivery being handled, and the deliveries
     * the broker sent before the last {@link #pause()}'s cancel all handed to the handler (the client dispatches
     * a channel's deliveries, then its {@code cancel-ok}, in order). The handler is expected to settle what it is
     * handed before it returns, so what it was handed is acknowledged or given back by then.
     *
     * @param wait how long to wait at most
     * @return whether nothing is held now
     */
    boolean idle(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (held) {
            while (handling > 0 || cancelling != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(held, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Counts a delivery as held after the handler returns, until the returned release runs: for a handler that
     * hands a delivery on to settle it elsewhere. Called by the handler, on the consumer thread, before it
     * returns.
     *
     * @return what to run, once, when the delivery is settled
     */
    Runnable hold() {
        synchronized (held) {
            handling++;
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                synchronized (held) {
                    handling--;
                    held.notifyAll();
                }
            }
        };
    }

    /** @return how many deliveries are held now (see {@link #hold()}) */
    int handling() {
        synchronized (held) {
            return handling;
        }
    }

    private void cancelled(Consumer which) {
        synchronized (held) {
            if (cancelling == which) {
                cancelling = null;
                held.notifyAll();
            }
        }
    }

    /**
     * Consumes again after {@link #pause()}. Does nothing when not paused. When the queue cannot be consumed
     * now (the channel was lost meanwhile, the queue is gone), the channel is reopened as after a loss.
     */
    synchronized void resume() {
        if (!paused || closed) {
            return;
        }
        paused = false;
        if (reopening) {
            return; // the channel being reopened consumes
        }
        try {
            if (channel.isOpen()) {
                consume();
                return;
            }
        } catch (IOException | ShutdownSignalException e) {
            LOG.debug("broker consumer not resumed queue={} reason=\"{}\"", queue, Broker.reason(e));
        }
        reopening = true;
        LOG.warn("broker consumer lost queue={} vhost={} reason=\"the channel closed while paused\"; reopening in {} ms",
                queue, broker.settings().vhost(), REOPEN_PAUSE_MS);
        reopener.schedule(this::reopen, REOPEN_PAUSE_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Consumes again on a new channel at once: the old channel is aborted first, so that the broker forgets
     * every consumer it registered for it (what it held unacknowledged goes back to the queue). For a consumer
     * that the broker may have orphaned without telling: a queue deleted and declared again at once
     * (RabbitMQ 3.10 sends no {@code basic.cancel} then, and keeps feeding the consumer of the old queue that
     * no longer exists, so that nothing reaches a live one until that channel closes). Does nothing when
     * paused, closed, or reopening already; when the new channel cannot consume, reopens as after a loss.
     *
     * @param why what made the caller renew, for the log line
     */
    synchronized void renew(String why) {
        if (closed || paused || reopening) {
            return;
        }
        Channel old = channel;
        consumer = null; // the old consumer's shutdown is not a loss
        Broker.abort(old);
        try {
            open();
        } catch (IOException | ShutdownSignalException e) {
            reopening = true;
            LOG.warn("broker consumer not renewed queue={} vhost={} reason=\"{}\"; reopening in {} ms", queue,
                    broker.settings().vhost(), Broker.reason(e), REOPEN_PAUSE_MS);
            reopener.schedule(this::reopen, REOPEN_PAUSE_MS, TimeUnit.MILLISECONDS);
            return;
        }
        LOG.debug("broker consumer renewed queue={} vhost={} reason=\"{}\"", queue, broker.settings().vhost(), why);
    }

    /** The broker took the channel or the consumer away: reopen after the pause, once per loss. */
    private synchronized void lost(Consumer which, String reason) {
        if (closed || which != consumer || reopening) {
            return; // closing on purpose, a consumer replaced already, or a reopening under way
        }
        reopening = true;
        consumer = null;
        LOG.warn("broker consumer lost queue={} vhost={} reason=\"{}\"; reopening in {} ms", queue,
                broker.settings().vhost(), reason, REOPEN_PAUSE_MS);
        reopener.schedule(this::reopen, REOPEN_PAUSE_MS, TimeUnit.MILLISECONDS);
    }

    private synchronized void reopen() {
        if (closed) {
            return;
        }
        Broker.abort(channel);
        try {
            open();
        } catch (IOException | ShutdownSignalException e) {
            LOG.debug("broker consumer not reopened queue={} reason=\"{}\"; trying again in {} ms", queue,
                    Broker.reason(e), REOPEN_PAUSE_MS);
            reopener.schedule(this::reopen, REOPEN_PAUSE_MS, TimeUnit.MILLISECONDS);
            return;
        }
        reopening = false;
        LOG.info("broker consumer reopened queue={} vhost={} paused={}", queue, broker.settings().vhost(), paused);
    }

    /**
     * Stops consuming for good: aborts the channel, so what it held unacknowledged goes back to the queue. Does
     * nothing more when closed already.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        reopener.shutdownNow();
        Channel last;
        synchronized (this) {
            last = channel;
        }
        Broker.abort(last);
    }

    /** Hands deliveries on; tells a loss that the broker caused, not one of a connection the client recovers. */
    private final class Consumer extends DefaultConsumer {

        Consumer(Channel channel) {
            super(channel);
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope delivery, AMQP.BasicProperties properties,
                byte[] body) {
            synchronized (held) {
                handling++;
            }
            try {
                handler.handle(getChannel(), delivery, properties, body);
            } finally {
                synchronized (held) {
                    handling--;
                    held.notifyAll();
                }
            }
        }

        @Override
        public void handleCancelOk(String consumerTag) {
            cancelled(this);
        }

        @Override
        public void handleCancel(String consumerTag) {
            cancelled(this);
            lost(this, "the broker cancelled the consumer (was the queue deleted?)");
        }

        @Override
        public void handleShutdownSignal(String consumerTag, ShutdownSignalException signal) {
            // The channel is gone: whatever it held goes back to the queue.
            cancelled(this);
            // A connection's failure (hard) is the automatic recovery's to mend; one of our own closes is nothing.
            if (!signal.isHardError() && !signal.isInitiatedByApplication()) {
                lost(this, "the broker closed the channel: " + Broker.reason(signal));
            }
        }
    }

    /**
     * Acknowledges or rejects a delivery; a channel lost meanwhile is logged, since the broker then
     * delivers the message again.
     *
     * @param what the message's kind, for the log line: {@code broker verb}, {@code report}
     */
    static void settle(Channel channel, long tag, boolean ack, boolean requeue, String what) {
        try {
            if (ack) {
                channel.basicAck(tag, false);
            } else {
                channel.basicReject(tag, requeue);
            }
        } catch (IOException | ShutdownSignalException e) {
            LOG.warn("{} not settled reason={} ack={} requeue={}; the broker delivers it again", what,
                    Broker.reason(e), ack, requeue);
        }
    }
}
