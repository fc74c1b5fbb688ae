package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.core.VerbException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link PlanLock} for one process, failing as the store's does: work runs only while the lock is
 * acquired, each {@link #attempt()} after a release or a {@link #lose loss} takes a new epoch, and
 * the previous holder is the one that held it before: a {@linkplain Tenure.Planned planned} takeover
 * after a release, a {@linkplain Tenure.Crash crash} after a loss (last seen when it took the lock or
 * at its last {@link #check()}). Several instances can share one
 * {@link Leadership}, as controllers share one store: then only one holds it at a time, and a
 * second {@code attempt} finds it {@link PlanLock.Busy} (as the store's lock does after its wait).
 *
 * <p>Thread-safe.
 */
public final class LocalPlanLock implements PlanLock {

    /** What several in-memory locks share, as controllers share the store's leadership row. */
    public static final class Leadership {
        private long epoch;
        private String holder = "";
        private boolean held;
        /** When the holder released it; {@code null} while held, or when it was lost. */
        private Instant released;
        /** The last time the holder was seen holding it: when it took it, at every {@link #check()}. */
        private Instant seen;
    }

    private final Leadership leadership;
    private final String holder;
    private final Clock clock;
    private final ReentrantLock turn = new ReentrantLock(true);
    private volatile Tenure tenure;

    private LocalPlanLock(Leadership leadership, String holder, Clock clock) {
        this.leadership = leadership;
        this.holder = holder;
        this.clock = clock;
    }

    /** @return a lock of its own, held by {@code local} */
    public static LocalPlanLock create() {
        return sharing(new Leadership(), "local", Clock.systemUTC());
    }

    /**
     * @param leadership what the controllers of one mesh share
     * @param holder this controller's name
     * @param clock what a tenure's start is read from
     * @return a lock on that leadership
     */
    public static LocalPlanLock sharing(Leadership leadership, String holder, Clock clock) {
        return new LocalPlanLock(leadership, holder, clock);
    }

    @Override
    public Attempt attempt() {
        turn.lock();
        try {
            if (tenure != null) {
                return new Taken(tenure);
            }
            synchronized (leadership) {
                if (leadership.held) {
                    return new Busy(leadership.holder, Duration.ZERO, "the plan lock is held by another controller "
                            + "(holder " + leadership.holder + ", epoch " + leadership.epoch + "); retry later");
                }
                Instant now = clock.instant();
                Tenure.Takeover takeover = leadership.epoch == 0 ? new Tenure.First()
                        : leadership.released != null ? new Tenure.Planned(leadership.released)
                        : new Tenure.Crash(leadership.seen);
                tenure = new Tenure(leadership.epoch + 1, now, holder, leadership.holder, leadership.epoch, takeover);
                leadership.held = true;
                leadership.epoch++;
                leadership.holder = holder;
                leadership.released = null;
                leadership.seen = now;
            }
            return new Taken(tenure);
        } finally {
            turn.unlock();
        }
    }

    @Override
    public void release() {
        turn.lock();
        try {
            if (tenure != null) {
                synchronized (leadership) {
                    if (leadership.held && leadership.epoch == tenure.epoch()) {
                        leadership.released = clock.instant();
                    }
                }
                free();
            }
        } finally {
            turn.unlock();
        }
    }

    @Override
    public <T> T holding(Supplier<T> work) {
        if (turn.isHeldByCurrentThread()) {
            return work.get();
        }
        turn.lock();
        try {
            if (tenure == null) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, holder + " does not hold the plan lock; "
                        + "plan work runs only while the controller is active", "");
            }
            return work.get();
        } finally {
            turn.unlock();
        }
    }

    @Override
    public Optional<Tenure> tenure() {
        return Optional.ofNullable(tenure);
    }

    @Override
    public Optional<Holder> heldBy() {
        synchronized (leadership) {
            return leadership.held ? Optional.of(new Holder(leadership.holder, leadership.epoch)) : Optional.empty();
        }
    }

    /**
     * Nothing to ask in one process: the lock is lost only by {@link #lose()}. Records that the holder
     * was seen holding it now, as the store's lock does, for the gap a successor after a crash tells.
     */
    @Override
    public void check() {
        synchronized (leadership) {
            Tenure now = tenure;
            if (now != null && leadership.held && leadership.epoch == now.epoch()) {
                leadership.seen = clock.instant();
            }
        }
    }

    /** Loses the lock, as a store's lock is lost when its session ends: the next work is refused. */
    public void lose() {
        free();
    }

    private void free() {
        synchronized (leadership) {
            if (tenure != null && leadership.held && leadership.epoch == tenure.epoch()) {
                leadership.held = false;
            }
            tenure = null;
        }
    }
}
