package dev.mesh.controller.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * That a node was sent a declaration: which revision, under which fencing epoch and when (docs/design.md
 * section 8: recorded in the store, so a successor neither skips nor repeats a delivery).
 *
 * @param node the node delivered to
 * @param revision the revision of the declaration sent
 * @param epoch the fencing epoch the sender held
 * @param at when the transport confirmed it
 */
public record Delivery(String node, String revision, long epoch, Instant at) {

    /** Checks the parts; keeps microseconds, as the store does. */
    public Delivery {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MICROS);
        if (node.isEmpty() || revision.isEmpty()) {
            throw new IllegalArgumentException("a delivery names its node and revision; got node \"" + node
                    + "\" and revision \"" + revision + "\"");
        }
        if (epoch < 1) {
            throw new IllegalArgumentException("a delivery carries the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
    }
}
