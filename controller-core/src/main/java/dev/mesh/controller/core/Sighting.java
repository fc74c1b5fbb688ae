package dev.mesh.controller.core;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When a node was last heard from and the revision it had applied then: its latest {@link Facts}
 * without its processes, which is all {@code nodes} and {@code status} tell, and much cheaper to
 * read for a whole mesh.
 *
 * @param revision the revision of the declaration the host last applied, or {@code ""} for none
 * @param at when the host sent its latest facts: the node's last seen time
 */
public record Sighting(String revision, Instant at) {

    /** Checks the parts. */
    public Sighting {
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(at, "at");
    }

    /** @return the revision the host last applied, or empty when it applied none */
    public Optional<String> appliedRevision() {
        return revision.isEmpty() ? Optional.empty() : Optional.of(revision);
    }

    /**
     * @param now the controller's time
     * @return {@code true} when the node was last seen more than {@link Facts#SILENCE} before
     *     {@code now}: its host missed three reports in a row
     */
    public boolean silentAt(Instant now) {
        return at.plus(Facts.SILENCE).isBefore(now);
    }
}
