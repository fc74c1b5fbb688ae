package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link PlanLock} must do, for one holder alone: each taking of the lock is a new
 * epoch, one more than the last; an acquired lock keeps one epoch until released. Run by
 * {@link LocalPlanLockTest} here and by the PostgreSQL lock in controller-store (through core's
 * test jar).
 */
public abstract class PlanLockContract {

    private PlanLock lock;

    /** @return a new lock, on a store of its own, that no one else holds */
    protected abstract PlanLock newLock();

    @BeforeEach
    void freshLock() {
        lock = newLock();
    }

    @Test
    void holding_takesTheNextEpochEachTime_andEpochThenSaysTheLastHolders() {
        long before = lock.epoch();

        long first = lock.holding(lock::epoch);
        long second = lock.holding(lock::epoch);

        assertThat(first).isEqualTo(before + 1);
        assertThat(second).isEqualTo(first + 1);
        assertThat(lock.epoch()).isEqualTo(second);
    }

    @Test
    void holding_returnsWhatTheWorkReturns_isReentrant_andReleasesWhenTheWorkThrows() {
        assertThat(lock.holding(() -> lock.holding(() -> "inner"))).isEqualTo("inner");
        long epoch = lock.epoch();

        assertThatThrownBy(() -> lock.holding(() -> {
            throw new IllegalStateException("work failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("work failed");

        assertThat(lock.holding(lock::epoch)).as("the lock came free").isEqualTo(epoch + 2);
    }

    @Test
    void acquire_keepsOneEpochForEveryWork_untilReleased() {
        long acquired = lock.acquire();

        assertThat(lock.acquire()).as("acquiring again does nothing").isEqualTo(acquired);
        assertThat(lock.holding(lock::epoch)).isEqualTo(acquired);
        assertThat(lock.holding(lock::epoch)).isEqualTo(acquired);
        assertThat(lock.epoch()).isEqualTo(acquired);

        lock.release();
        assertThat(lock.epoch()).isEqualTo(acquired);
        assertThat(lock.holding(lock::epoch)).isEqualTo(acquired + 1);
        assertThat(lock.acquire()).isEqualTo(acquired + 2);
        lock.release();
    }

    @Test
    void release_withoutAcquire_doesNothing() {
        long before = lock.epoch();

        lock.release();

        assertThat(lock.epoch()).isEqualTo(before);
        assertThat(lock.holding(lock::epoch)).isEqualTo(before + 1);
    }
}
