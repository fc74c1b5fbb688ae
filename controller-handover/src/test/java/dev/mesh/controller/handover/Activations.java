package dev.mesh.controller.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;

/** Activations a test expects to take the lock. */
final class Activations {

    private Activations() {
    }

    /** Activates {@code lifecycle}, publishing on {@code events}, and checks that it took the lock. */
    static Lifecycle.Status taken(ControllerLifecycle lifecycle, Events events) {
        assertThat(lifecycle.activate(events)).as("taking the lock").isInstanceOf(PlanLock.Taken.class);
        return lifecycle.status();
    }

    /** Activates {@code lifecycle}, publishing where no one reads, and checks that it took the lock. */
    static Lifecycle.Status taken(ControllerLifecycle lifecycle) {
        return taken(lifecycle, new MemoryEvents());
    }
}
