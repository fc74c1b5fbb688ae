package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.manifest.MeshException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands facts to {@link Inventory#report(java.util.Collection)} in batches, on one thread of its own: a
 * batch is what arrives within {@link #WINDOW} of its first fact, at most {@link #MAX_BATCH} facts.
 *
 * <p>A batch the store refuses is split in halves, and those again, down to single facts: the parts it takes are
 * written, and a single fact it refuses while it took others is dropped and counted ({@link #droppedRefused()}) —
 * one fact the store cannot hold never holds the others. When two single facts are refused and nothing was taken,
 * the store is what fails (down, fenced): the batch is kept, those two moved to its end, and tried again with what arrived since after {@link #RETRY}
 * (about log2 of the batch's size calls each time); at most {@link #MAX_HELD} facts are held, the oldest dropped
 * beyond. A fact taken for refused while the store failed in the middle of a split is lost; its node's next
 * facts come within one interval. Thread-safe.
 */
final class FactsWriter implements AutoCloseable {

    static final Duration WINDOW = Duration.ofMillis(200);
    static final int MAX_BATCH = 500;
    static final int MAX_HELD = 10_000;
    static final Duration RETRY = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(FactsWriter.class);

    private final Inventory inventory;
    private final Duration window;
    private final Duration retry;
    private final OncePerMinute failureLog;
    private final BlockingQueue<Facts> arrived = new LinkedBlockingQueue<>(MAX_HELD);
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong droppedBacklog = new AtomicLong();
    private final AtomicLong droppedRefused = new AtomicLong();
    private final Thread thread;

    private FactsWriter(Inventory inventory, Clock clock, Duration window, Duration retry) {
        this.inventory = inventory;
        this.window = window;
        this.retry = retry;
        this.failureLog = new OncePerMinute(clock);
        this.thread = Thread.ofPlatform().name("mesh-facts-writer").daemon().unstarted(this::run);
    }

    /** @return a writer to {@code inventory}, its thread started */
    static FactsWriter start(Inventory inventory, Clock clock) {
        return start(inventory, clock, WINDOW, RETRY);
    }

    /** @return a writer to {@code inventory} with its own batch window and retry pause (for tests), started */
    static FactsWriter start(Inventory inventory, Clock clock, Duration window, Duration retry) {
        FactsWriter writer = new FactsWriter(inventory, clock, window, retry);
        writer.thread.start();
        return writer;
    }

    /** Queues facts for the next batch; when {@link #MAX_HELD} wait already, they are dropped and counted. */
    void add(Facts facts) {
        if (!arrived.offer(facts)) {
            droppedBacklog.incrementAndGet();
        }
    }

    long written() {
        return written.get();
    }

    long droppedBacklog() {
        return droppedBacklog.get();
    }

    long droppedRefused() {
        return droppedRefused.get();
    }

    private void run() {
        List<Facts> batch = new ArrayList<>();
        try {
            while (closing.getCount() > 0) {
                collect(batch);
                if (!batch.isEmpty() && !write(batch, true)) {
                    closing.await(retry.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arrived.drainTo(batch);
        if (!batch.isEmpty() && !write(batch, false)) {
            LOG.warn("facts lost on close held={}", batch.size());
        }
    }

    private void collect(List<Facts> batch) throws InterruptedException {
        Facts first = arrived.poll(window.toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        batch.add(first);
        long deadline = System.nanoTime() + window.toNanos();
        for (int taken = 1; taken < MAX_BATCH; taken++) {
            Facts next = arrived.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (next == null) {
                break;
            }
            batch.add(next);
        }
        int excess = batch.size() - MAX_HELD;
        if (excess > 0) {
            batch.subList(0, excess).clear();
            droppedBacklog.addAndGet(excess);
        }
    }

    /**
     * @param split whether a refused batch is split to find the facts the store refuses (not on close: one try)
     * @return whether the batch is done with — written, but for the facts the store refused alone — and emptied
     */
    private boolean write(List<Facts> batch, boolean split) {
        try {
            inventory.report(batch);
        } catch (MeshException e) {
            if (!split || batch.size() == 1) {
                held(batch, e.getMessage());
                return false;
            }
            Isolation isolation = new Isolation();
            isolation.write(batch);
            if (isolation.written == 0) {
                // The store, not the facts: keep them all, the two refused last, so that two facts the store
                // refuses at the batch's head cannot make it look down for ever.
                batch.removeAll(isolation.suspects);
                batch.addAll(isolation.suspects);
                held(batch, isolation.error);
                return false;
            }
            written.addAndGet(isolation.written);
            droppedRefused.addAndGet(isolation.suspects.size());
            if (failureLog.due("refused")) {
                LOG.warn("facts refused by the store dropped={} nodes={} written={} error={}",
                        isolation.suspects.size(), isolation.suspects.stream().map(f -> f.node().name()).toList(),
                        isolation.written, isolation.error);
            }
            batch.clear();
            return true;
        }
        written.addAndGet(batch.size());
        batch.clear();
        return true;
    }

    private void held(List<Facts> batch, String error) {
        // The store is down or fenced: keep the batch for the next try, never throw into NATS.
        if (failureLog.due("store")) {
            LOG.warn("facts not written held={} error={}", batch.size(), error);
        }
    }

    /**
     * One split write of a refused batch: halves written depth first; a single fact refused is a suspect — refused
     * for itself once anything was written, the store's fault when nothing is.
     */
    private final class Isolation {

        private int written;
        private final List<Facts> suspects = new ArrayList<>();
        private String error = "";

        void write(List<Facts> part) {
            if (written == 0 && suspects.size() >= 2) {
                return; // two refused alone and nothing taken: the store fails
            }
            try {
                inventory.report(part);
                written += part.size();
            } catch (MeshException e) {
                error = e.getMessage();
                if (part.size() == 1) {
                    suspects.add(part.getFirst());
                    return;
                }
                int half = part.size() / 2;
                write(part.subList(0, half));
                write(part.subList(half, part.size()));
            }
        }
    }

    /** Stops the thread after one last write of what it held; waits for it up to 10 s. */
    @Override
    public void close() {
        closing.countDown();
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
