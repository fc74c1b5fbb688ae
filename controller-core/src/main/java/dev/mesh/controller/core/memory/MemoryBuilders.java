package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link Builders} kept in memory, in order, for offline use and tests: refuses what the bus will
 * refuse, and sends nowhere. Thread-safe: every method holds the instance's monitor.
 */
public final class MemoryBuilders implements Builders {

    /**
     * One build order sent.
     *
     * @param order what was to be built
     * @param epoch the epoch it carried
     */
    public record Requested(BuildOrder order, long epoch) {
        /** Checks the parts. */
        public Requested {
            Objects.requireNonNull(order, "order");
        }
    }

    private final List<Requested> requested = new ArrayList<>();

    /**
     * {@inheritDoc}
     *
     * <p>Never fails but for the arguments.
     */
    @Override
    public synchronized void request(BuildOrder order, long epoch) {
        Objects.requireNonNull(order, "order");
        if (epoch < 1) {
            throw new IllegalArgumentException("a build order carries the epoch of the plan lock taken, at least 1, "
                    + "not " + epoch);
        }
        requested.add(new Requested(order, epoch));
    }

    /** @return every build order sent so far, in order */
    public synchronized List<Requested> requested() {
        return List.copyOf(requested);
    }
}
