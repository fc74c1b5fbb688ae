package dev.mesh.controller.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.system.UpgradeDriver.Outcome;
import dev.mesh.controller.system.UpgradeDriver.Step;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The controller upgrading itself through its own plan, with real controller processes of this build's
 * bundle and of the same raised to the next version, on the local PostgreSQL, RabbitMQ and NATS, under
 * the handover driver's load (50 verbs/s here; the benchmark's 200 are docs/benchmarks.md's): the move
 * from the container it replaces, the upgrade, the rollback, a version that cannot start, and the way
 * back. It fails when a request is lost, an effect is doubled, two controllers share an epoch, a step
 * does not end with its version active and the plan empty, or the failed version moves the lock. The
 * gaps are printed, not asserted: a loaded CI machine is no place to time them. The raised bundle's
 * ahead-of-time caches are not trained here (version 2 starts without one): the upgrade is the same, and the
 * training is half a minute of CI's time; the benchmark ({@code bin/dev lab upgrade}) trains them.
 */
class UpgradeDriverIT {

    @Test
    void upgrade_rollback_andAFailedUpgrade_loseNothing() throws Exception {
        Outcome outcome = UpgradeDriver.run(new UpgradeDriver.Options(50, 10, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Path.of(System.getProperty("mesh.bundle",
                        "../controller-launcher/target/mesh-controller/mesh-controller")), false));
        UpgradeDriver.print(outcome);

        var verdict = outcome.verdict();
        assertThat(outcome.problems()).as("what went wrong in the steps").isEmpty();
        Safety.assertNothingLostOrDoubled(verdict);
        assertThat(outcome.versionsStored()).as("pushed versions stored, one per push answered as done")
                .isEqualTo(outcome.pushesAcknowledged());
        assertThat(outcome.steps()).extracting(Step::name).containsExactly("move", "upgrade", "rollback", "failed",
                "again");
        assertThat(outcome.steps().get(1).milestones()).as("the upgrade was built, delivered, run, made active")
                .containsKeys("built", "delivered", "running", "active", "applied");
        assertThat(outcome.steps().get(3).outcome()).startsWith("failed as it must");
        assertThat(outcome.exits()).as("the container, version 1, version 2: each stopped with SIGTERM, exit 0")
                .containsExactly("server container exit=0", "mesh-controller 1 exit=0", "mesh-controller 2 exit=0");
        assertThat(outcome.handovers()).as("first, then the move, the upgrade and the rollback, each planned")
                .hasSize(4).allSatisfy(h -> assertThat(h).containsAnyOf(" first ", " planned "));
    }
}
