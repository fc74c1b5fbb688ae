package dev.mesh.controller.bus;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the broker feeds this consumer, from what it delivers: fed at the first delivery, starved when
 * nothing was delivered for {@link FeedTimings#starvedAfterMs()} ms while no delivery was being handled (a verb that
 * takes long keeps it fed); {@link Feeding#stillFed()} at every {@link #check()} in between. Tells a {@link
 * Feeding} on a thread of its own, in order, what the feed is when the listener's turn comes, when that differs
 * from what it was told last: a change undone while the listener was still busy with an earlier one is not
 * told at all.
 *
 * <p>Thread-safe.
 */
final class FeedWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FeedWatch.class);

    private final Feeding listener;
    private final LongSupplier millis;
    private final String queue;
    private final long starvedAfterMs;
    private final ExecutorService notifier;
    private boolean fed;
    private int handling;
    private long lastSeen;
    private long fedSince;
    /** When {@link #renewDue} last said yes, or when the watch began. */
    private long renewedAt;
    private boolean closed;
    /** What the listener was told last; read and written by the notifier's thread alone. */
    private boolean toldFed;

    FeedWatch(Feeding listener, LongSupplier millis, String queue, long starvedAfterMs) {
        this.listener = listener;
        this.starvedAfterMs = starvedAfterMs;
        this.millis = millis;
        this.queue = queue;
        this.notifier = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("mesh-feed-" + queue).daemon()
                .factory());
        this.renewedAt = millis.getAsLong();
    }

    /** A delivery arrived and is being handled now. */
    synchronized void arrived() {
        handling++;
        lastSeen = millis.getAsLong();
        if (!fed && !closed) {
            fed = true;
            fedSince = lastSeen;
            LOG.info("broker feeds this controller queue={}", queue);
            tell();
        }
    }

    /** The delivery {@link #arrived()} last is handled. */
    synchronized void handled() {
        handling--;
        lastSeen = millis.getAsLong();
    }

    /** Called every tick period: starved when nothing arrived for too long while nothing was handled. */
    synchronized void check() {
        long now = millis.getAsLong();
        if (fed && handling == 0 && now - lastSeen > starvedAfterMs) {
            starve("nothing delivered for " + (now - lastSeen) + " ms");
        } else if (fed && !closed) {
            stillFed();
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
     * Whether the consumer should consume again on a new channel: it is starved, holds nothing, and nothing
     * arrived for {@code quietMs} since the last delivery or the last time this said yes. A standby is starved
     * by design, so this says yes to it every {@code quietMs}; see {@link BrokerVerbs#RENEW_AFTER_MS} for why.
     *
     * @param quietMs how long without a delivery, in milliseconds
     * @return whether to renew now; the next yes is {@code quietMs} later at the earliest
     */
    synchronized boolean renewDue(long quietMs) {
        long now = millis.getAsLong();
        if (fed || closed || handling > 0 || now - Math.max(lastSeen, renewedAt) < quietMs) {
            return false;
        }
        renewedAt = now;
        return true;
    }

    /** This consumer stopped consuming on purpose. */
    synchronized void stopped(String why) {
        if (fed) {
            starve(why);
        }
    }

    /** @return whether the broker is believed to feed this consumer now */
    synchronized boolean fed() {
        return fed;
    }

    private void starve(String why) {
        fed = false;
        LOG.info("broker no longer feeds this controller queue={} fedMs={} reason=\"{}\"", queue,
                millis.getAsLong() - fedSince, why);
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
            if (fed) {
                starve("closed");
            }
            closed = true;
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
