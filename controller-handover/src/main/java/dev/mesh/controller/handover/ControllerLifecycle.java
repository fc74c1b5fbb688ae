package dev.mesh.controller.handover;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
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
 * The state machine of one controller's life cycle (docs/design.md section 10), and the one source of
 * truth for its {@link Role}: {@code standby} → {@code active} (the plan lock taken, with a new epoch) →
 * {@code releasing} (no new plan work) → {@code standby} again, or {@code stopped} for good. A lock found
 * lost under an active controller drops it to standby, and the machine remembers the loss until the
 * handover has handed its consumers over ({@link #takeLoss()}).
 *
 * <p>The rest of the controller sees it as core's read-only {@link Lifecycle}: the gate in front of plan
 * work, and the status. Only this package moves it: {@link Handover} from what the broker's consumers
 * tell, {@link LeaseRenewal} while active, {@link KeepActive} for a controller alone.
 *
 * <p>Thread-safe: transitions are serialized; {@link #status()} never blocks; {@link #awaitChange} is told of
 * every transition, so that no one polls for one.
 */
public final class ControllerLifecycle implements Lifecycle, AutoCloseable {

    private final PlanLock lock;
    private final Clock clock;
    private final Object transitions = new Object();
    /** What {@link #awaitChange} waits on; told after each transition, never held while one is made. */
    private final Object changes = new Object();
    private volatile Status status;
    private final List<Consumer<Status>> listeners = new CopyOnWriteArrayList<>();
    private volatile Taking taking;
    /** Whether the lock was lost under this controller since the handover last handed its consumers over. */
    private boolean lost;

    private ControllerLifecycle(PlanLock lock, String instance, Clock clock) {
        this.lock = lock;
        this.clock = clock;
        this.status = new Status(Role.STANDBY, 0, clock.instant(), instance, "", "");
    }

    /**
     * A controller that starts as a standby.
     *
     * @param lock the plan lock it holds while active
     * @param instance this controller's id, e.g. {@code host:pid}
     * @param clock what {@code since} is read from
     * @return the life cycle, in {@link Role#STANDBY}
     * @throws IllegalArgumentException when {@code instance} is blank
     */
    public static ControllerLifecycle standby(PlanLock lock, String instance, Clock clock) {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(clock, "clock");
        if (instance.isBlank()) {
            throw new IllegalArgumentException("a controller's instance id must not be blank");
        }
        return new ControllerLifecycle(lock, instance, clock);
    }

    /**
     * Becomes active: takes the plan lock, and with it a new epoch, and publishes the handover on
     * {@code events} (docs/design.md section 8: kind {@code handover}, with {@link Lifecycle#handover}'s
     * fields) after the transition. Already active, it takes and publishes nothing. When the lock is not
     * taken the controller stays a standby, and the attempt says why.
     *
     * @param events where the {@code handover} event goes
     * @return what taking the lock did: {@link PlanLock.Taken} when active now
     * @throws IllegalStateException while releasing, or once stopped
     */
    PlanLock.Attempt activate(Events events) {
        Objects.requireNonNull(events, "events");
        PlanLock.Attempt attempt;
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.ACTIVE) {
                Optional<PlanLock.Attempt> held = lock.tenure().map(PlanLock.Taken::new);
                if (held.isPresent()) {
                    return held.get();
                }
                lost(now); // lost, and no one noticed yet: a standby now, which tries again below
                now = status;
            }
            if (now.role() != Role.STANDBY) {
                throw new IllegalStateException(now.instance() + " is " + now.role().label()
                        + "; it cannot become active again");
            }
            Instant asked = clock.instant();
            attempt = lock.attempt();
            if (!(attempt instanceof PlanLock.Taken(var tenure))) {
                return attempt;
            }
            Duration waited = Duration.between(asked, clock.instant());
            taking = new Taking(tenure, waited.isNegative() ? Duration.ZERO : waited);
            lost = false;
            status = new Status(Role.ACTIVE, tenure.epoch(), tenure.since(), now.instance(), tenure.previous(),
                    now.instance());
            changed();
        }
        events.publish(HANDOVER, Lifecycle.handover(((PlanLock.Taken) attempt).tenure()));
        return attempt;
    }

    /**
     * Stops taking plan work (docs/design.md section 10, the first step of a planned release): from now on
     * {@link #whileActive} refuses; work already in it finishes under the lock. Does nothing unless
     * active.
     */
    void releasing() {
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.ACTIVE) {
                become(new Status(Role.RELEASING, now.epoch(), clock.instant(), now.instance(), now.previous(), ""));
            }
        }
    }

    /**
     * Lets go: stops taking plan work, waits for the work holding the lock to end, releases the lock,
     * and becomes a standby. Does nothing on a standby.
     */
    void release() {
        releasing();
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.RELEASING) {
                lock.release();
                become(new Status(Role.STANDBY, now.epoch(), clock.instant(), now.instance(), "", ""));
            }
        }
    }

    /**
     * Stops for good: lets go as {@link #release()} does when it holds the lock, then is {@link Role#STOPPED},
     * which nothing leaves. Does nothing the second time.
     */
    void stop() {
        release();
        synchronized (transitions) {
            Status now = status;
            if (now.role() != Role.STOPPED) {
                become(new Status(Role.STOPPED, now.epoch(), clock.instant(), now.instance(), "", now.active()));
            }
        }
    }

    /**
     * Stops for good, as the owner of the lock does last (after the {@link Handover}, when one runs): releases the
     * lock when it still holds it, and is {@link Role#STOPPED}.
     */
    @Override
    public void close() {
        stop();
    }

    /**
     * Waits at most {@code wait} until this controller is settled: no longer a standby, or a standby that
     * knows which other controller is active (it reads the lock's holder every {@code lookEvery}; an
     * activation it is told of at once). What a start waits for before it says it is ready.
     *
     * @param wait how long at most
     * @param lookEvery how often the lock's holder is read
     * @return the status when settled, or when {@code wait} ran out
     * @throws InterruptedException when interrupted while waiting
     */
    public Status awaitSettled(Duration wait, Duration lookEvery) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Status seen = status;
        while (seen.role() == Role.STANDBY) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return seen;
            }
            seen = verify();
            if (seen.role() == Role.STANDBY && !seen.active().isEmpty() && !seen.active().equals(seen.instance())) {
                return seen;
            }
            seen = awaitChange(seen, Duration.ofNanos(Math.min(left, lookEvery.toNanos())));
        }
        return seen;
    }

    /**
     * Tells a standby which controller is active, so that what it refuses names where to go.
     * Epochs never go down: an older epoch than the one known is ignored.
     *
     * @param instance the active controller's id; {@code ""} for none known
     * @param epoch its epoch
     */
    void observe(String instance, long epoch) {
        Objects.requireNonNull(instance, "instance");
        synchronized (transitions) {
            Status now = status;
            Status told = new Status(now.role(), epoch, now.since(), now.instance(), now.previous(), instance);
            if (now.role() != Role.ACTIVE && epoch >= now.epoch() && !told.equals(now)) {
                become(told);
            }
        }
    }

    /**
     * Checks that an active controller still holds its lock ({@link PlanLock#check()}, which renews its
     * lease), and makes it a standby when the lock was lost, without waiting for plan work to find out. A
     * standby reads who holds the lock ({@link PlanLock#heldBy()}) and tells it as the active controller,
     * with its epoch, in {@link #status()} and in its refusals; none when the lock is free.
     *
     * @return the status as of now
     */
    Status verify() {
        Status now = status;
        if (now.role() == Role.ACTIVE) {
            lock.check();
            if (lock.tenure().isEmpty()) {
                lost(now);
            }
        } else if (now.role() == Role.STANDBY) {
            Optional<PlanLock.Holder> holder = lock.heldBy().filter(h -> !h.instance().equals(now.instance()));
            // No holder: none is known to be active, at the epoch already known.
            observe(holder.map(PlanLock.Holder::instance).orElse(""),
                    holder.map(PlanLock.Holder::epoch).orElse(now.epoch()));
        }
        return status;
    }

    /**
     * @return whether the lock was lost under this controller since the last call: the handover then hands its
     *     consumers over, so that a peer with a working lock can take over; the loss is forgotten
     */
    boolean takeLoss() {
        synchronized (transitions) {
            boolean was = lost;
            lost = false;
            return was;
        }
    }

    @Override
    public <T> T whileActive(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        Status now = status;
        if (now.role() != Role.ACTIVE) {
            throw Lifecycle.notActive(now);
        }
        try {
            return lock.holding(work);
        } catch (RuntimeException e) {
            // Whatever the work failed with, a lock that is no longer acquired was lost under it.
            if (lock.tenure().isEmpty()) {
                lost(now);
            }
            throw e;
        }
    }

    @Override
    public Optional<Taking> lastTaking() {
        return Optional.ofNullable(taking);
    }

    @Override
    public Status status() {
        return status;
    }

    @Override
    public Status awaitChange(Status seen, Duration wait) throws InterruptedException {
        Objects.requireNonNull(seen, "seen");
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (changes) {
            while (status == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(changes, left);
            }
        }
        return status;
    }

    /** Takes {@code next}, under {@link #transitions}, and tells {@link #awaitChange}. */
    private void become(Status next) {
        status = next;
        changed();
    }

    private void changed() {
        synchronized (changes) {
            changes.notifyAll();
        }
        Status now = status;
        listeners.forEach(listener -> listener.accept(now));
    }

    @Override
    public Runnable onChange(Consumer<Status> listener) {
        Consumer<Status> told = Objects.requireNonNull(listener, "listener")::accept; // its own identity, to remove
        listeners.add(told);
        return () -> listeners.remove(told);
    }

    private void lost(Status seen) {
        synchronized (transitions) {
            if (status == seen) {
                lost = true;
                become(new Status(Role.STANDBY, seen.epoch(), clock.instant(), seen.instance(), "", ""));
            }
        }
    }
}
