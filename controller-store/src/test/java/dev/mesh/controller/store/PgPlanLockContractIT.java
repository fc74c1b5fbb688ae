package dev.mesh.controller.store;

import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.PlanLockContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PgPlanLock} on a fresh inventory database passes core's plan lock contract. */
class PgPlanLockContractIT extends PlanLockContract {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private final List<PgPlanLock> locks = new ArrayList<>();

    @Override
    protected PlanLock newLock() {
        Endpoint inventory = databases.migrated(Database.INVENTORY);
        PgPlanLock lock = PgPlanLock.of(inventory, inventory.dataSource(), "ctl-a", Duration.ofSeconds(5));
        locks.add(lock);
        return lock;
    }

    @AfterEach
    void closeLocks() {
        locks.forEach(PgPlanLock::close);
    }
}
