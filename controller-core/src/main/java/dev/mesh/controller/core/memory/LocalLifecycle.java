package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Lifecycle;
import java.time.Clock;

/** The life cycle of a controller alone, for tests and benchmarks: on a lock of its own, already active. */
public final class LocalLifecycle {

    private LocalLifecycle() {
    }

    /** @return an active life cycle on a new {@link LocalPlanLock}, epoch 1 */
    public static Lifecycle active() {
        Lifecycle lifecycle = Lifecycle.standby(LocalPlanLock.create(), "local", Clock.systemUTC());
        lifecycle.activate();
        return lifecycle;
    }
}
