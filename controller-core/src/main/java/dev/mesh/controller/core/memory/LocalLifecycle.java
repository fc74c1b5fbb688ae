package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.Tenure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The life cycle of a controller alone, for tests, benchmarks and offline tools: a standby until
 * {@link #activate()}, then active on its lock until {@link #release()}. Only its owner moves it, and no
 * handover does: a lock lost under it stays lost (the work then fails with the lock's own refusal), and
 * nothing makes it a standby by itself. A controller that shares its store with others runs the handover's
 * life cycle instead (controller-handover's {@code ControllerLifecycle}).
 *
 * <p>Thread-safe.
 */
public final class LocalLifecycle implements Lifecycle {

    private final PlanLock lock;
    private final Clock clock;
    private volatile Status status;
    private volatile Taking taking;
    private final List<Consumer<Status>> listeners = new CopyOnWriteArrayList<>();

    private LocalLifecycle(PlanLock lock, String instance, Clock clock) {
        this.lock = lock;
        this.clock = clock;
        this.status = new Status(Role.STANDBY, 0, clock.instant(), instance, "", "");
    }

    /**
     * @param lock the lock it takes at {@link #activate()}
     * @param instance its id, e.g. {@code bench}
     * @param clock what {@code since} is read from
     * @return a standby
     */
    public static LocalLifecycle standby(PlanLock lock, String instance, Clock clock) {
        return new LocalLifecycle(Objects.requireNonNull(lock, "lock"), Objects.requireNonNull(instance, "instance"),
                Objects.requireNonNull(clock, "clock"));
    }

    /**
     * @param lock the lock it takes now
     * @param instance its id, e.g. {@code bench}
     * @param clock what {@code since} is read from
     * @return an active life cycle on {@code lock}
     * @throws dev.mesh.controller.core.VerbException {@code unavailable} when the lock cannot be taken
     */
    public static LocalLifecycle active(PlanLock lock, String instance, Clock clock) {
        LocalLifecycle lifecycle = standby(lock, instance, clock);
        lifecycle.activate();
        return lifecycle;
    }

    /** @return an active life cycle on a new {@link LocalPlanLock}, epoch 1 */
    public static LocalLifecycle active() {
        return active(LocalPlanLock.create(), "local", Clock.systemUTC());
    }

    /**
     * Takes the lock and becomes active; does nothing when active already.
     *
     * @return the status as active
     * @throws dev.mesh.controller.core.VerbException {@code unavailable} when the lock cannot be taken
     */
    public synchronized Status activate() {
        if (status.role() == Role.ACTIVE) {
            return status;
        }
        Instant asked = clock.instant();
        Tenure tenure = lock.acquire();
        taking = new Taking(tenure, Duration.between(asked, clock.instant()));
        status = new Status(Role.ACTIVE, tenure.epoch(), tenure.since(), status.instance(), tenure.previous(),
                status.instance());
        changed();
        return status;
    }

    /**
     * Releases the lock and becomes a standby again; does nothing on a standby. For a test that plays a
     * handover of its own.
     */
    public synchronized void release() {
        if (status.role() != Role.ACTIVE) {
            return;
        }
        lock.release();
        status = new Status(Role.STANDBY, status.epoch(), clock.instant(), status.instance(), "", "");
        changed();
    }

    @Override
    public Runnable onChange(Consumer<Status> listener) {
        Consumer<Status> told = Objects.requireNonNull(listener, "listener")::accept; // its own identity, to remove
        listeners.add(told);
        return () -> listeners.remove(told);
    }

    /** Under this object's monitor: wakes {@link #awaitChange}, then tells the listeners. */
    private void changed() {
        notifyAll();
        Status now = status;
        listeners.forEach(listener -> listener.accept(now));
    }

    @Override
    public Status status() {
        return status;
    }

    @Override
    public Optional<Taking> lastTaking() {
        return Optional.ofNullable(taking);
    }

    @Override
    public synchronized Status awaitChange(Status seen, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        for (long left = wait.toNanos(); status == seen && left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return status;
    }

    @Override
    public <T> T whileActive(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        Status now = status;
        if (now.role() != Role.ACTIVE) {
            throw Lifecycle.notActive(now);
        }
        return lock.holding(work);
    }
}
