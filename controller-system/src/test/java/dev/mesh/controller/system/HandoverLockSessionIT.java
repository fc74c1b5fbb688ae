package dev.mesh.controller.system;

import dev.mesh.controller.system.HandoverDriver.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link HandoverDriverIT}'s scenario of the active controller's lock session terminated by PostgreSQL, in a class
 * of its own so that Failsafe runs it after the upgrade's driver while the other scenarios run beside them: the
 * same load, the same assertions (that class says why it is apart).
 */
class HandoverLockSessionIT {

    private static final List<Outcome> OUTCOMES = new ArrayList<>();

    @AfterAll
    static void table() {
        System.out.println(HandoverDriver.table(OUTCOMES, 50));
    }

    @Test
    void theLockSessionTerminated_byPostgres() throws Exception {
        HandoverDriverIT.assertSafe(HandoverDriverIT.run("terminate-lock", 1, OUTCOMES));
    }
}
