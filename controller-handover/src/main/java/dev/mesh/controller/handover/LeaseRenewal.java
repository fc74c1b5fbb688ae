package dev.mesh.controller.handover;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Renews the lease of a controller that the handover makes active, and finds a lost lock without plan work:
 * every {@code every}, {@link ControllerLifecycle#verify()} asks the lock's session whether it still holds the
 * lock, which renews its lease ({@code leadership.seen_at}, docs/store.md), and makes a controller whose lock
 * was lost a standby at once (the {@link Handover} then lets a peer take over). While standby, it reads who
 * holds the lock, which {@code status} and the refusals then name as the active controller.
 *
 * <p>The lease a standby waits out before it takes the lock from a silent holder must be longer than two
 * renewals ({@link HandoverSettings}): one renewal late is no reason to take over.
 *
 * <p>Thread-safe; {@link #close()} stops it.
 */
public final class LeaseRenewal implements AutoCloseable {

    private final ControllerLifecycle lifecycle;
    private final Consumer<RuntimeException> failed;
    private final ScheduledExecutorService thread;

    private LeaseRenewal(ControllerLifecycle lifecycle, Consumer<RuntimeException> failed,
            ScheduledExecutorService thread) {
        this.lifecycle = lifecycle;
        this.failed = failed;
        this.thread = thread;
    }

    /**
     * @param lifecycle the controller's life cycle
     * @param every how often to look, the first time after {@code every}
     * @param failed told of a look that failed (the store unreachable); the next look comes all the same
     * @return the running renewal
     * @throws IllegalArgumentException when {@code every} is not positive
     */
    public static LeaseRenewal start(ControllerLifecycle lifecycle, Duration every,
            Consumer<RuntimeException> failed) {
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(failed, "failed");
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("the lease is renewed every positive interval, not " + every);
        }
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("mesh-controller-lease").daemon().factory());
        LeaseRenewal renewal = new LeaseRenewal(lifecycle, failed, thread);
        thread.scheduleWithFixedDelay(renewal::look, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return renewal;
    }

    /** One look: what the thread does every interval. */
    void look() {
        try {
            lifecycle.verify();
        } catch (RuntimeException e) {
            failed.accept(e);
        }
    }

    /** Stops renewing; the lock itself is left as it is. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
