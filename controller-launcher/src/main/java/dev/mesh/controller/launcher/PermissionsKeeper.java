package dev.mesh.controller.launcher;

import dev.mesh.controller.bus.BrokerPermissions;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.store.PgIdentity;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the broker's permissions true while this controller is active (docs/security.md): at each activation and
 * every {@link #EVERY}, the enabled principals of the identity store and the inventory's nodes make what each may
 * do ({@link BrokerPermissions#desired}), and {@link BrokerPermissions#reconcile} makes the broker say so. A grant,
 * a revoke or a drift by hand is undone within one period; a node the controller comes to know gets its host's
 * permissions at once ({@link #deliveries}: when its queue is declared). A round that fails (the management API
 * or the store out of reach) is logged once, at WARN, until one succeeds again; a standby does nothing.
 */
final class PermissionsKeeper implements AutoCloseable {

    /** How often the active controller makes the broker's permissions true again. */
    static final Duration EVERY = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(PermissionsKeeper.class);

    private final BrokerPermissions permissions;
    private final PgIdentity identity;
    private final Inventory inventory;
    private final Lifecycle lifecycle;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("mesh-permissions").daemon().factory());
    private final AtomicBoolean asked = new AtomicBoolean();
    /** Whether the last round failed; the scheduler's own. */
    private boolean failing;

    private PermissionsKeeper(BrokerPermissions permissions, PgIdentity identity, Inventory inventory,
            Lifecycle lifecycle) {
        this.permissions = permissions;
        this.identity = identity;
        this.inventory = inventory;
        this.lifecycle = lifecycle;
    }

    /** Starts the rounds: the first after one period, or at the next {@link #activated()}. */
    static PermissionsKeeper start(BrokerPermissions permissions, PgIdentity identity, Inventory inventory,
            Lifecycle lifecycle) {
        PermissionsKeeper keeper = new PermissionsKeeper(permissions, identity, inventory, lifecycle);
        keeper.scheduler.scheduleWithFixedDelay(keeper::round, EVERY.toMillis(), EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        return keeper;
    }

    /** This controller became active: a round at once, beside the periodic ones. */
    void activated() {
        soon();
    }

    /** A round as soon as the one under way (if any) ends; rounds asked for meanwhile are one. */
    private void soon() {
        if (asked.compareAndSet(false, true)) {
            scheduler.execute(() -> {
                asked.set(false);
                round();
            });
        }
    }

    /**
     * @param deliveries the broker's deliveries
     * @return them, with a round asked for whenever a node's queue is prepared: a node just known gets its host's
     *     permissions before its first declaration
     */
    Deliveries deliveries(Deliveries deliveries) {
        return new Deliveries() {
            @Override
            public void deliver(Declaration declaration, long epoch) {
                deliveries.deliver(declaration, epoch);
            }

            @Override
            public void prepare(String node) {
                deliveries.prepare(node);
                soon();
            }
        };
    }

    private void round() {
        if (lifecycle.status().role() != Role.ACTIVE) {
            return;
        }
        try {
            Map<String, Set<String>> grants = identity.enabled();
            Set<String> nodes = inventory.nodes().stream().map(Node::name).collect(Collectors.toSet());
            BrokerPermissions.Changes changes = permissions.reconcile(BrokerPermissions.desired(grants, nodes));
            if (failing) {
                LOG.info("broker permissions kept again principals={} set={} cleared={}", grants.size(),
                        changes.set().size(), changes.cleared().size());
            }
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("broker permissions not kept reason=\"{}\"; trying again every {} s", e.getMessage(),
                        EVERY.toSeconds());
            }
            failing = true;
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
