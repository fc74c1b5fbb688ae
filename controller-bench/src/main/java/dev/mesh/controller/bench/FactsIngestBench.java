package dev.mesh.controller.bench;

import dev.mesh.controller.bus.FactsIn;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.system.Loopback;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 12, target 2: the hosts' facts in from NATS ({@link FactsIn}, the controller's subscriber, with
 * its batching writer) into the real PostgreSQL inventory ({@link BenchStore}'s fenced {@code
 * PgInventory}, 10,000 nodes), beside the floor: a NATS subscriber on the same subjects that only parses
 * each message (Jackson's {@code readTree}) and counts it. A publisher in the same process (its own
 * connection, plain jnats) sends what hosts send (docs/design.md section 8): {@code <prefix>mesh.nodes.<node>.facts},
 * 5 to 10 processes each, {@code at} the time of sending, and, as a host's facts do, the processes' {@code checks}
 * one more at each report of the node. {@code --changed PERCENT} (5) of the reports change what a host runs — a new
 * {@code revision}, as when it applied a declaration; the others repeat the node's facts but for their time and
 * checks, which the writer takes as repeats (docs/bus.md, "Facts in from NATS"). {@code --changed 100}: every report
 * changes.
 *
 * <ol>
 *   <li>{@code floor max} — {@code --max} messages (round-robin over the nodes) published as fast as the
 *       publisher goes; the rate is messages over the time from the first publish to the last parsed.</li>
 *   <li>{@code floor burst} / {@code facts burst} — one message from each of the 10,000 nodes at once;
 *       the time until the last is parsed / written, and the counts: nothing lost (received = written =
 *       published), no backlog left, nothing dropped.</li>
 *   <li>{@code facts sustained} — {@code --rate} messages a second (10,000) for {@code --seconds} (30),
 *       paced every 10 ms; the rate written over the window, the slowest second, and how long after the
 *       last publish the last fact was written: repeats are written as sightings every 5 s, so the last up to
 *       that interval after it.</li>
 *   <li>{@code facts max} — as {@code floor max}, into the store: the writer's capacity (drops
 *       {@code backlog} when it falls behind by more than 10,000 facts, which is counted).</li>
 * </ol>
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.bench.FactsIngestBench [--nodes 10000] [--rate 10000]
 *     [--seconds 30] [--max 50000] [--changed 5]
 * </pre>
 */
public final class FactsIngestBench {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** How long {@link #await} waits for a count that stopped moving: beyond the interval of the sightings' writes. */
    private static final Duration STALLED = Facts.INTERVAL.plusSeconds(5);

    private final String prefix;
    private final int nodes;
    private final Connection publisher;
    private final int changedPercent;
    /** Per node: how many reports it sent, and the version of what it runs (its revision). */
    private final int[] reports;
    private final int[] versions;
    private final SplittableRandom random = new SplittableRandom(25);
    private long sent;

    private FactsIngestBench(String prefix, int nodes, Connection publisher, int changedPercent) {
        this.prefix = prefix;
        this.nodes = nodes;
        this.publisher = publisher;
        this.changedPercent = changedPercent;
        this.reports = new int[nodes];
        this.versions = new int[nodes];
    }

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        int nodes = Loopback.option(args, "nodes", 10_000);
        int rate = Loopback.option(args, "rate", 10_000);
        int seconds = Loopback.option(args, "seconds", 30);
        int max = Loopback.option(args, "max", 50_000);
        int changed = Loopback.option(args, "changed", 5);
        if (changed < 0 || changed > 100) {
            throw new IllegalArgumentException("--changed is a percentage of the reports, 0 to 100, not " + changed);
        }
        String prefix = "bench-" + Long.toHexString(System.nanoTime()) + ".";
        try (BenchStore store = BenchStore.create(nodes)) {
            Connection publisher = Nats.connect(options("bench-publisher"));
            try {
                run(store, prefix, nodes, rate, seconds, max, changed, publisher);
            } finally {
                publisher.close();
            }
        }
    }

    /** @return the names a controller knows, as its {@code KnownNodes} holds them: a set of every node's name */
    private static Predicate<String> known(int nodes) {
        Set<String> names = new HashSet<>();
        for (int n = 0; n < nodes; n++) {
            names.add("node-" + n);
        }
        return Set.copyOf(names)::contains;
    }

    private static void run(BenchStore store, String prefix, int nodes, int rate, int seconds, int max, int changed,
            Connection publisher) throws Exception {
        {
            FactsIngestBench bench = new FactsIngestBench(prefix, nodes, publisher, changed);
            System.out.printf(Locale.ROOT, "facts ingest: %,d nodes, NATS %s, subject prefix %s, %d %% of the reports "
                    + "changed%n", nodes, Loopback.NATS_URL, prefix, changed);
            List<String> rows = new ArrayList<>();

            // The floor: parse only.
            Connection floor = Nats.connect(options("bench-floor"));
            try {
                AtomicLong parsed = new AtomicLong();
                Dispatcher dispatcher = floor.createDispatcher(message -> {
                    JsonNode tree = MAPPER.readTree(message.getData());
                    if (tree.isObject()) {
                        parsed.incrementAndGet();
                    }
                });
                dispatcher.subscribe(prefix + "mesh.nodes.*.facts");
                floor.flush(Duration.ofSeconds(5));
                bench.unthrottled(nodes * 2, parsed::get); // warm-up
                rows.add(bench.unthrottledRow("floor max", max, parsed::get, () -> 0));
                rows.add(bench.unthrottledRow("floor burst (" + nodes + " nodes once)", nodes, parsed::get, () -> 0));
            } finally {
                floor.close();
            }

            // The controller's subscriber, into PostgreSQL.
            FactsIn in = FactsIn.start(new dev.mesh.controller.bus.NatsSettings(Loopback.NATS_URL, "",
                    dev.mesh.controller.core.Secret.NONE, prefix), store.inventory(), Clock.systemUTC(),
                    known(nodes));
            try {
                LongSupplier written = () -> in.counts().written();
                bench.unthrottled(nodes, written); // warm-up: every node reported once
                long droppedBefore = dropped(in);
                long receivedBefore = in.counts().received();
                long writtenBefore = in.counts().written();
                rows.add(bench.unthrottledRow("facts burst (" + nodes + " nodes once)", nodes, written, () -> dropped(in)));
                FactsIn.Counts burst = in.counts();
                String burstCounts = String.format(Locale.ROOT,
                        "burst counts: published %,d, received %,d, written %,d, dropped %,d (%s)", nodes,
                        burst.received() - receivedBefore, burst.written() - writtenBefore,
                        dropped(in) - droppedBefore, burst.dropped());
                boolean burstWhole = burst.received() - receivedBefore == nodes
                        && burst.written() - writtenBefore == nodes && dropped(in) == droppedBefore;

                String sustained = bench.sustained(in, rate, seconds);
                rows.add(bench.unthrottledRow("facts max", max, written, () -> dropped(in)));

                System.out.println();
                System.out.println("| run | messages | elapsed (ms) | processed/s | dropped |");
                System.out.println("|---|---:|---:|---:|---:|");
                rows.forEach(System.out::println);
                System.out.println(burstCounts);
                System.out.println("burst of " + nodes + " nodes with nothing lost and no backlog left: "
                        + Loopback.met(burstWhole));
                System.out.println(sustained);
                System.out.println("final counts: " + in.counts());
            } finally {
                in.close();
            }
        }
    }

    private static long dropped(FactsIn in) {
        return in.counts().dropped().values().stream().mapToLong(Long::longValue).sum();
    }

    private static Options options(String name) {
        return new Options.Builder().server(Loopback.NATS_URL).connectionName(name)
                .connectionTimeout(Duration.ofSeconds(5)).build();
    }

    /** Publishes {@code count} messages as fast as it goes and waits until {@code done} counted them all. */
    private void unthrottled(int count, LongSupplier done) throws Exception {
        unthrottledRow("warm-up", count, done, () -> 0);
    }

    /**
     * Publishes {@code count} messages, made beforehand (times a microsecond apart from now), as fast as
     * the publisher goes, and waits until {@code done} counted them all (less what {@code dropped} counted).
     *
     * @return the table row: messages, elapsed from the first publish to the last counted, rate, dropped
     */
    private String unthrottledRow(String name, int count, LongSupplier done, LongSupplier dropped) throws Exception {
        String[] subjects = new String[count];
        byte[][] bodies = new byte[count][];
        Instant base = Instant.now();
        for (int i = 0; i < count; i++) {
            int n = (int) (sent++ % nodes);
            subjects[i] = prefix + "mesh.nodes.node-" + n + ".facts";
            bodies[i] = report(n, base.plusNanos(i * 1_000L));
        }
        long droppedBefore = dropped.getAsLong();
        long target = done.getAsLong() + count;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            publisher.publish(subjects[i], bodies[i]);
        }
        publisher.flush(Duration.ofSeconds(10));
        long end = await(target, done, () -> dropped.getAsLong() - droppedBefore);
        long processed = count - (target - done.getAsLong());
        double elapsedMs = (end - start) / 1e6;
        return String.format(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f | %,d |", name, count, elapsedMs,
                processed / (elapsedMs / 1e3), dropped.getAsLong() - droppedBefore);
    }

    /**
     * Waits until {@code done} reaches {@code target} less what was dropped, or stops moving for {@link #STALLED}.
     *
     * @return when it got there (or last moved)
     */
    private static long await(long target, LongSupplier done, LongSupplier dropped) throws InterruptedException {
        long last = done.getAsLong();
        long moved = System.nanoTime();
        while (done.getAsLong() + dropped.getAsLong() < target) {
            Thread.sleep(1);
            long now = done.getAsLong();
            if (now != last) {
                last = now;
                moved = System.nanoTime();
            } else if (System.nanoTime() - moved > STALLED.toNanos()) {
                return moved;
            }
        }
        return System.nanoTime();
    }

    /** @return the result line of {@code rate} messages a second for {@code seconds} */
    private String sustained(FactsIn in, int rate, int seconds) throws Exception {
        FactsIn.Counts before = in.counts();
        long droppedBefore = dropped(in);
        long start = System.nanoTime();
        long slice = TimeUnit.MILLISECONDS.toNanos(10);
        int perSlice = rate / 100;
        long slowest = Long.MAX_VALUE;
        long secondStart = in.counts().written();
        long published = 0;
        for (int s = 0; s < seconds * 100; s++) {
            for (int i = 0; i < perSlice; i++) {
                publish();
                published++;
            }
            long next = start + (s + 1) * slice;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            if ((s + 1) % 100 == 0) {
                long now = in.counts().written();
                slowest = Math.min(slowest, now - secondStart);
                secondStart = now;
            }
        }
        long publishedAt = System.nanoTime();
        long windowWritten = in.counts().written() - before.written();
        double window = (publishedAt - start) / 1e9;
        publisher.flush(Duration.ofSeconds(10));
        long end = await(before.written() + published, () -> in.counts().written(), () -> dropped(in) - droppedBefore);
        FactsIn.Counts after = in.counts();
        long written = after.written() - before.written();
        double publishRate = published / window;
        double writtenRate = windowWritten / window;
        double throughput = written / ((end - start) / 1e9);
        boolean whole = written == published && dropped(in) == droppedBefore;
        // Kept up: everything offered written, nothing dropped, the last within a second of the last publish — or,
        // repeats being written as sightings once an interval, within that interval and a second.
        long allowed = (changedPercent == 100 ? Duration.ZERO : Facts.INTERVAL).plusSeconds(1).toNanos();
        boolean keptUp = whole && end - publishedAt < allowed;
        return String.format(Locale.ROOT, "sustained: offered %,d/s for %d s (published %,d at %,.0f/s): written %,.0f/s "
                        + "(first publish to last write), during the window %,.0f/s, slowest second %,d, last written %.0f ms after the last publish; received %,d, "
                        + "written %,d (of which unchanged %,d), dropped %,d; target >= %,d facts/s sustained (all written, "
                        + "none dropped, the last within %d ms of the last publish): %s", rate,
                seconds, published, publishRate, throughput, writtenRate, slowest, Math.max(0, end - publishedAt) / 1e6,
                after.received() - before.received(), written, after.unchanged() - before.unchanged(),
                dropped(in) - droppedBefore, rate, allowed / 1_000_000, Loopback.met(keptUp && publishRate >= 0.99 * rate));
    }

    private void publish() {
        int n = (int) (sent++ % nodes);
        publisher.publish(prefix + "mesh.nodes.node-" + n + ".facts", report(n, Instant.now()));
    }

    /**
     * @return node {@code n}'s next report: its checks one more than at its last, and, for {@code --changed} percent
     *     of the reports after its first, a revision of its own
     */
    private byte[] report(int n, Instant at) {
        if (reports[n] > 0 && random.nextInt(100) < changedPercent) {
            versions[n]++;
        }
        return body(n, versions[n], reports[n]++, at);
    }

    private static final String REVISION = "sha256:" + "0123456789abcdef".repeat(3);

    /**
     * @return a host's facts for node {@code n}: 5 to 10 processes, as a host sends them, the revision of the
     *     {@code version} it runs, and its processes' checks {@code checks} more than at its first report
     */
    private static byte[] body(int n, int version, int checks, Instant at) {
        String time = at.toString();
        StringBuilder json = new StringBuilder(900).append("{\"node\":\"node-").append(n).append("\",\"address\":\"10.")
                .append(n >> 16 & 255).append('.').append(n >> 8 & 255).append('.').append(n & 255)
                .append("\",\"system\":\"debian-12\",\"revision\":\"").append(REVISION)
                .append(String.format(Locale.ROOT, "%016x", version)).append("\",\"processes\":[");
        int processes = 5 + n % 6;
        for (int p = 0; p < processes; p++) {
            if (p > 0) {
                json.append(',');
            }
            json.append("{\"name\":\"proc-").append((n + p * 7) % 50).append("\",\"state\":\"running\",\"since\":\"")
                    .append("2026-12-01T08:00:00.000Z").append("\",\"checks\":").append(40 + p + checks).append('}');
        }
        return json.append("],\"at\":\"").append(time).append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
