package dev.mesh.controller.manifest;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of resolving a {@link Template}: its value with provenance, or the problems that
 * stopped it. Never an empty string standing in for a reference that could not be resolved.
 */
public sealed interface Resolution permits Resolution.Resolved, Resolution.Unresolved {

    /**
     * Every reference resolved.
     *
     * @param value the resolved string
     * @param provenance one entry per reference, in order
     */
    record Resolved(String value, List<Provenance> provenance) implements Resolution {
        /** Checks and copies the parts. */
        public Resolved {
            Objects.requireNonNull(value, "value");
            provenance = List.copyOf(provenance);
        }
    }

    /**
     * At least one reference could not be resolved.
     *
     * @param problems one per unresolved reference, never empty
     */
    record Unresolved(List<Problem> problems) implements Resolution {
        /** Checks and copies the problems. */
        public Unresolved {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("an unresolved template has at least one problem");
            }
        }
    }
}
