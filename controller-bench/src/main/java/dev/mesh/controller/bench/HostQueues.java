package dev.mesh.controller.bench;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.mesh.controller.bus.Topology;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Every node's host, as far as its queue goes: one consumer on each {@code mesh-host.<node>} (plain
 * {@code amqp-client}, automatic acknowledgement, spread over a few channels), noting for each node
 * how many messages came since {@link #expect}, when the first of them came ({@link System#nanoTime()} in the
 * consumer's callback) and its body and {@code revision} and {@code epoch} headers.
 *
 * <p>A node's consumer runs on its channel's thread alone, so each node's slots have one writer; they are read
 * after {@link #await} returned {@code true} (the latch orders the writes before the reads).
 */
final class HostQueues implements AutoCloseable {

    private final Connection connection;
    private final List<String> nodes;
    private final List<Channel> channels = new ArrayList<>();
    private volatile Phase phase;

    /** What came to the queues since one {@link #expect}. */
    private static final class Phase {
        final CountDownLatch first;
        final AtomicIntegerArray counts;
        final long[] arrived;
        final byte[][] bodies;
        final String[] revisions;
        final long[] epochs;

        Phase(int nodes) {
            first = new CountDownLatch(nodes);
            counts = new AtomicIntegerArray(nodes);
            arrived = new long[nodes];
            bodies = new byte[nodes][];
            revisions = new String[nodes];
            epochs = new long[nodes];
        }
    }

    private HostQueues(Connection connection, List<String> nodes) {
        this.connection = connection;
        this.nodes = List.copyOf(nodes);
        this.phase = new Phase(nodes.size());
    }

    /**
     * @param connection the hosts' connection, closed by {@link #close()}
     * @param nodes the nodes' names
     * @return the hosts, consuming nothing yet
     */
    static HostQueues of(Connection connection, List<String> nodes) {
        return new HostQueues(connection, nodes);
    }

    /**
     * Consumes every node's queue, which must exist, expecting a first phase.
     *
     * @param over over how many channels the consumers are spread
     */
    void consume(int over) throws IOException {
        for (int c = 0; c < over; c++) {
            channels.add(connection.createChannel());
        }
        for (int i = 0; i < nodes.size(); i++) {
            int node = i;
            channels.get(i % over).basicConsume(Topology.HOST_QUEUE_PREFIX + nodes.get(i), true,
                    (tag, delivery) -> arrived(node, delivery), tag -> { });
        }
    }

    /**
     * Deletes every node's queue, one at a time, on a channel of {@code on}; a queue that is not there is no
     * failure.
     */
    void delete(Connection on) throws IOException {
        connection.abort();
        long start = System.nanoTime();
        try (Channel channel = on.createChannel()) {
            for (String node : nodes) {
                channel.queueDelete(Topology.HOST_QUEUE_PREFIX + node);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("closing the channel that deleted the hosts' queues timed out", e);
        }
        System.out.printf(java.util.Locale.ROOT, "%,d host queues deleted in %.1f s%n", nodes.size(),
                (System.nanoTime() - start) / 1e9);
    }

    private void arrived(int node, com.rabbitmq.client.Delivery delivery) {
        long now = System.nanoTime();
        Phase current = phase;
        if (current.counts.getAndIncrement(node) == 0) {
            current.arrived[node] = now;
            current.bodies[node] = delivery.getBody();
            Map<String, Object> headers = delivery.getProperties().getHeaders();
            current.revisions[node] = headers == null ? null : String.valueOf(headers.get("revision"));
            Object epoch = headers == null ? null : headers.get("epoch");
            current.epochs[node] = epoch instanceof Number number ? number.longValue() : -1;
            current.first.countDown();
        }
    }

    /** Starts counting afresh: what came before is forgotten. */
    void expect() {
        phase = new Phase(nodes.size());
    }

    /** @return whether every node's queue had a message within {@code wait} */
    boolean await(Duration wait) throws InterruptedException {
        return phase.first.await(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** @return how many nodes have had no message yet */
    long missing() {
        return phase.first.getCount();
    }

    /**
     * Checks that every node had exactly one message since {@link #expect}.
     *
     * @param what the phase, for the message
     * @throws IllegalStateException naming the first nodes that had none or more than one
     */
    void requireExactlyOne(String what) {
        List<String> wrong = new ArrayList<>();
        Phase current = phase;
        for (int i = 0; i < nodes.size(); i++) {
            int count = current.counts.get(i);
            if (count != 1) {
                wrong.add(nodes.get(i) + " had " + count);
            }
        }
        if (!wrong.isEmpty()) {
            throw new IllegalStateException(what + ": " + wrong.size() + " node(s) did not have exactly one message "
                    + "on their queue: " + String.join(", ", wrong.subList(0, Math.min(10, wrong.size()))));
        }
    }

    /** @return when each node's first message came, in {@link System#nanoTime()}, in node order */
    long[] arrivals() {
        return phase.arrived.clone();
    }

    /** @return the last first arrival: when the last node had its message */
    long last() {
        long last = Long.MIN_VALUE;
        for (long at : phase.arrived) {
            last = Math.max(last, at);
        }
        return last;
    }

    byte[] body(int node) {
        return phase.bodies[node];
    }

    String revision(int node) {
        return phase.revisions[node];
    }

    long epoch(int node) {
        return phase.epochs[node];
    }

    List<String> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        connection.abort();
    }
}
