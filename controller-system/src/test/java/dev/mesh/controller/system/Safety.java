package dev.mesh.controller.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.system.HandoverHistory.Verdict;

/** What every driver's run must show, whatever it injected: nothing lost, nothing done twice, one planner. */
final class Safety {

    private Safety() {
    }

    /** Asserts that no request was lost, no push ran twice, no epoch had two controllers, no mutation went back. */
    static void assertNothingLostOrDoubled(Verdict verdict) {
        assertThat(verdict.lost()).as("requests with no reply after their retry").isZero();
        assertThat(verdict.duplicatedEffects()).as("pushes run twice").isZero();
        assertThat(verdict.overlappingEpochs()).as("epochs two controllers acted under").isEmpty();
        assertThat(verdict.mutationsOutOfOrder()).as("mutations answered under an older epoch").isZero();
    }
}
