package dev.mesh.controller.launcher;

import dev.mesh.controller.handover.ControllerLifecycle;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.OneTransaction;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgLicences;
import dev.mesh.controller.store.PgPlanLock;
import dev.mesh.controller.store.PgRequestRecords;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Core's ports on the store: connection pools on the {@code inventory} and {@code licences}
 * databases, the plan lock on a session of its own, the fenced inventory and request records, the
 * licences, and the life cycle that holds the lock while this controller is active. The
 * development controller opens them on its embedded store, {@code serve} on the databases its
 * environment names.
 *
 * @param inventory the record of the mesh; its plan writes check the lock's epoch
 * @param licences the modules' licences
 * @param requests mutating requests' outcomes, fenced like the inventory
 * @param lock the plan lock
 * @param lifecycle the gate in front of plan work, on {@code lock}; starts as standby, and the handover
 *     ({@code serve}) or {@link dev.mesh.controller.handover.KeepActive} (the development controller) moves it
 */
record StorePorts(PgInventory inventory, PgLicences licences, PgRequestRecords requests, PgPlanLock lock,
        ControllerLifecycle lifecycle) {

    /**
     * Opens the ports; what they hold open is closed by {@code closer}, the life cycle released
     * before the lock is closed and the pools after both.
     *
     * @param inventory where the inventory database is
     * @param licences where the licences database is
     * @param instance this controller's id, recorded as the plan lock's holder
     * @param clock what the life cycle reads {@code since} from
     * @param closer what closes them, in reverse order
     * @return the ports
     * @throws dev.mesh.controller.store.StoreException when a pool cannot connect
     */
    static StorePorts open(Endpoint inventory, Endpoint licences, String instance, Clock clock, Closer closer) {
        return open(inventory, licences, instance, Optional.empty(), clock, closer);
    }

    /**
     * As {@link #open(Endpoint, Endpoint, String, Clock, Closer)}, the plan lock with a lease
     * ({@link PgPlanLock#withLease}) when one is given: the mesh's controller, which a standby must be
     * able to take over from when it is frozen.
     */
    static StorePorts open(Endpoint inventory, Endpoint licences, String instance, Optional<Duration> lease,
            Clock clock, Closer closer) {
        ConnectionPool inventoryPool = closer.open(ConnectionPool.open(inventory, 8));
        ConnectionPool licencesPool = closer.open(ConnectionPool.open(licences, 2));
        // One data source for the inventory, the records and the lock's reads: a mutating request's changes
        // and its record are then one transaction (RequestRecords.atomically).
        OneTransaction inventoryData = OneTransaction.over(inventoryPool.dataSource());
        PgPlanLock unleased = PgPlanLock.of(inventory, inventoryData, instance, PgPlanLock.DEFAULT_WAIT);
        PgPlanLock lock = closer.open(lease.map(unleased::withLease).orElse(unleased));
        ControllerLifecycle lifecycle = closer.open(ControllerLifecycle.standby(lock, instance, clock));
        return new StorePorts(PgInventory.fenced(inventoryData, lock), new PgLicences(licencesPool.dataSource()),
                PgRequestRecords.fenced(inventoryData, lock), lock, lifecycle);
    }
}
