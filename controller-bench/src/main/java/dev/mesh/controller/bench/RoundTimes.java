package dev.mesh.controller.bench;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.memory.ForwardingInventory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where an execution's rounds spend their time: the inventory, the transport and the events an {@code Execution}
 * is given, each call timed. A round starts at its first read ({@link #nodes()}) and ends at its last
 * ({@link #unsentBuilds()}, or a build recorded as sent after it); within it, the time to the first
 * {@link #desire} is the reading and planning, and every desire, delivery (publish and confirm), delivery record
 * and event is summed.
 *
 * <p>Thread-safe: the execution runs one round at a time; the finished rounds are kept under this object's
 * monitor.
 */
final class RoundTimes extends ForwardingInventory {

    /**
     * One round, {@link System#nanoTime()}s and durations in nanoseconds.
     *
     * @param firstDesire when the first declaration was desired, or 0 for none
     */
    record Round(long start, long firstDesire, long end, long desire, long deliver, long delivered, long events,
            int deliveries) {

        /** @return the row of {@link #header()}, times from {@code since} */
        String row(long since) {
            long planned = (firstDesire == 0 ? end : firstDesire) - start;
            long other = end - start - planned - desire - deliver - delivered - events;
            return String.format(Locale.ROOT, "| %.0f | %,d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |",
                    (start - since) / 1e6, deliveries, planned / 1e6, desire / 1e6, deliver / 1e6, delivered / 1e6,
                    events / 1e6, other / 1e6, (end - start) / 1e6);
        }
    }

    private final List<Round> rounds = new ArrayList<>();
    private int ended;
    /** The round in progress: touched by the thread running it alone. */
    private volatile Thread thread;
    private long start;
    private long firstDesire;
    private long desire;
    private long deliver;
    private long delivered;
    private long events;
    private int deliveries;

    RoundTimes(Inventory inventory) {
        super(inventory);
    }

    static String header() {
        return "| starts (ms after the reply) | deliveries | reading and planning | desire | publish + confirm | "
                + "delivered | events | other | round |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
    }

    /** @return the transport, each delivery timed within its round */
    Deliveries deliveries(Deliveries transport) {
        return new Deliveries() {
            @Override
            public void deliver(Declaration declaration, long epoch) {
                long begin = System.nanoTime();
                try {
                    transport.deliver(declaration, epoch);
                } finally {
                    if (inRound()) {
                        deliver += System.nanoTime() - begin;
                        deliveries++;
                    }
                }
            }

            @Override
            public void prepare(String node) {
                transport.prepare(node);
            }
        };
    }

    /** @return the events, each one told within a round timed */
    Events events(Events told) {
        return (kind, payload) -> {
            long begin = System.nanoTime();
            told.publish(kind, payload);
            if (inRound()) {
                events += System.nanoTime() - begin;
            }
        };
    }

    private boolean inRound() {
        return Thread.currentThread() == thread;
    }

    /** Forgets the rounds finished so far (not their count). */
    synchronized void clear() {
        rounds.clear();
    }

    /** @return the rounds finished since {@link #clear()} */
    synchronized List<Round> rounds() {
        return List.copyOf(rounds);
    }

    /** @return how many rounds have finished since this was made */
    synchronized int ended() {
        return ended;
    }

    /** Waits until {@code count} rounds have finished since this was made. */
    synchronized void awaitEnded(int count, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (ended < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no round finished within " + wait);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** @return the first round since {@link #clear()} that made at least {@code deliveries} deliveries */
    synchronized Round awaitRound(int deliveries, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            for (Round round : rounds) {
                if (round.deliveries() >= deliveries) {
                    return round;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no round delivered to " + deliveries + " nodes within " + wait);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    @Override
    public List<Node> nodes() {
        thread = Thread.currentThread();
        start = System.nanoTime();
        firstDesire = 0;
        desire = 0;
        deliver = 0;
        delivered = 0;
        events = 0;
        deliveries = 0;
        return super.nodes();
    }

    @Override
    public boolean desire(Declaration declaration) {
        long begin = System.nanoTime();
        if (inRound() && firstDesire == 0) {
            firstDesire = begin;
        }
        try {
            return super.desire(declaration);
        } finally {
            if (inRound()) {
                desire += System.nanoTime() - begin;
            }
        }
    }

    @Override
    public void delivered(Delivery delivery) {
        long begin = System.nanoTime();
        try {
            super.delivered(delivery);
        } finally {
            if (inRound()) {
                delivered += System.nanoTime() - begin;
            }
        }
    }

    @Override
    public Set<String> unsentBuilds() {
        Set<String> unsent = super.unsentBuilds();
        if (inRound()) {
            finish(false);
        }
        return unsent;
    }

    @Override
    public void sent(String buildId, long epoch) {
        super.sent(buildId, epoch);
        if (inRound()) {
            finish(true);
        }
    }

    /** Keeps the round, or moves the end of the one kept last to now ({@code later}: a build sent after it). */
    private synchronized void finish(boolean later) {
        long now = System.nanoTime();
        if (later) {
            if (rounds.isEmpty()) {
                return;
            }
            Round last = rounds.removeLast();
            rounds.add(new Round(last.start(), last.firstDesire(), now, last.desire(), last.deliver(),
                    last.delivered(), last.events(), last.deliveries()));
        } else {
            rounds.add(new Round(start, firstDesire, now, desire, deliver, delivered, events, deliveries));
            ended++;
        }
        notifyAll();
    }
}
