package dev.mesh.controller.core.execute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Report;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a node's delivery waits for, on a plan made by hand. */
class RolloutTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Node STORE = new Node("store", "10.0.0.1", "debian-12");

    private static Plan plan(String... requires) {
        return new Plan(Plan.FORMAT, Map.of(), List.of(new Plan.Change("app/process:app", "app", List.of("start"),
                "new", List.of(requires)), new Plan.Change("store/directory:/data", "store", List.of("create"), "new",
                List.of())), List.of(), List.of(), Map.of());
    }

    private static Rollout app(Plan plan, Optional<Facts> store, Map<String, Built> built) {
        return Rollout.of(List.of("app"), new Rollout.Inputs(plan, Map.of(), Map.of(), Map.of(), Map.of(), built,
                node -> node.equals("store") ? store : Optional.empty(), NOW)).get("app");
    }

    private static Optional<Facts> store(ProcessState.State state, int checks, Instant at) {
        return Optional.of(new Facts(STORE, "", List.of(new ProcessState("db", state, at, checks)), at));
    }

    @Test
    void aProcessOfAnotherNode_isMetWhenReportedRunning() {
        Plan plan = plan("store/process:db");
        assertThat(app(plan, Optional.empty(), Map.of()).waitingFor()).containsExactly("store/process:db");
        assertThat(app(plan, store(ProcessState.State.STARTING, 0, NOW), Map.of()).waitingFor()).hasSize(1);
        assertThat(app(plan, store(ProcessState.State.RUNNING, 0, NOW), Map.of()).waitingFor()).isEmpty();
    }

    @Test
    void healthy_needsTwoChecks() {
        Plan plan = plan("store/process:db#healthy");
        assertThat(app(plan, store(ProcessState.State.RUNNING, 1, NOW), Map.of()).waitingFor())
                .containsExactly("store/process:db#healthy");
        assertThat(app(plan, store(ProcessState.State.RUNNING, 2, NOW), Map.of()).waitingFor()).isEmpty();
    }

    @Test
    void aSilentNodesFacts_meetNothing() {
        Plan plan = plan("store/process:db");
        assertThat(app(plan, store(ProcessState.State.RUNNING, 5, NOW.minus(Facts.SILENCE).minusSeconds(1)), Map.of())
                .waitingFor()).containsExactly("store/process:db");
    }

    @Test
    void anotherChangeOfAnotherNode_isMetOnceItLeftThePlan_aBuildOnceDone_andTheNodesOwnAlways() {
        assertThat(app(plan("store/directory:/data"), Optional.empty(), Map.of()).waitingFor()).hasSize(1);
        assertThat(app(plan("store/directory:/gone"), Optional.empty(), Map.of()).waitingFor()).isEmpty();
        assertThat(app(plan("build:db@1/db"), Optional.empty(), Map.of()).waitingFor()).hasSize(1);
        assertThat(app(plan("build:db@1/db"), Optional.empty(), Map.of("build:db@1/db", new Built("build:db@1/db", "0".repeat(64), "file:///db.tar.gz"))).waitingFor()).isEmpty();
        assertThat(app(plan("app/account:app"), Optional.empty(), Map.of()).waitingFor()).isEmpty();
    }

    @Test
    void due_whenTheTargetDiffersFromWhatWasLastSent_andSomethingChangesOrWasSentBefore() {
        Delivery sent = new Delivery("n", "sha256:b", 1, NOW);
        assertThat(rollout("sha256:a", "", Optional.empty(), 1).due()).as("new, with changes").isTrue();
        assertThat(rollout("sha256:a", "", Optional.empty(), 0).due()).as("never ran anything").isFalse();
        assertThat(rollout("sha256:b", "sha256:a", Optional.of(sent), 1).due()).as("sent, not applied yet").isFalse();
        assertThat(rollout("sha256:a", "sha256:a", Optional.of(sent), 0).due()).as("back to what it runs").isTrue();
        assertThat(rollout("sha256:a", "sha256:a", Optional.empty(), 0).due()).as("runs it").isFalse();
    }

    @Test
    void aFailure_standsWhileTheNodeIsToRunTheRevisionThatFailed_only() {
        Report.Failed failed = new Report.Failed("app", "sha256:three", List.of(new Report.Step("app/process:app", false,
                "exited with 2 before it was ready")), NOW);
        java.util.function.Function<String, Rollout> withTarget = revision -> Rollout.of(List.of("app"),
                new Rollout.Inputs(plan(), Map.of("app", new Declaration("app", revision, List.of(), List.of(),
                        List.of(), List.of(), List.of(), List.of(), List.of(), List.of())), Map.of(), Map.of(),
                        Map.of("app", failed), Map.of(), node -> Optional.empty(), NOW)).get("app");

        assertThat(withTarget.apply("sha256:three").failure()).contains(failed);
        assertThat(withTarget.apply("sha256:one").failure()).as("the version before pushed back").isEmpty();
    }

    private static Rollout rollout(String target, String acknowledged, Optional<Delivery> delivered, int changes) {
        return new Rollout("n", target, acknowledged, delivered, changes, List.of(), Optional.empty());
    }
}
