package dev.mesh.controller.handover;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalPlanLock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Controllers running the real {@link Handover} and {@link ControllerLifecycle} on a shared
 * {@link LocalPlanLock}, against in-memory models of the broker's single-active consumer (the first
 * consumer registered is fed; after a cancel the next is fed at once while the cancelled one still
 * holds its unacknowledged deliveries), the bus's tick detector, the lock's sessions (they die with
 * a crash, after a freeze longer than the keepalive, or at random) and the store's fenced write (a
 * plan write is accepted only with the greatest epoch taken). Single-threaded and deterministic: each
 * method is one step of the world.
 */
final class World {

    /** Ticks a frozen controller's broker connection survives (AMQP heartbeats). */
    static final int HEARTBEAT = 2;
    /** Ticks a frozen controller's lock session survives (TCP keepalives); after the heartbeat. */
    static final int KEEPALIVE = 3;
    /** Ticks without a feed after which the bus tells {@code starved}. */
    static final int STARVE = 3;
    /** Ticks within which, once the faults stop, every message is answered. */
    static final int BOUND = 3 * (KEEPALIVE + STARVE);

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T09:00:00Z"), ZoneOffset.UTC);

    /** How many controllers run at most at once. */
    final int size;
    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    final List<Controller> controllers = new ArrayList<>();
    private final List<Seat> consumers = new ArrayList<>();
    private final Deque<Integer> ready = new ArrayDeque<>();
    private final Set<Integer> published = new TreeSet<>();
    private final Set<Integer> answered = new HashSet<>();
    /** Every write accepted: its epoch, the greatest epoch taken then, the message. */
    private final List<long[]> accepted = new ArrayList<>();
    /** The greatest epoch any controller took: the store's current epoch. */
    private long current;
    int lateWritesRefused;
    private int started;

    World(int size) {
        this.size = size;
        for (int i = 0; i < size; i++) {
            start();
        }
    }

    // ---------------------------------------------------------------- the actions

    void start() {
        Controller controller = new Controller("ctl-" + started++);
        controllers.add(controller);
        controller.handover = Handover.start(controller.lifecycle, controller.seat, Duration.ofSeconds(5));
    }

    void publish() {
        int message = published.size() + 1;
        published.add(message);
        ready.addLast(message);
        dispatch();
    }

    /** Time passes: frozen connections and sessions expire, the bus's tick feeds the active consumer. */
    void tick() {
        for (Controller c : alive()) {
            if (c.frozen) {
                c.frozenTicks++;
                if (c.frozenTicks == HEARTBEAT) {
                    c.connectionDown = true;
                    drop(c.seat);
                }
                if (c.frozenTicks == KEEPALIVE) {
                    c.local.lose();
                }
            }
        }
        Seat fed = consumers.isEmpty() ? null : consumers.get(0);
        for (Controller c : alive()) {
            if (c.seat == fed) {
                c.missed = 0;
                c.seat.tellFed();
            } else if (++c.missed >= STARVE && !c.frozen && c.alive) {
                c.seat.listener.starved();
            }
        }
    }

    /** One step of plan work on the oldest delivery held: pass the gate, or write what passed it. */
    void work(Controller c) {
        if (c.inflight != null) {
            int message = c.inflight;
            c.inflight = null;
            if (write(c, c.inflightEpoch, message)) {
                c.seat.held.remove(message);
            } else {
                nack(c.seat, message);
            }
            return;
        }
        Integer message = c.seat.held.peekFirst();
        if (message == null) {
            return;
        }
        try {
            c.inflightEpoch = c.lifecycle.whileActive(() -> c.lifecycle.status().epoch());
            c.inflight = message;
        } catch (VerbException refused) {
            nack(c.seat, message);
        }
    }

    void freeze(Controller c) {
        c.frozen = true;
        c.frozenTicks = 0;
    }

    void thaw(Controller c) {
        c.frozen = false;
        if (c.connectionDown) {
            c.connectionDown = false;
            if (c.seat.wanted) {
                register(c.seat); // the client's automatic recovery consumes again, behind the others
            }
        }
    }

    void crash(Controller c) {
        c.alive = false;
        c.frozen = false;
        c.inflight = null;
        drop(c.seat);
        c.local.lose();
    }

    /** SIGTERM: the planned release, then the process exits and its connections close. */
    void terminate(Controller c) {
        c.handover.stop();
        c.alive = false;
        drop(c.seat);
        c.local.lose();
    }

    void loseLock(Controller c) {
        c.local.lose();
    }

    // ---------------------------------------------------------------- the invariants

    /** At most one controller plans: active, holding the lock, with the current epoch. */
    void atMostOnePlanner() {
        List<String> planners = alive().stream()
                .filter(c -> c.lifecycle.status().role() == Role.ACTIVE)
                .filter(c -> c.lock.tenure().map(t -> t.epoch() == current).orElse(false))
                .map(c -> c.name + "@" + c.lifecycle.status().epoch())
                .toList();
        if (planners.size() > 1) {
            throw new AssertionError("two controllers plan: " + planners + " current=" + current + " " + this);
        }
    }

    /** The store accepted no write carrying an epoch older than the greatest taken. */
    void noStaleWrite() {
        List<String> stale = accepted.stream().filter(w -> w[0] < w[1])
                .map(w -> "message " + w[2] + " with epoch " + w[0] + " < " + w[1]).toList();
        if (!stale.isEmpty()) {
            throw new AssertionError("writes with a stale epoch were accepted: " + stale + " " + this);
        }
    }

    /** The faults stop: every controller thaws, one runs; within the bound every message is answered. */
    void quiesce() {
        for (Controller c : alive()) {
            if (c.frozen) {
                thaw(c);
            }
        }
        if (alive().isEmpty()) {
            start();
        }
        publish();
        for (int tick = 0; tick < BOUND && !answered.containsAll(published); tick++) {
            tick();
            for (Controller c : alive()) {
                for (int step = c.seat.held.size() * 2 + 1; step > 0; step--) {
                    work(c);
                }
            }
        }
        Set<Integer> unanswered = new TreeSet<>(published);
        unanswered.removeAll(answered);
        if (!unanswered.isEmpty()) {
            throw new AssertionError("messages " + unanswered + " not answered within " + BOUND
                    + " ticks after the faults stopped: " + this);
        }
    }

    // ---------------------------------------------------------------- the broker and the store

    List<Controller> alive() {
        return controllers.stream().filter(c -> c.alive).toList();
    }

    Optional<Controller> named(String name) {
        return controllers.stream().filter(c -> c.name.equals(name)).findFirst();
    }

    private boolean write(Controller c, long epoch, int message) {
        if (epoch < current) {
            // The store's fence: the epoch checked in the write's transaction (PlanRecords).
            lateWritesRefused++;
            return false;
        }
        accepted.add(new long[] {epoch, current, message});
        answered.add(message); // idempotent by request id: a second copy changes nothing
        return true;
    }

    private void register(Seat seat) {
        if (!consumers.contains(seat)) {
            consumers.add(seat);
        }
        dispatch();
    }

    private void cancel(Seat seat) {
        consumers.remove(seat);
        dispatch();
    }

    /** The connection closed: the broker requeues what the consumer held and feeds the next. */
    private void drop(Seat seat) {
        consumers.remove(seat);
        while (!seat.held.isEmpty()) {
            ready.addFirst(seat.held.pollLast());
        }
        dispatch();
    }

    private void nack(Seat seat, int message) {
        if (seat.held.remove(message)) {
            ready.addFirst(message);
            dispatch();
        }
    }

    private void dispatch() {
        List<Seat> told = new ArrayList<>();
        while (!ready.isEmpty() && !consumers.isEmpty()) {
            Seat active = consumers.get(0);
            active.held.addLast(ready.pollFirst());
            active.owner.missed = 0;
            if (!told.contains(active)) {
                told.add(active);
            }
        }
        told.forEach(Seat::tellFed);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("world[current=" + current + " consumers="
                + consumers.stream().map(s -> s.owner.name).toList() + " ready=" + ready);
        for (Controller c : controllers) {
            out.append(' ').append(c);
        }
        return out.append(']').toString();
    }

    // ---------------------------------------------------------------- the parts

    /** One controller process. */
    final class Controller {
        final String name;
        final LocalPlanLock local;
        final PlanLock lock;
        final ControllerLifecycle lifecycle;
        final Seat seat = new Seat(this);
        Handover handover;
        boolean alive = true;
        boolean frozen;
        boolean connectionDown;
        int frozenTicks;
        int missed;
        Integer inflight;
        long inflightEpoch;

        Controller(String name) {
            this.name = name;
            this.local = LocalPlanLock.sharing(leadership, name, CLOCK);
            this.lock = new EpochOfTheStore(local);
            this.lifecycle = ControllerLifecycle.standby(lock, name, CLOCK);
        }

        @Override
        public String toString() {
            return name + "(" + (alive ? "" : "dead ") + (frozen ? "frozen " : "")
                    + lifecycle.status().role().label() + "@" + lifecycle.status().epoch()
                    + (lock.tenure().isPresent() ? " locked" : "") + " held=" + seat.held
                    + (inflight == null ? "" : " inflight=" + inflight + "@" + inflightEpoch) + ")";
        }
    }

    /** A controller's consumers on the model broker. */
    final class Seat implements Consumers {
        final Controller owner;
        final Deque<Integer> held = new ArrayDeque<>();
        Listener listener;
        boolean wanted;

        Seat(Controller owner) {
            this.owner = owner;
        }

        @Override
        public void start(Listener listener) {
            this.listener = listener;
            wanted = true;
            register(this);
        }

        @Override
        public void handOver() {
            wanted = false;
            cancel(this);
        }

        @Override
        public void rejoin() {
            if (!wanted) {
                wanted = true;
                register(this);
            }
        }

        /** Waiting lets the controller's own work go on: the deliveries in flight finish, the rest go back. */
        @Override
        public boolean settled(Duration wait) {
            for (int step = held.size() * 2 + 1; step > 0 && (owner.inflight != null || !held.isEmpty()); step--) {
                work(owner);
            }
            return held.isEmpty();
        }

        void tellFed() {
            if (owner.alive && !owner.frozen && listener != null) {
                listener.fed();
            }
        }
    }

    /** The plan lock, telling the store each epoch taken (the store's leadership row). */
    private final class EpochOfTheStore implements PlanLock {
        private final LocalPlanLock lock;

        EpochOfTheStore(LocalPlanLock lock) {
            this.lock = lock;
        }

        @Override
        public Attempt attempt() {
            Attempt attempt = lock.attempt();
            if (attempt instanceof Taken(var tenure)) {
                current = Math.max(current, tenure.epoch());
            }
            return attempt;
        }

        @Override
        public void release() {
            lock.release();
        }

        @Override
        public <T> T holding(Supplier<T> work) {
            return lock.holding(work);
        }

        @Override
        public void check() {
            lock.check();
        }

        @Override
        public Optional<Tenure> tenure() {
            return lock.tenure();
        }

        @Override
        public Optional<Holder> heldBy() {
            return lock.heldBy();
        }
    }
}
