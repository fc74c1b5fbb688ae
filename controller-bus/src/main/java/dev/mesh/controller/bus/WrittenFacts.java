package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.ProcessState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the facts writer remembers of each node (docs/bus.md, "Facts in from NATS"): a digest of the facts it last
 * wrote whole, their time, and the latest time the node was heard from since with facts that repeat them — a
 * sighting not written yet. Facts that {@linkplain #repeats repeat} the written ones are not written again: only
 * their time is, in bulk ({@link #sightings()}). Anything else is written whole: a node's first facts since the
 * controller started, facts that changed, facts of a node that comes back from silence, and, so that the store's copy
 * of the facts is put right whatever happened to it (a failover that lost a write, a tool's {@code report(Node)}), a
 * node's facts once their time passed the last written by its {@linkplain #refreshAfter refresh} (30 to 60 s).
 *
 * <p>What "repeat" compares — the digest's input — is what the controller acts on: the address, the system, the
 * revision, and each process's name, state, {@code since} and its checks counted up to
 * {@link ProcessState#HEALTHY_CHECKS} (whether it is healthy, and how far from it). A count of checks beyond that only
 * grows while nothing changes; it is written with the refresh. The digest is SHA-256's first 128 bits: a node's
 * remembered facts take about 150 bytes, not the facts.
 *
 * <p>Thread-safe: NATS's dispatcher asks {@link #repeats} of every fact as it comes, so that repeats never wait in
 * the writer's queue behind a write; the writer's thread tells what it wrote or dropped. Every method holds the
 * instance's monitor.
 */
final class WrittenFacts {

    /** At most this long, in the facts' own time, between two whole writes of a node's facts; at least half of it. */
    static final Duration REFRESH = Duration.ofSeconds(60);

    private static final long REFRESH_MICROS = REFRESH.toNanos() / 1_000;
    private static final long SILENCE_MICROS = Facts.SILENCE.toNanos() / 1_000;

    /** One node's memory; times in microseconds since the epoch, {@code 0} for none. */
    private static final class Remembered {
        /** The digest of the facts written whole, or {@code null} while none is known to be what the store holds. */
        private byte[] digest;
        /** The time of the latest facts written whole. */
        private long written;
        /** The latest time the node was heard from, written or not. */
        private long latest;
        /** The sighting not written yet, and how many facts it stands for. */
        private long pending;
        private int pendingFacts;
        /** How many of the node's facts wait to be written whole: while any does, none is a repeat. */
        private int waiting;
    }

    private final Map<String, Remembered> nodes = new HashMap<>();
    private final MessageDigest sha256;

    WrittenFacts() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no SHA-256, which every Java SE platform has", e);
        }
    }

    /**
     * Says whether {@code facts} repeat their node's facts written whole: then they are kept as its sighting, and
     * need no write of their own. Otherwise they are to be written whole, and the writer tells when they were
     * ({@link #written}) or dropped ({@link #dropped}); until then the node's later facts are written whole too, so
     * that facts that change back while these wait are never taken for a repeat.
     *
     * @param facts facts just received
     * @return whether they repeat the node's written facts (and became its sighting)
     */
    synchronized boolean repeats(Facts facts) {
        String name = facts.node().name();
        long at = micros(facts.at());
        Remembered node = nodes.computeIfAbsent(name, n -> new Remembered());
        boolean repeats = node.digest != null && node.waiting == 0
                && at - node.written < refreshAfter(name)
                && at - node.latest <= SILENCE_MICROS
                && Arrays.equals(node.digest, digest(facts));
        node.latest = Math.max(node.latest, at);
        if (repeats) {
            node.pending = Math.max(node.pending, at);
            node.pendingFacts++;
        } else {
            node.digest = null;
            node.waiting++;
        }
        return repeats;
    }

    /**
     * Remembers facts the store took whole, each once {@link #repeats} said it was not a repeat: of each node, the
     * latest, unless facts written before were later (the store kept those, so the digest stays unknown until the
     * next whole write).
     */
    synchronized void written(Collection<Facts> facts) {
        for (Facts one : facts) {
            long at = micros(one.at());
            Remembered node = nodes.computeIfAbsent(one.node().name(), n -> new Remembered());
            if (at >= node.written) {
                node.written = at;
                node.digest = digest(one);
            }
            node.latest = Math.max(node.latest, at);
            node.waiting = Math.max(0, node.waiting - 1);
        }
    }

    /**
     * Forgets facts that were to be written whole and were dropped instead: the node's digest stays unknown, and
     * its next facts are written whole.
     */
    synchronized void dropped(Collection<Facts> facts) {
        for (Facts one : facts) {
            Remembered node = nodes.get(one.node().name());
            if (node != null) {
                node.waiting = Math.max(0, node.waiting - 1);
            }
        }
    }

    /** @return the sightings not written yet, by node name; empty when there are none */
    synchronized Map<String, Instant> sightings() {
        Map<String, Instant> sightings = new HashMap<>();
        nodes.forEach((name, node) -> {
            if (node.pendingFacts > 0) {
                sightings.put(name, Instant.EPOCH.plus(node.pending, ChronoUnit.MICROS));
            }
        });
        return sightings;
    }

    /**
     * Forgets the sightings the store took (those of {@link #sightings()} that did not move since).
     *
     * @return how many facts they stood for
     */
    synchronized long sightingsWritten(Map<String, Instant> sightings) {
        long facts = 0;
        for (Map.Entry<String, Instant> one : sightings.entrySet()) {
            Remembered node = nodes.get(one.getKey());
            if (node != null && node.pendingFacts > 0 && node.pending == micros(one.getValue())) {
                facts += node.pendingFacts;
                node.pending = 0;
                node.pendingFacts = 0;
            }
        }
        return facts;
    }

    /**
     * How long after its last whole write a node's repeated facts are written whole again: between half of
     * {@link #REFRESH} and all of it, by the node's name, so that the nodes a controller first heard from together
     * (all of them, at its start) do not all come due in the same interval.
     */
    static long refreshAfter(String node) {
        return REFRESH_MICROS / 2 + Math.floorMod((long) node.hashCode() * 1_000_003L, REFRESH_MICROS / 2);
    }

    private static long micros(Instant at) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, at);
    }

    private byte[] digest(Facts facts) {
        put(facts.node().address());
        put(facts.node().system());
        put(facts.revision());
        List<ProcessState> processes = facts.processes();
        ByteBuffer numbers = ByteBuffer.allocate(Integer.BYTES + processes.size() * (Long.BYTES + 2 * Integer.BYTES));
        numbers.putInt(processes.size());
        List<String> names = new ArrayList<>(processes.size());
        for (ProcessState process : processes) {
            names.add(process.name());
            numbers.putLong(micros(process.since())).putInt(process.state().ordinal())
                    .putInt(Math.min(process.checks(), ProcessState.HEALTHY_CHECKS));
        }
        names.forEach(this::put);
        sha256.update(numbers.array());
        return Arrays.copyOf(sha256.digest(), 16);
    }

    /** Feeds a string with its length first, so that no two lists of strings feed the same bytes. */
    private void put(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        sha256.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
        sha256.update(bytes);
    }
}
