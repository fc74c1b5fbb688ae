package dev.mesh.controller.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The gate in front of all plan work (docs/design.md section 10): this controller's {@link Role}, and the
 * plan lock it holds while active. Mutating verbs and plan execution run through
 * {@link #whileActive}, which refuses them unless the controller is active and holds the lock with
 * the current epoch; reads never pass through it and never wait.
 *
 * <p>What moves the controller through its life cycle is outside core: the handover (the broker
 * made it the active consumer, SIGTERM, a crash of the peer) calls {@link #activate(Events)},
 * {@link #releasing()} and {@link #release()}; the development controller activates once at start
 * and is the "always active" case of the same gate. A lock lost under an active controller (its
 * database session ended) drops it to standby; the next {@link #activate()} takes the lock again,
 * with a new epoch.
 *
 * <p>Thread-safe: transitions are serialized; {@link #status()} never blocks; {@link #awaitChange} is told of
 * every transition, so that no one polls for one.
 */
public final class Lifecycle {

    /**
     * What {@code status} tells of the life cycle.
     *
     * @param role this controller's role
     * @param epoch while active, the epoch it holds; otherwise the latest it held or saw, 0 for none
     * @param since when it took this role
     * @param instance this controller's id, e.g. {@code host:pid}
     * @param previous while active, who held the lock before it, as the store recorded it; otherwise
     *     {@code ""}
     * @param active the instance known to be active: this one while active, the peer a standby saw
     *     last, {@code ""} when none is known
     */
    public record Status(Role role, long epoch, Instant since, String instance, String previous, String active) {

        /** Checks the parts. */
        public Status {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(active, "active");
        }
    }

    /**
     * The last time this controller took the plan lock: what {@code status} and the metrics tell of the
     * handover and of the lock's wait.
     *
     * @param tenure the tenure taken, with how the lock passed and the gap
     * @param waited how long {@link PlanLock#acquire()} took: waiting for the lock and advancing the epoch
     */
    public record Taking(Tenure tenure, Duration waited) {

        /** Checks the parts. */
        public Taking {
            Objects.requireNonNull(tenure, "tenure");
            Objects.requireNonNull(waited, "waited");
        }
    }

    /** The kind of the event {@link #activate(Events)} publishes. */
    public static final String HANDOVER = "handover";

    private final PlanLock lock;
    private final Clock clock;
    private final Object transitions = new Object();
    /** What {@link #awaitChange} waits on; told after each transition, never held while one is made. */
    private final Object changes = new Object();
    private volatile Status status;
    private volatile Taking taking;

    private Lifecycle(PlanLock lock, String instance, Clock clock) {
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
    public static Lifecycle standby(PlanLock lock, String instance, Clock clock) {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(clock, "clock");
        if (instance.isBlank()) {
            throw new IllegalArgumentException("a controller's instance id must not be blank");
        }
        return new Lifecycle(lock, instance, clock);
    }

    /**
     * Becomes active: takes the plan lock, and with it a new epoch. Does nothing when already
     * active. When the lock cannot be had the controller stays a standby. Tells no one of the
     * handover: {@link #activate(Events)} does.
     *
     * @return the status as active
     * @throws VerbException {@code unavailable} when the lock cannot be had (another controller holds
     *     it past the lock's wait, or the store cannot be reached)
     * @throws dev.mesh.controller.manifest.MeshException of another category when the store fails
     *     otherwise
     * @throws IllegalStateException while releasing
     */
    public Status activate() {
        return take().status();
    }

    /**
     * Becomes active as {@link #activate()} does and, when this call took the lock, publishes the
     * handover on {@code events} (docs/design.md section 8: kind {@code handover}, with {@link #handover}'s
     * fields), after the transition. Already active, it publishes nothing. This is how every caller
     * that makes the controller active (the launcher, the handover) tells the mesh.
     *
     * @param events where the {@code handover} event goes
     * @return the status as active
     * @throws VerbException as {@link #activate()}
     * @throws IllegalStateException while releasing
     */
    public Status activate(Events events) {
        Objects.requireNonNull(events, "events");
        Activation done = take();
        if (done.taken() != null) {
            events.publish(HANDOVER, handover(done.taken()));
        }
        return done.status();
    }

    /**
     * The fields of the {@code handover} event (docs/design.md section 8) for a tenure taken: {@code from}
     * (the instance before, {@code ""} for none), {@code to}, {@code epochOld} (0 for none),
     * {@code epochNew}, {@code gapMs} (how long no one held the lock, {@link Tenure#gap()}; {@code null}
     * when unknown: the first tenure) and {@code how} ({@code first}, {@code planned}, {@code crash}).
     *
     * @param tenure what an activation took
     * @return the fields, in that order; {@code gapMs} may be {@code null}
     */
    public static Map<String, Object> handover(Tenure tenure) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("from", tenure.previous());
        fields.put("to", tenure.holder());
        fields.put("epochOld", tenure.previousEpoch());
        fields.put("epochNew", tenure.epoch());
        fields.put("gapMs", tenure.gap().map(Duration::toMillis).orElse(null));
        fields.put("how", tenure.takeover().label());
        return Collections.unmodifiableMap(fields);
    }

    /** What an activation did: the status after it, and the tenure it took ({@code null}: already active). */
    private record Activation(Status status, Tenure taken) {
    }

    private Activation take() {
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.ACTIVE) {
                return new Activation(now, null);
            }
            if (now.role() == Role.RELEASING) {
                throw new IllegalStateException(now.instance() + " is releasing; it cannot become active again");
            }
            Instant asked = clock.instant();
            Tenure tenure = lock.acquire();
            Duration waited = Duration.between(asked, clock.instant());
            taking = new Taking(tenure, waited.isNegative() ? Duration.ZERO : waited);
            status = new Status(Role.ACTIVE, tenure.epoch(), tenure.since(), now.instance(), tenure.previous(),
                    now.instance());
            changed();
            return new Activation(status, tenure);
        }
    }

    /**
     * Stops taking plan work (docs/design.md section 10, the first step of a planned release): from now on
     * {@link #whileActive} refuses; work already in it finishes under the lock. Does nothing unless
     * active.
     */
    public void releasing() {
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.ACTIVE) {
                status = new Status(Role.RELEASING, now.epoch(), clock.instant(), now.instance(), now.previous(), "");
                changed();
            }
        }
    }

    /**
     * Lets go: stops taking plan work, waits for the work holding the lock to end, releases the lock,
     * and becomes a standby. Does nothing on a standby.
     */
    public void release() {
        releasing();
        synchronized (transitions) {
            Status now = status;
            if (now.role() == Role.RELEASING) {
                lock.release();
                status = new Status(Role.STANDBY, now.epoch(), clock.instant(), now.instance(), "", "");
                changed();
            }
        }
    }

    /**
     * Tells a standby which controller is active, so that what it refuses names where to go.
     * Epochs never go down: an older epoch than the one known is ignored.
     *
     * @param instance the active controller's id; {@code ""} for none known
     * @param epoch its epoch
     */
    public void observe(String instance, long epoch) {
        Objects.requireNonNull(instance, "instance");
        synchronized (transitions) {
            Status now = status;
            Status told = new Status(now.role(), epoch, now.since(), now.instance(), now.previous(), instance);
            if (now.role() != Role.ACTIVE && epoch >= now.epoch() && !told.equals(now)) {
                status = told;
                changed();
            }
        }
    }

    /**
     * Runs plan work: only while active, holding the plan lock with the current epoch. A lock found
     * lost makes this controller a standby.
     *
     * @param work a mutating verb or a step of plan execution
     * @return what {@code work} returns
     * @throws VerbException {@code unavailable} when this controller is not active (naming the active
     *     one when it is known) or its lock is lost
     */
    public <T> T whileActive(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        Status now = status;
        if (now.role() != Role.ACTIVE) {
            throw notActive(now);
        }
        try {
            return lock.holding(work);
        } catch (VerbException e) {
            if (e.code() == VerbException.Code.UNAVAILABLE && lock.tenure().isEmpty()) {
                lost(now);
            }
            throw e;
        }
    }

    /**
     * Checks that an active controller still holds its lock ({@link PlanLock#check()}), and makes it
     * a standby when the lock was lost, without waiting for plan work to find out. A standby reads who
     * holds the lock ({@link PlanLock#heldBy()}) and tells it as the active controller, with its epoch,
     * in {@link #status()} and in its refusals; none when the lock is free.
     *
     * @return the status as of now
     */
    public Status verify() {
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
     * @return the last time this controller took the plan lock, as long as it runs (a standby that was
     *     active keeps it); empty when it never did; never blocks
     */
    public Optional<Taking> lastTaking() {
        return Optional.ofNullable(taking);
    }

    /** @return the role, epoch and peers as of now; never blocks */
    public Status status() {
        return status;
    }

    /**
     * Waits until the status is another than {@code seen} — a transition, or a standby told of another active
     * controller — or until {@code wait} has passed. Told of each change, it does not poll.
     *
     * @param seen the status the caller last saw
     * @param wait how long to wait at most
     * @return the status as of now: {@code seen} itself when nothing changed within {@code wait}
     * @throws InterruptedException when interrupted while waiting
     */
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

    /** Tells {@link #awaitChange} that the status changed; called by each transition, after it. */
    private void changed() {
        synchronized (changes) {
            changes.notifyAll();
        }
    }

    private void lost(Status seen) {
        synchronized (transitions) {
            if (status == seen) {
                status = new Status(Role.STANDBY, seen.epoch(), clock.instant(), seen.instance(), "", "");
                changed();
            }
        }
    }

    private static VerbException notActive(Status now) {
        String where = now.active().isEmpty() || now.active().equals(now.instance())
                ? "no active controller is known to it; retry shortly, or start one"
                : "the active controller is " + now.active() + " (epoch " + now.epoch() + "); call it, or retry";
        return new VerbException(VerbException.Code.UNAVAILABLE, "this controller (" + now.instance() + ") is "
                + now.role().label() + " and changes nothing; " + where, "");
    }
}
