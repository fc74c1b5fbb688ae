package dev.mesh.controller.core;

import dev.mesh.controller.manifest.MeshException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The gate in front of all plan work (docs/design.md section 10), as the rest of the controller sees it:
 * this controller's {@link Role}, and the plan lock it holds while active. Mutating verbs and plan
 * execution run through {@link #whileActive}, which refuses them unless the controller is active and holds
 * the lock with the current epoch; reads never pass through it and never wait.
 *
 * <p>Read-only: what moves a controller through its life cycle is the handover's state machine
 * ({@code controller-handover}'s {@code ControllerLifecycle}), the one place that decides a transition.
 * {@link dev.mesh.controller.core.memory.LocalLifecycle} is a controller alone, for offline use.
 *
 * <p>Implementations are thread-safe; {@link #status()} never blocks, and {@link #awaitChange} is told of
 * every transition, so that no one polls for one.
 */
public interface Lifecycle {

    /** The kind of the event an activation publishes. */
    String HANDOVER = "handover";

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
    record Status(Role role, long epoch, Instant since, String instance, String previous, String active) {

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
     * @param waited how long taking the lock took: waiting for it and advancing the epoch
     */
    record Taking(Tenure tenure, Duration waited) {

        /** Checks the parts. */
        public Taking {
            Objects.requireNonNull(tenure, "tenure");
            Objects.requireNonNull(waited, "waited");
        }
    }

    /** @return the role, epoch and peers as of now; never blocks */
    Status status();

    /**
     * @return the last time this controller took the plan lock, as long as it runs (a standby that was
     *     active keeps it); empty when it never did; never blocks
     */
    Optional<Taking> lastTaking();

    /**
     * Waits until the status is another than {@code seen} — a transition, or a standby told of another
     * active controller — or until {@code wait} has passed. Told of each change, it does not poll.
     *
     * @param seen the status the caller last saw
     * @param wait how long to wait at most
     * @return the status as of now: {@code seen} itself when nothing changed within {@code wait}
     * @throws InterruptedException when interrupted while waiting
     */
    Status awaitChange(Status seen, Duration wait) throws InterruptedException;

    /**
     * Tells {@code listener} of every change of the status from now on, as {@link #awaitChange} is told: for
     * whoever waits on a condition of its own besides the status (a transport that waits for activation or for
     * its own stop). Told on the thread that made the change, while it makes it: the listener must return at
     * once (wake a waiter, say) and must not call into the life cycle.
     *
     * @param listener told the new status
     * @return what stops telling it (a transport that closes runs it)
     */
    Runnable onChange(Consumer<Status> listener);

    /**
     * Runs plan work: only while active, holding the plan lock with the current epoch. A lock found
     * lost makes this controller a standby.
     *
     * @param work a mutating verb or a step of plan execution
     * @return what {@code work} returns
     * @throws VerbException {@code unavailable} when this controller is not active (naming the active
     *     one when it is known, {@link #notActive}) or its lock is lost
     */
    <T> T whileActive(Supplier<T> work);

    /**
     * The fields of the {@code handover} event (docs/design.md section 8) for a tenure taken: {@code from}
     * (the instance before, {@code ""} for none), {@code to}, {@code epochOld} (0 for none),
     * {@code epochNew}, {@code gapMs} (how long no one held the lock, {@link Tenure#gap()}; {@code null}
     * when unknown: the first tenure) and {@code how} ({@code first}, {@code planned}, {@code crash}).
     *
     * @param tenure what an activation took
     * @return the fields, in that order; {@code gapMs} may be {@code null}
     */
    static Map<String, Object> handover(Tenure tenure) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("from", tenure.previous());
        fields.put("to", tenure.holder());
        fields.put("epochOld", tenure.previousEpoch());
        fields.put("epochNew", tenure.epoch());
        fields.put("gapMs", tenure.gap().map(Duration::toMillis).orElse(null));
        fields.put("how", tenure.takeover().label());
        return Collections.unmodifiableMap(fields);
    }

    /**
     * What {@link #whileActive} answers a controller that is not active: {@code unavailable}, naming the
     * active controller when one is known, so that the caller knows where to go.
     *
     * @param now the status that refuses
     * @return the refusal
     */
    static VerbException notActive(Status now) {
        String where = now.active().isEmpty() || now.active().equals(now.instance())
                ? "no active controller is known to it; retry shortly, or start one"
                : "the active controller is " + now.active() + " (epoch " + now.epoch() + "); call it, or retry";
        String message = "this controller (" + now.instance() + ") is " + now.role().label() + " and changes "
                + "nothing; " + where;
        return new VerbException(VerbException.Code.UNAVAILABLE, message, "", new NotActive(now, message));
    }

    /**
     * Why {@link #whileActive} refused: the cause of its {@code unavailable}, so that a transport tells the gate's
     * refusal from any other failure by its type, never by the code its caller reads (the broker's transport gives
     * such a request back to the queue while this controller hands over).
     */
    final class NotActive extends MeshException {

        private static final long serialVersionUID = 1L;

        private final transient Status status;

        NotActive(Status status, String message) {
            super(message);
            this.status = Objects.requireNonNull(status, "status");
        }

        /** @return the status that refused */
        public Status status() {
            return status;
        }
    }
}
