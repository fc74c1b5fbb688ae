package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Licences;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Licences} in memory, for offline use and tests. Thread-safe. */
public final class MemoryLicences implements Licences {

    private final Map<String, Licence> licences = new ConcurrentHashMap<>();

    /**
     * Grants or replaces a module's licence.
     *
     * @param module the module
     * @param nodes on how many nodes it may be assigned
     * @param expires from when it may no longer be assigned, kept to the microsecond (rounded)
     */
    public void grant(String module, int nodes, Instant expires) {
        // As the store keeps it: PostgreSQL's timestamptz holds microseconds, rounding the rest.
        Instant kept = expires.plusNanos(500).truncatedTo(ChronoUnit.MICROS);
        licences.put(module, new Licence(module, nodes, kept));
    }

    /** Removes a module's licence: it is no longer limited. */
    public void revoke(String module) {
        licences.remove(module);
    }

    @Override
    public Optional<Licence> licence(String module) {
        return Optional.ofNullable(licences.get(module));
    }
}
