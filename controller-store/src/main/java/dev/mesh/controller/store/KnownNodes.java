package dev.mesh.controller.store;

import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Node;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which node names may announce facts (docs/security.md): an enabled principal of the identity store — a node's
 * broker user is named like it, set up by the operator or genesis — or a node the inventory already holds (from
 * genesis, the mesh file, or earlier facts). Any other name's facts are dropped by {@code FactsIn}: 300 made-up
 * names make no node and no queue. The names are read at the start and again every {@link #EVERY}, and at most
 * once a second when an unknown name is asked about, so a principal just granted is known by its node's next facts.
 * A read that fails keeps the names of the last; the first failing leaves none known until one succeeds.
 *
 * <p>Thread-safe.
 */
public final class KnownNodes implements Predicate<String>, AutoCloseable {

    /** How often the names are read again. */
    public static final Duration EVERY = Duration.ofSeconds(5);
    private static final long MISS_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final Logger LOG = LoggerFactory.getLogger(KnownNodes.class);

    private final PgIdentity identity;
    private final Inventory inventory;
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("mesh-known-nodes").daemon().factory());
    private final AtomicBoolean asked = new AtomicBoolean();
    private volatile Set<String> names = Set.of();
    private volatile long readAt = System.nanoTime() - MISS_REFRESH_NANOS;
    /** Whether the last read failed; the reader's own. */
    private boolean failing;

    private KnownNodes(PgIdentity identity, Inventory inventory) {
        this.identity = identity;
        this.inventory = inventory;
    }

    /**
     * Reads the names once now, then every {@link #EVERY}.
     *
     * @param identity the identity store, whose enabled principals are known
     * @param inventory the inventory, whose nodes are known
     * @return the names, until closed
     */
    public static KnownNodes start(PgIdentity identity, Inventory inventory) {
        KnownNodes known = new KnownNodes(identity, inventory);
        known.read();
        known.reader.scheduleWithFixedDelay(known::read, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return known;
    }

    @Override
    public boolean test(String node) {
        if (names.contains(node)) {
            return true;
        }
        if (System.nanoTime() - readAt >= MISS_REFRESH_NANOS && asked.compareAndSet(false, true)) {
            reader.execute(() -> {
                asked.set(false);
                read();
            });
        }
        return false;
    }

    private void read() {
        try {
            Set<String> now = new HashSet<>(identity.enabled().keySet());
            for (Node node : inventory.nodes()) {
                now.add(node.name());
            }
            names = Set.copyOf(now);
            readAt = System.nanoTime();
            if (failing) {
                LOG.info("known nodes read again names={}", now.size());
            }
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("known nodes not read reason=\"{}\"; facts of a name not known before are dropped until "
                        + "they are", e.getMessage());
            }
            failing = true;
        }
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
