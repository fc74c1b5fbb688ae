package dev.mesh.controller.core;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Per module, on how many nodes it may be assigned and until when (docs/design.md section 9). A port:
 * the store implements it on the {@code licences} database, {@code MemoryLicences} in memory. A
 * module without a licence is not limited.
 *
 * <p>Implementations are thread-safe.
 */
public interface Licences {

    /** No module has a licence: nothing is limited. */
    Licences NONE = module -> Optional.empty();

    /**
     * @param module a module's name
     * @return its licence, or empty when it has none
     */
    Optional<Licence> licence(String module);

    /**
     * A module's licence.
     *
     * @param module the module
     * @param nodes on how many nodes it may be assigned at once, 0 or more
     * @param expires the instant from which it may no longer be assigned
     */
    record Licence(String module, int nodes, Instant expires) {

        /** Checks the parts. */
        public Licence {
            Objects.requireNonNull(module, "module");
            Objects.requireNonNull(expires, "expires");
            if (nodes < 0) {
                throw new IllegalArgumentException("a licence's node count is 0 or more, got " + nodes);
            }
        }
    }
}
