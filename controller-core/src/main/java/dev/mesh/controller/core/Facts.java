package dev.mesh.controller.core;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a host reports about its node every {@link #INTERVAL} on {@code mesh.nodes.<node>.facts}
 * (docs/design.md section 8): the node itself, the declaration it last applied, its processes, and when.
 * Not to be confused with {@link dev.mesh.controller.manifest.NodeFacts}, what {@code ${node:…}}
 * references resolve to.
 *
 * @param node the node, with the address and system the host reports
 * @param revision the revision of the declaration the host last applied, or {@code ""} when it
 *     applied none (the wire's {@code null})
 * @param processes its processes, as reported, names unique
 * @param at when the host sent them, kept to the microsecond (what the store keeps); the node's
 *     last seen time
 */
public record Facts(Node node, String revision, List<ProcessState> processes, Instant at) {

    /** How often a host reports its facts. */
    public static final Duration INTERVAL = Duration.ofSeconds(5);

    /** A node not heard from for longer than this, three intervals, is {@linkplain #silentAt silent}. */
    public static final Duration SILENCE = INTERVAL.multipliedBy(3);

    /**
     * Checks and copies the parts.
     *
     * @throws IllegalArgumentException when two processes have one name
     */
    public Facts {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        processes = List.copyOf(processes);
        at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MICROS);
        Set<String> names = new HashSet<>();
        for (ProcessState process : processes) {
            if (!names.add(process.name())) {
                throw new IllegalArgumentException("node " + node.name() + " reported process " + process.name()
                        + " twice; a host reports each process once");
            }
        }
    }

    /** @return the revision the host last applied, or empty when it applied none */
    public Optional<String> appliedRevision() {
        return sighting().appliedRevision();
    }

    /** @return when the node was seen, and the revision it had applied */
    public Sighting sighting() {
        return new Sighting(revision, at);
    }

    /**
     * @param now the controller's time
     * @return {@code true} when these facts are more than {@link #SILENCE} older than {@code now}:
     *     the host missed three reports in a row
     * @see Sighting#silentAt(Instant)
     */
    public boolean silentAt(Instant now) {
        return sighting().silentAt(now);
    }
}
