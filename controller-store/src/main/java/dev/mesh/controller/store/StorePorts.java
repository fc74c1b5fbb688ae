package dev.mesh.controller.store;

import dev.mesh.controller.core.Closer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Core's ports on the store, open: connection pools on the {@code inventory} and {@code licences} databases,
 * the plan lock on a session of its own, and the inventory and request records fenced by that lock's epoch.
 * The development controller opens them on its embedded store, {@code serve} on the databases its environment
 * names ({@link Stores}); whoever opens them puts its life cycle on {@link #lock()}.
 *
 * <p>{@link #close()} closes the lock, then the pools. Thread-safe.
 */
public final class StorePorts implements AutoCloseable {

    private final PgInventory inventory;
    private final PgLicences licences;
    private final PgRequestRecords requests;
    private final PgPlanLock lock;
    private final Closer opened;

    private StorePorts(PgInventory inventory, PgLicences licences, PgRequestRecords requests, PgPlanLock lock,
            Closer opened) {
        this.inventory = inventory;
        this.licences = licences;
        this.requests = requests;
        this.lock = lock;
        this.opened = opened;
    }

    /**
     * Opens the ports, the plan lock without a lease: a controller alone on its store.
     *
     * @param inventory where the inventory database is
     * @param licences where the licences database is
     * @param instance this controller's id, recorded as the plan lock's holder
     * @return the ports
     * @throws StoreException when a pool cannot connect; what was opened is closed again
     */
    public static StorePorts open(Endpoint inventory, Endpoint licences, String instance) {
        return open(inventory, licences, instance, Optional.empty());
    }

    /**
     * Opens the ports, the plan lock with a lease ({@link PgPlanLock#withLease}) when one is given: the mesh's
     * controller, which a standby must be able to take over from when it is frozen.
     *
     * @param inventory where the inventory database is
     * @param licences where the licences database is
     * @param instance this controller's id, recorded as the plan lock's holder
     * @param lease how long the lock's lease lasts without a renewal; empty for none
     * @return the ports
     * @throws StoreException when a pool cannot connect; what was opened is closed again
     */
    public static StorePorts open(Endpoint inventory, Endpoint licences, String instance, Optional<Duration> lease) {
        Objects.requireNonNull(lease, "lease");
        Closer opened = new Closer();
        try {
            ConnectionPool inventoryPool = opened.open(ConnectionPool.open(inventory, 8));
            ConnectionPool licencesPool = opened.open(ConnectionPool.open(licences, 2));
            // One data source for the inventory, the records and the lock's reads: a mutating request's changes
            // and its record are then one transaction (RequestRecords.atomically).
            OneTransaction inventoryData = OneTransaction.over(inventoryPool.dataSource());
            PgPlanLock unleased = PgPlanLock.of(inventory, inventoryData, instance, PgPlanLock.DEFAULT_WAIT);
            PgPlanLock lock = opened.open(lease.map(unleased::withLease).orElse(unleased));
            return new StorePorts(PgInventory.fenced(inventoryData, lock), new PgLicences(licencesPool.dataSource()),
                    PgRequestRecords.fenced(inventoryData, lock), lock, opened);
        } catch (RuntimeException e) {
            opened.closeAll().forEach(e::addSuppressed);
            throw e;
        }
    }

    /** @return the record of the mesh; its plan writes check the lock's epoch */
    public PgInventory inventory() {
        return inventory;
    }

    /** @return the modules' licences */
    public PgLicences licences() {
        return licences;
    }

    /** @return mutating requests' outcomes, fenced like the inventory */
    public PgRequestRecords requests() {
        return requests;
    }

    /** @return the plan lock */
    public PgPlanLock lock() {
        return lock;
    }

    /**
     * Closes the lock, then the pools, going on past failures.
     *
     * @throws StoreException when something did not close, the first failure its cause
     */
    @Override
    public void close() {
        Closer.throwIfAny(opened.closeAll(), (first, cause) -> new StoreException("the store's connections did not "
                + "close cleanly: " + first, cause));
    }
}
