package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link PlanLock} must do: it is held for a whole active period, from
 * {@link PlanLock#attempt()} to {@link PlanLock#release()}, each time with an epoch greater than
 * every epoch before and the previous holder recorded; work runs under it only while it is
 * acquired; a rival on the same store cannot take it meanwhile. Run by {@link LocalPlanLockTest}
 * here and by the PostgreSQL lock in controller-store (through core's test jar).
 */
public abstract class PlanLockContract {

    private PlanLock lock;
    private PlanLock rival;

    /** @return a new lock held by {@code ctl-a}, on a store of its own that no one else holds */
    protected abstract PlanLock newLock();

    /**
     * @return a lock held by {@code ctl-b} on the same store as the last {@link #newLock()}, which
     *     gives up soon when the lock is taken
     */
    protected abstract PlanLock rival();

    /**
     * Makes {@code lock} lose what it holds without releasing it, as a crash does (the store's lock: its
     * session ends), so that a rival may take it.
     */
    protected abstract void crash(PlanLock lock);

    @BeforeEach
    void freshLock() {
        lock = newLock();
        rival = rival();
    }

    @Test
    void acquire_takesAnEpochGreaterThanEveryBefore_andRecordsThePreviousHolder() {
        Tenure first = lock.acquire();
        lock.release();
        Tenure second = lock.acquire();
        lock.release();
        Tenure third = rival.acquire();

        assertThat(first.epoch()).isPositive();
        assertThat(second.epoch()).isGreaterThan(first.epoch());
        assertThat(third.epoch()).isGreaterThan(second.epoch());
        assertThat(first.holder()).isEqualTo("ctl-a");
        assertThat(second.previous()).isEqualTo("ctl-a");
        assertThat(third.holder()).isEqualTo("ctl-b");
        assertThat(third.previous()).isEqualTo("ctl-a");
        assertThat(third.since()).isAfterOrEqualTo(first.since());
    }

    @Test
    void acquire_again_keepsTheSameTenure_untilReleased() {
        Tenure acquired = lock.acquire();

        assertThat(lock.acquire()).as("acquiring again does nothing").isEqualTo(acquired);
        assertThat(lock.tenure()).contains(acquired);
        lock.release();
        assertThat(lock.tenure()).isEmpty();
    }

    @Test
    void holding_withoutTheLock_isUnavailable() {
        assertThatThrownBy(() -> lock.holding(() -> "plan work"))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.code())
                        .isEqualTo(VerbException.Code.UNAVAILABLE));

        lock.acquire();
        lock.release();
        assertThatThrownBy(() -> lock.holding(() -> "plan work")).as("released")
                .isInstanceOf(VerbException.class);
    }

    @Test
    void holding_returnsWhatTheWorkReturns_isReentrant_andKeepsTheLockWhenTheWorkThrows() {
        Tenure acquired = lock.acquire();

        assertThat(lock.holding(() -> lock.holding(() -> "inner"))).isEqualTo("inner");
        assertThatThrownBy(() -> lock.holding(() -> {
            throw new IllegalStateException("work failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("work failed");

        assertThat(lock.tenure()).contains(acquired);
        assertThat(lock.holding(() -> "more work")).isEqualTo("more work");
        lock.release();
    }

    @Test
    void aRival_cannotAcquireWhileItIsHeld_andTakesTheNextEpochOnceReleased() {
        Tenure held = lock.acquire();

        assertThatThrownBy(rival::acquire)
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.UNAVAILABLE);
                    assertThat(e.getMessage()).contains("ctl-a");
                });
        assertThat(rival.tenure()).isEmpty();
        assertThatThrownBy(() -> rival.holding(() -> "plan work")).isInstanceOf(VerbException.class);
        lock.release();

        assertThat(rival.acquire().epoch()).isGreaterThan(held.epoch());
        rival.release();
    }

    @Test
    void attempt_tellsWhatHappened_takenThenBusyNamingTheHolder_neverThrowing() {
        PlanLock.Attempt first = lock.attempt();
        assertThat(first).isInstanceOf(PlanLock.Taken.class);
        assertThat(lock.attempt()).as("taken again: the same tenure").isEqualTo(first);

        PlanLock.Attempt refused = rival.attempt();

        assertThat(refused).isInstanceOfSatisfying(PlanLock.Busy.class, busy -> {
            assertThat(busy.holder()).contains("ctl-a");
            assertThat(busy.why()).contains("ctl-a").contains("retry");
            assertThat(busy.waited()).isGreaterThanOrEqualTo(java.time.Duration.ZERO);
        });
        assertThat(rival.tenure()).isEmpty();
        lock.release();
        assertThat(rival.attempt()).isInstanceOfSatisfying(PlanLock.Taken.class,
                taken -> assertThat(taken.tenure().previous()).isEqualTo("ctl-a"));
        rival.release();
    }

    @Test
    void heldBy_isNoOneFirst_theTakerWhileItHolds_andNoOneOnceReleased_asARivalSeesIt() {
        assertThat(rival.heldBy()).as("never taken").isEmpty();
        Tenure taken = lock.acquire();
        assertThat(rival.heldBy()).contains(new PlanLock.Holder("ctl-a", taken.epoch()));
        assertThat(lock.heldBy()).as("the holder reads the same record").contains(
                new PlanLock.Holder("ctl-a", taken.epoch()));
        lock.release();
        assertThat(rival.heldBy()).as("released").isEmpty();
        Tenure next = rival.acquire();
        assertThat(lock.heldBy()).contains(new PlanLock.Holder("ctl-b", next.epoch()));
    }

    @Test
    void release_withoutAcquire_doesNothing() {
        lock.release();

        assertThat(lock.tenure()).isEmpty();
        assertThat(lock.acquire().epoch()).isPositive();
        lock.release();
    }

    @Test
    void acquire_first_isATakeoverFromNoOne_withoutAGap() {
        Tenure first = lock.acquire();

        assertThat(first.takeover()).isEqualTo(new Tenure.First());
        assertThat(first.previous()).isEmpty();
        assertThat(first.previousEpoch()).isZero();
        assertThat(first.gap()).isEmpty();
        lock.release();
    }

    @Test
    void acquire_afterARelease_isAPlannedTakeover_fromTheOneBefore_withTheGapSinceItsRelease() {
        Tenure before = lock.acquire();
        lock.release();
        Tenure after = rival.acquire();

        assertThat(after.previous()).isEqualTo("ctl-a");
        assertThat(after.previousEpoch()).isEqualTo(before.epoch());
        assertThat(after.takeover()).isInstanceOfSatisfying(Tenure.Planned.class, planned -> assertThat(
                planned.released()).isAfterOrEqualTo(before.since()).isBeforeOrEqualTo(after.since()));
        assertThat(after.gap()).hasValueSatisfying(gap -> assertThat(gap).isGreaterThanOrEqualTo(Duration.ZERO));
        assertThat(after.takeover().label()).isEqualTo("planned");
        rival.release();
    }

    @Test
    void acquire_afterACrash_isACrashTakeover_lastSeenAtTheLatestCheck() {
        Tenure before = lock.acquire();
        lock.check();
        crash(lock);
        Tenure after = rival.acquire();

        assertThat(after.previous()).isEqualTo("ctl-a");
        assertThat(after.previousEpoch()).isEqualTo(before.epoch());
        assertThat(after.takeover()).isInstanceOfSatisfying(Tenure.Crash.class, crash -> assertThat(
                crash.lastSeen()).isAfterOrEqualTo(before.since()).isBeforeOrEqualTo(after.since()));
        assertThat(after.gap()).hasValueSatisfying(gap -> assertThat(gap).isGreaterThanOrEqualTo(Duration.ZERO));
        assertThat(after.takeover().label()).isEqualTo("crash");
        rival.release();
    }
}
