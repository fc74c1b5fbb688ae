package dev.mesh.controller.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.system.HandoverHistory.Injection;
import dev.mesh.controller.system.HandoverHistory.Verdict;
import dev.mesh.controller.system.VerbLoad.Call;
import dev.mesh.controller.system.VerbLoad.Event;
import dev.mesh.controller.system.VerbLoad.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The driver's judgement on histories made by hand: each count can be wrong, and each is shown once. */
class HandoverHistoryTest {

    private static final long MS = 1_000_000L;
    private final List<Call> calls = new ArrayList<>();

    private Call call(Kind kind, long sentMs, long repliedMs, long epoch, String instance) {
        Call call = new Call("r" + calls.size(), kind, kind == Kind.PUSH ? "m:v" + calls.size() : "", sentMs * MS);
        if (repliedMs >= 0) {
            call.repliedNanos = repliedMs * MS;
            call.replies = 1;
            call.epoch = epoch;
            call.instance = instance;
            if (kind != Kind.READ) {
                call.changed = true;
            }
        }
        calls.add(call);
        return call;
    }

    private Verdict judge(List<Event> events, List<Injection> injections, long steadyToMs, long endMs) {
        return HandoverHistory.judge(calls, events, Set.of("a:1", "b:2"), injections, 0, steadyToMs * MS, endMs * MS);
    }

    @Test
    void gap_isTheLongestTimeWithARequestOutstandingAndNoReply_theFloorTheSameBeforeTheFault() {
        call(Kind.READ, 0, 2, 1, "a:1");
        call(Kind.READ, 10, 13, 1, "a:1");
        call(Kind.READ, 20, 24, 1, "a:1");
        // The fault at 30 ms: requests at 30 and 40 wait until 150 and 151.
        call(Kind.READ, 30, 150, 2, "b:2");
        call(Kind.READ, 40, 151, 2, "b:2");
        call(Kind.READ, 160, 161, 2, "b:2");

        Verdict verdict = judge(List.of(), List.of(new Injection("SIGTERM", 30 * MS, "a:1")), 25, 200);

        assertThat(verdict.lost()).isZero();
        assertThat(verdict.floorMs()).isEqualTo(4.0);
        assertThat(verdict.worstGapMs()).as("from the send at 30 to the reply at 150").isEqualTo(120.0);
        assertThat(verdict.recoveries().getFirst().answeredAgainMs()).isEqualTo(120.0);
        assertThat(verdict.longestGapMs()).isEqualTo(120.0);
    }

    @Test
    void aRequestNeverAnswered_isLost_andItsGapRunsToTheEnd() {
        call(Kind.READ, 0, 1, 1, "a:1");
        call(Kind.READ, 10, -1, 0, "");

        Verdict verdict = judge(List.of(), List.of(), 5, 100);

        assertThat(verdict.lost()).isEqualTo(1);
        assertThat(verdict.longestGapMs()).isEqualTo(90.0);
    }

    @Test
    void aPushAnsweredUnchanged_isADuplicatedEffect_anErrorAClientError() {
        call(Kind.PUSH, 0, 1, 1, "a:1").changed = false;
        call(Kind.PUSH, 2, 3, 1, "a:1");
        Call failed = call(Kind.ASSIGN, 4, 5, 1, "a:1");
        failed.error = true;
        failed.errorCode = "unavailable";

        Verdict verdict = judge(List.of(), List.of(), 10, 10);

        assertThat(verdict.duplicatedEffects()).isEqualTo(1);
        assertThat(verdict.clientErrors()).containsExactly(java.util.Map.entry("assign unavailable", 1));
    }

    @Test
    void twoInstancesUnderOneEpoch_orAMutationUnderAnOlderEpochLater_overlap_butAStandbysReadDoesNot() {
        call(Kind.PUSH, 0, 1, 1, "a:1");
        call(Kind.READ, 2, 3, 1, "b:2");
        call(Kind.PUSH, 4, 5, 2, "b:2");
        call(Kind.PUSH, 6, 7, 1, "a:1");

        Verdict verdict = judge(List.of(), List.of(), 10, 10);

        assertThat(verdict.overlappingEpochs()).isEmpty();
        assertThat(verdict.mutationsOutOfOrder()).as("epoch 1's push answered after epoch 2's").isEqualTo(1);

        calls.clear();
        call(Kind.PUSH, 0, 1, 1, "a:1");
        call(Kind.PUSH, 2, 3, 1, "b:2");
        assertThat(judge(List.of(), List.of(), 10, 10).overlappingEpochs()).hasSize(1);
    }

    @Test
    void anEventUnderAnOlderEpochAfterANewerOne_isStale_butAFailover_anotherMeshsEventsAreNotTheRuns() {
        List<Event> events = List.of(new Event(1, "handover", 1, "a:1"), new Event(2, "handover", 2, "b:2"),
                new Event(3, "plan", 1, "a:1"), new Event(4, "plan", 1, "elsewhere:9"),
                new Event(5, "failover", 1, "a:1"));

        Verdict verdict = judge(events, List.of(), 10, 10);

        assertThat(verdict.staleEvents()).as("a:1's plan event; not its failover, which claims nothing of the plan")
                .isEqualTo(1);
        assertThat(judge(List.of(new Event(1, "handover", 2, "b:2"), new Event(2, "failover", 2, "a:1")), List.of(),
                10, 10).overlappingEpochs()).as("a standby's failover under the epoch it read: not acting under it")
                .isEmpty();
        assertThat(verdict.overlappingEpochs()).as("epoch 1: a:1 only; elsewhere:9 is not the run's").isEmpty();
    }
}
