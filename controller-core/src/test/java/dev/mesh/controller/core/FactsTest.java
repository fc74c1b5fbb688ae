package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FactsTest {

    private static final Instant AT = Instant.parse("2026-11-29T21:00:00Z");
    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");

    @Test
    void processState_labelsAreTheWires_andAnUnknownOneIsNamed() {
        assertThat(Arrays.stream(ProcessState.State.values()).map(ProcessState.State::label))
                .containsExactly("running", "starting", "stopped", "failed");
        assertThat(ProcessState.State.of("failed")).isEqualTo(ProcessState.State.FAILED);
        assertThatThrownBy(() -> ProcessState.State.of("Running"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a process state is running, starting, stopped or failed, not \"Running\"");
    }

    @Test
    void processState_healthy_isRunningAcrossTwoChecks() {
        assertThat(new ProcessState("web", ProcessState.State.RUNNING, AT, 2).healthy()).isTrue();
        assertThat(new ProcessState("web", ProcessState.State.RUNNING, AT, 1).healthy()).isFalse();
        assertThat(new ProcessState("web", ProcessState.State.STARTING, AT, 5).healthy()).isFalse();
        assertThatThrownBy(() -> new ProcessState("web", ProcessState.State.RUNNING, AT, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("process web passed -1 checks: a count of passed checks is at least 0");
    }

    @Test
    void facts_aProcessReportedTwice_isRefused() {
        ProcessState web = new ProcessState("web", ProcessState.State.RUNNING, AT, 0);

        assertThatThrownBy(() -> new Facts(ALPHA, "", List.of(web, web), AT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node alpha reported process web twice; a host reports each process once");
    }

    @Test
    void facts_timesAreKeptToTheMicrosecond_asTheStoreKeepsThem() {
        Instant precise = Instant.parse("2026-11-29T21:00:00.123456789Z");

        Facts facts = new Facts(ALPHA, "sha256:aa",
                List.of(new ProcessState("web", ProcessState.State.RUNNING, precise, 0)), precise);

        assertThat(facts.at()).isEqualTo(Instant.parse("2026-11-29T21:00:00.123456Z"));
        assertThat(facts.processes().getFirst().since()).isEqualTo(facts.at());
        assertThat(facts.appliedRevision()).contains("sha256:aa");
        assertThat(new Facts(ALPHA, "", List.of(), AT).appliedRevision()).isEmpty();
    }

    @Test
    void silentAt_isMoreThanThreeIntervalsAfter() {
        Facts facts = new Facts(ALPHA, "", List.of(), AT);

        assertThat(facts.silentAt(AT.plus(Facts.SILENCE))).isFalse();
        assertThat(facts.silentAt(AT.plus(Facts.SILENCE).plusNanos(1))).isTrue();
        assertThat(Facts.SILENCE).isEqualTo(Facts.INTERVAL.multipliedBy(3)).hasSeconds(15);
    }
}
