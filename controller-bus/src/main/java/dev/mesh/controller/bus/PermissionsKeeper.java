package dev.mesh.controller.bus;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Role;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the broker's permissions true while this controller is active (docs/security.md): at each activation and
 * every {@link #EVERY}, the enabled principals of the identity store (their grants, as its owner reads them) and the
 * inventory's nodes make what each may
 * do ({@link BrokerPermissions#desired}), and {@link BrokerPermissions#reconcile} makes the broker say so. A grant,
 * a revoke or a drift by hand is undone within one period; a node the controller comes to know gets its host's
 * permissions at once ({@link #deliveries}: when its queue is declared). A round that fails (the management API
 * or the store out of reach) is logged once, at WARN, until one succeeds again; a standby does nothing.
 */
public final class PermissionsKeeper implements AutoCloseable {

    /** How often the active controller makes the broker's permissions true again. */
    public static final Duration EVERY = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(PermissionsKeeper.class);

    private final BrokerPermissions permissions;
    private final Supplier<Map<String, Set<String>>> grants;
    private final Inventory inventory;
    private final Lifecycle lifecycle;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("mesh-permissions").daemon().factory());
    private final AtomicBoolean asked = new AtomicBoolean();
    /** Whether the last round failed; the scheduler's own. */
    private boolean failing;

    private PermissionsKeeper(BrokerPermissions permissions, Supplier<Map<String, Set<String>>> grants,
            Inventory inventory, Lifecycle lifecycle) {
        this.permissions = permissions;
        this.grants = grants;
        this.inventory = inventory;
        this.lifecycle = lifecycle;
    }

    /**
     * Starts the rounds: the first after one period, or at the next {@link #activated()}.
     *
     * @param permissions the broker's permissions, through its management API
     * @param grants the enabled principals and the verbs each is granted, read at each round (the identity
     *     store's)
     * @param inventory the inventory, whose nodes' hosts get their permissions
     * @param lifecycle this controller's life cycle: only the active one keeps them
     * @return the keeper, until closed
     */
    public static PermissionsKeeper start(BrokerPermissions permissions, Supplier<Map<String, Set<String>>> grants,
            Inventory inventory, Lifecycle lifecycle) {
        PermissionsKeeper keeper = new PermissionsKeeper(Objects.requireNonNull(permissions, "permissions"),
                Objects.requireNonNull(grants, "grants"), Objects.requireNonNull(inventory, "inventory"),
                Objects.requireNonNull(lifecycle, "lifecycle"));
        keeper.scheduler.scheduleWithFixedDelay(keeper::round, EVERY.toMillis(), EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        return keeper;
    }

    /** This controller became active: a round at once, beside the periodic ones. */
    public void activated() {
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
    public Deliveries deliveries(Deliveries deliveries) {
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
            Map<String, Set<String>> enabled = grants.get();
            Set<String> nodes = inventory.nodes().stream().map(Node::name).collect(Collectors.toSet());
            BrokerPermissions.Changes changes = permissions.reconcile(BrokerPermissions.desired(enabled, nodes));
            if (failing) {
                LOG.info("broker permissions kept again principals={} set={} cleared={}", enabled.size(),
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
