package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link Deliveries} kept in memory, in order, for offline use and tests: refuses what the bus will
 * refuse, and sends nowhere. Thread-safe: every method holds the instance's monitor.
 */
public final class MemoryDeliveries implements Deliveries {

    /**
     * One delivery.
     *
     * @param declaration the declaration delivered
     * @param epoch the epoch it carried
     */
    public record Delivered(Declaration declaration, long epoch) {
        /** Checks the parts. */
        public Delivered {
            Objects.requireNonNull(declaration, "declaration");
        }
    }

    private final List<Delivered> delivered = new ArrayList<>();
    private final List<String> prepared = new ArrayList<>();

    /**
     * {@inheritDoc}
     *
     * <p>Never fails but for the arguments.
     */
    @Override
    public synchronized void deliver(Declaration declaration, long epoch) {
        if (declaration.revision().isEmpty()) {
            throw new IllegalArgumentException("the declaration of node " + declaration.node()
                    + " has no revision; deliver a composed declaration");
        }
        if (epoch < 1) {
            throw new IllegalArgumentException("a delivery carries the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
        delivered.add(new Delivered(declaration, epoch));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Keeps the node's name, in order, every time.
     */
    @Override
    public synchronized void prepare(String node) {
        if (node.isBlank()) {
            throw new IllegalArgumentException("a node to prepare needs a name, not a blank one");
        }
        prepared.add(node);
    }

    /** @return the nodes prepared so far, in order, as often as each was */
    public synchronized List<String> prepared() {
        return List.copyOf(prepared);
    }

    /** @return every delivery so far, in order */
    public synchronized List<Delivered> delivered() {
        return List.copyOf(delivered);
    }
}
