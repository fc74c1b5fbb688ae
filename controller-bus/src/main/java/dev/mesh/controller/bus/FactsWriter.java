package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.manifest.MeshException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands facts to the {@link Inventory}, on one thread of its own: those that change a node's facts whole, in batches
 * ({@link Inventory#report(java.util.Collection)}), and those that repeat them as sightings, in bulk
 * ({@link Inventory#seen(java.util.Map)}). A host reports every 5 s and its facts mostly repeat: what it runs, the
 * revision it applied; only their time moves. {@link WrittenFacts} says, as each fact comes ({@link #add}, on NATS's
 * dispatcher), which repeat the ones written: those never wait in the queue, so a write that takes a while (the
 * sightings', a large batch) cannot make them pass its bound. A batch is the others that arrive within {@link #WINDOW}
 * of the first, at most {@link #MAX_BATCH}. The sightings gathered are
 * written every {@link #SIGHTINGS_EVERY}, at most {@link #SIGHTINGS_PER_WRITE} nodes a transaction: the time the store
 * gives a node was last seen is at most that interval (and the write's own time) behind the facts received, well
 * inside {@link Facts#SILENCE}, so no reader of the store sees a node that reports fall silent.
 *
 * <p>A batch the store refuses is split in halves, and those again, down to single facts: the parts it takes are
 * written, and a single fact it refuses while it took others is dropped and counted ({@link #droppedRefused()}) —
 * one fact the store cannot hold never holds the others. When two single facts are refused and nothing was taken,
 * the store is what fails (down, fenced): the batch is kept, those two moved to its end, and tried again with what arrived since after {@link #RETRY}
 * (about log2 of the batch's size calls each time); at most {@link #MAX_HELD} facts are held, the oldest dropped
 * beyond. A fact taken for refused while the store failed in the middle of a split is lost; its node's next
 * facts come within one interval. Sightings the store does not take are kept, one a node, the latest, and tried
 * again at the next interval: repeated facts are never dropped. Thread-safe.
 */
final class FactsWriter implements AutoCloseable {

    static final Duration WINDOW = Duration.ofMillis(200);
    static final int MAX_BATCH = 500;
    static final int MAX_HELD = 10_000;
    static final Duration RETRY = Duration.ofSeconds(1);
    static final Duration SIGHTINGS_EVERY = Facts.INTERVAL;
    static final int SIGHTINGS_PER_WRITE = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(FactsWriter.class);

    private final Inventory inventory;
    private final Clock clock;
    private final Duration window;
    private final Duration retry;
    private final WrittenFacts remembered = new WrittenFacts();
    private final OncePerMinute failureLog;
    private final BlockingQueue<Facts> arrived = new LinkedBlockingQueue<>(MAX_HELD);
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong unchanged = new AtomicLong();
    private final AtomicLong droppedBacklog = new AtomicLong();
    private final AtomicLong droppedRefused = new AtomicLong();
    private final Thread thread;

    private FactsWriter(Inventory inventory, Clock clock, Duration window, Duration retry) {
        this.inventory = inventory;
        this.clock = clock;
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

    /**
     * Takes facts in, on the caller's thread: facts that repeat their node's become its sighting at once, never
     * waiting; the others are queued for the next batch, and when {@link #MAX_HELD} wait already, dropped and counted.
     */
    void add(Facts facts) {
        if (!remembered.repeats(facts) && !arrived.offer(facts)) {
            droppedBacklog.incrementAndGet();
            remembered.dropped(List.of(facts));
        }
    }

    /** @return facts the store took: written whole, or, repeating their node's, as its sighting */
    long written() {
        return written.get();
    }

    /** @return of {@link #written()}, the facts that repeated their node's and were written as its sighting */
    long unchanged() {
        return unchanged.get();
    }

    long droppedBacklog() {
        return droppedBacklog.get();
    }

    long droppedRefused() {
        return droppedRefused.get();
    }

    private void run() {
        List<Facts> batch = new ArrayList<>();
        Instant sightingsDue = clock.instant();
        try {
            while (closing.getCount() > 0) {
                collect(batch);
                if (!batch.isEmpty() && !write(batch, true)) {
                    closing.await(retry.toMillis(), TimeUnit.MILLISECONDS);
                }
                Instant now = clock.instant();
                if (!now.isBefore(sightingsDue) || now.isBefore(sightingsDue.minus(SIGHTINGS_EVERY))) {
                    writeSightings();
                    sightingsDue = now.plus(SIGHTINGS_EVERY);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arrived.drainTo(batch);
        if (!batch.isEmpty() && !write(batch, false)) {
            LOG.warn("facts lost on close held={}", batch.size());
            remembered.dropped(batch);
        }
        writeSightings();
    }

    /** Takes what arrived within the window of its first, at most {@link #MAX_BATCH}; waits a window for the first. */
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
            remembered.dropped(batch.subList(0, excess));
            batch.subList(0, excess).clear();
            droppedBacklog.addAndGet(excess);
        }
    }

    /** Writes the sightings gathered; those the store does not take are kept for the next time. */
    private void writeSightings() {
        List<Map.Entry<String, Instant>> sightings = new ArrayList<>(remembered.sightings().entrySet());
        for (int from = 0; from < sightings.size(); from += SIGHTINGS_PER_WRITE) {
            Map<String, Instant> part = new HashMap<>();
            sightings.subList(from, Math.min(sightings.size(), from + SIGHTINGS_PER_WRITE))
                    .forEach(one -> part.put(one.getKey(), one.getValue()));
            try {
                inventory.seen(part);
            } catch (MeshException e) {
                if (failureLog.due("sightings")) {
                    LOG.warn("facts sightings not written held={} error={}", sightings.size() - from, e.getMessage());
                }
                return;
            }
            long facts = remembered.sightingsWritten(part);
            written.addAndGet(facts);
            unchanged.addAndGet(facts);
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
            remembered.dropped(isolation.suspects);
            if (failureLog.due("refused")) {
                LOG.warn("facts refused by the store dropped={} nodes={} written={} error={}",
                        isolation.suspects.size(), isolation.suspects.stream().map(f -> f.node().name()).toList(),
                        isolation.written, isolation.error);
            }
            batch.clear();
            return true;
        }
        remembered.written(batch);
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
                remembered.written(part);
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

    /** Stops the thread after one last write of what it held and of the sightings; waits for it up to 10 s. */
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
