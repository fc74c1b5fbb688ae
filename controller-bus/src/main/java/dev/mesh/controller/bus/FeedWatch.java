package dev.mesh.controller.bus;

import dev.mesh.controller.core.FeedPolicy;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a {@link Feeding} whether the broker feeds this consumer, as its {@link FeedPolicy} decides from what
 * is delivered: {@link #arrived()} and {@link #handled()} for each delivery, {@link #check()} at every tick
 * period. Tells the listener on a thread of its own, in order, what the feed is when the listener's turn
 * comes, when that differs from what it was told last: a change undone while the listener was still busy with
 * an earlier one is not told at all; {@link Feeding#stillFed()} at every check while fed. The decisions are the
 * policy's (the handover's); this keeps their order, the thread and the log.
 *
 * <p>Thread-safe: the policy is called under this watch's lock.
 */
final class FeedWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FeedWatch.class);

    private final Feeding listener;
    private final FeedPolicy policy;
    private final String queue;
    private final ExecutorService notifier;
    private boolean closed;
    /** What the listener was told last; read and written by the notifier's thread alone. */
    private boolean toldFed;

    FeedWatch(Feeding listener, FeedPolicy policy, String queue) {
        this.listener = listener;
        this.policy = policy;
        this.queue = queue;
        this.notifier = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("mesh-feed-" + queue).daemon()
                .factory());
    }

    /** A delivery arrived and is being handled now. */
    synchronized void arrived() {
        if (policy.arrived()) {
            LOG.info("broker feeds this controller queue={}", queue);
            tell();
        }
    }

    /** The delivery {@link #arrived()} last is handled. */
    synchronized void handled() {
        policy.handled();
    }

    /** Called every tick period: starved when the policy says so, still fed told otherwise while fed. */
    synchronized void check() {
        switch (policy.look()) {
            case STARVED -> starved("nothing delivered for " + policy.quietMs() + " ms");
            case STILL_FED -> stillFed();
            case NOT_FED -> { }
        }
    }

    private void stillFed() {
        notifier.execute(() -> {
            if (!fed() || !toldFed) {
                return; // starved since, or fed not told yet: that is told next
            }
            try {
                listener.stillFed();
            } catch (RuntimeException e) {
                LOG.warn("feeding listener failed on stillFed: {}", e.toString());
            }
        });
    }

    /**
     * Whether the consumer should consume again on a new channel now: the policy's {@link FeedPolicy#renewDue()}.
     * A standby is not fed by design, so this says yes to it every renewal period (docs/bus.md, "The verbs over
     * the broker").
     *
     * @return whether to renew now
     */
    synchronized boolean renewDue() {
        return policy.renewDue();
    }

    /** @return how long without a delivery makes a renewal due: the policy's {@link FeedPolicy#renewAfter()} */
    Duration renewAfter() {
        return policy.renewAfter();
    }

    /** This consumer stopped consuming on purpose. */
    synchronized void stopped(String why) {
        if (policy.stopped()) {
            starved(why);
        }
    }

    /** @return whether the broker is believed to feed this consumer now */
    synchronized boolean fed() {
        return policy.fed();
    }

    private void starved(String why) {
        LOG.info("broker no longer feeds this controller queue={} fedMs={} reason=\"{}\"", queue, policy.fedMs(),
                why);
        tell();
    }

    private void tell() {
        notifier.execute(() -> {
            // What the feed is now, if the listener was not told so last: a change undone while the
            // listener was busy (a lock wait, say) is not told. A starved told late would make an active
            // controller let go of the lock it had just taken while the broker fed it (the driver's
            // stop-30 saw it loop, taking a new epoch every few milliseconds).
            boolean now = fed();
            if (now == toldFed) {
                return;
            }
            toldFed = now;
            try {
                if (now) {
                    listener.fed();
                } else {
                    listener.starved();
                }
            } catch (RuntimeException e) {
                LOG.warn("feeding listener failed on {}: {}", now ? "fed" : "starved", e.toString());
            }
        });
    }

    /** Tells {@code starved} when fed, lets what was told run, then stops. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (policy.closed()) {
                starved("closed");
            }
        }
        notifier.shutdown();
    }

    /**
     * After {@link #close()}: waits until the listener was told everything it was to be told.
     *
     * @param wait how long at most
     * @return whether it was
     * @throws InterruptedException when interrupted while waiting
     */
    boolean drained(Duration wait) throws InterruptedException {
        return notifier.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
    }
}
