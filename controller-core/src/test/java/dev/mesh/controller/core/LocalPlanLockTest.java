package dev.mesh.controller.core;

import dev.mesh.controller.core.memory.LocalPlanLock;
import java.time.Clock;

/** {@link LocalPlanLock} passes the plan lock's contract. */
class LocalPlanLockTest extends PlanLockContract {

    private LocalPlanLock.Leadership leadership;

    @Override
    protected PlanLock newLock() {
        leadership = new LocalPlanLock.Leadership();
        return LocalPlanLock.sharing(leadership, "ctl-a", Clock.systemUTC());
    }

    @Override
    protected PlanLock rival() {
        return LocalPlanLock.sharing(leadership, "ctl-b", Clock.systemUTC());
    }

    @Override
    protected void crash(PlanLock lock) {
        ((LocalPlanLock) lock).lose();
    }
}
