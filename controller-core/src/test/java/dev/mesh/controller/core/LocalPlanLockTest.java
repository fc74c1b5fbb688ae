package dev.mesh.controller.core;

/** {@link LocalPlanLock} passes the plan lock's contract. */
class LocalPlanLockTest extends PlanLockContract {

    @Override
    protected PlanLock newLock() {
        return new LocalPlanLock();
    }
}
