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
    private Endpoint inventory;

    @Override
    protected PlanLock newLock() {
        inventory = databases.migrated(Database.INVENTORY);
        return lock("ctl-a", Duration.ofSeconds(5));
    }

    @Override
    protected PlanLock rival() {
        return lock("ctl-b", Duration.ofMillis(200));
    }

    @Override
    protected void crash(PlanLock lock) {
        databases.terminate(((PgPlanLock) lock).sessionPid().orElseThrow());
    }

    private PgPlanLock lock(String holder, Duration wait) {
        PgPlanLock lock = PgPlanLock.of(inventory, inventory.dataSource(), holder, wait);
        locks.add(lock);
        return lock;
    }

    @AfterEach
    void closeLocks() {
        locks.forEach(PgPlanLock::close);
    }
}
