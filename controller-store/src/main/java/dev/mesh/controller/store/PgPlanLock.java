package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.LEADERSHIP;

import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.core.VerbException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core's {@link PlanLock} across controllers (docs/design.md section 10): a PostgreSQL advisory lock
 * ({@code pg_advisory_lock}) held by a dedicated session on the {@code inventory} database for a
 * whole active period. Taking it increments the fencing epoch in the {@code leadership} table,
 * records the holder before and, in the same transaction, the handover ({@code handovers}: first,
 * planned after a recorded release, or crash, with the gap; see {@link Tenure#takeover()}); every plan write ({@link PlanRecords}, and the plan inputs a fenced
 * {@link PgInventory} writes) checks, in its transaction, that the epoch is still the one this
 * holder took and that its session still holds the lock. {@link #holding} runs work only while
 * the lock is {@linkplain #acquire() acquired}: a controller that is not active plans nothing, and
 * a verb pays for no lock round trip.
 *
 * <p>A lock whose session ends while it is held (the server terminated it, the network was cut) is
 * <em>lost</em>: this controller stops planning, and every later {@link #holding} and plan write
 * fails with {@code unavailable} until the next {@link #acquire()}, which takes it again on a new
 * session, with a new epoch.
 *
 * <p>Thread-safe: work in this process takes turns (fairly), other processes wait for the advisory
 * lock. {@link #holding} is reentrant on the thread that holds it.
 */
public final class PgPlanLock implements PlanLock, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgPlanLock.class);

    /** How long {@link #acquire()} waits for another controller to release the lock, by default. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

    /** PostgreSQL's {@code lock_not_available}: the lock wait ran out. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    /** What a holder holds: its tenure and the server process of the session holding the lock. */
    record Held(Tenure tenure, int pid) {
        long epoch() {
            return tenure.epoch();
        }
    }

    private final Endpoint endpoint;
    private final DataSource inventory;
    private final String holder;
    private final Duration wait;
    /** How long a holder may go unseen before a controller waiting for the lock ends its sessions; null: never. */
    private final Duration lease;
    private final ReentrantLock turn = new ReentrantLock(true);

    /** Only the thread holding {@link #turn} changes these; others read them. */
    private LockSession session;
    /** What {@link #acquire()} took, until {@link #release()}; {@code null} while not acquired. */
    private volatile Held held;
    /** Why the tenure in {@link #held} was lost; {@code null} while it is not. */
    private volatile String lost;
    private volatile boolean closed;
    /** The last unsafe replication {@link #say} logged, so that a new session in the same state says nothing. */
    private Replication said;
    /** When the store last confirmed the lock held ({@link System#nanoTime}): taken, or seen by {@link #check()}. */
    private volatile long confirmedAt;
    /** What the last session opened found: the primary it is on; {@code null} before the first. */
    private volatile Replication seen;
    private final List<BiConsumer<String, String>> onFailover = new CopyOnWriteArrayList<>();

    private PgPlanLock(Endpoint endpoint, DataSource inventory, String holder, Duration wait, Duration lease) {
        this.endpoint = endpoint;
        this.inventory = inventory;
        this.holder = holder;
        this.wait = wait;
        this.lease = lease;
    }

    /**
     * A plan lock on the migrated {@code inventory} database. Connects only when first held.
     *
     * @param endpoint the inventory database: the lock's own session is opened there
     * @param inventory the same database, for reading the epoch (a pool may serve it)
     * @param holder this controller's name, recorded as the holder
     * @param wait how long {@link #acquire()} waits for another controller's lock, 1 ms to 1 hour
     * @throws IllegalArgumentException when the holder is empty or the wait is out of range
     */
    public static PgPlanLock of(Endpoint endpoint, DataSource inventory, String holder, Duration wait) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(wait, "wait");
        if (holder.isBlank()) {
            throw new IllegalArgumentException("the holder's name must not be blank");
        }
        if (wait.toMillis() < 1 || wait.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("the wait for the plan lock must be between 1 ms and 1 hour, not "
                    + wait);
        }
        return new PgPlanLock(endpoint, inventory, holder, wait, null);
    }

    /**
     * This lock, with a lease: while {@link #acquire()} waits for another holder, it looks every
     * {@link #LEASE_CHECK_EVERY} at when that holder was last seen holding the lock ({@code
     * leadership.seen_at}, which {@link #check()} renews); one unseen for longer than {@code lease} — a
     * frozen process (SIGSTOP) whose sessions the server still thinks alive — has its sessions terminated
     * (the lock's, and any in a fenced write), and the lock is taken with the next epoch, a {@code crash}
     * takeover, so that every late write of the old holder is refused. The holder must call
     * {@link #check()} well within the lease.
     *
     * @param lease how long a holder may go unseen, 1 s to 1 hour
     * @return a plan lock like this one, with the lease
     * @throws IllegalArgumentException when the lease is out of range
     */
    public PgPlanLock withLease(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("the plan lock's lease must be between 1 s and 1 hour, not " + lease);
        }
        return new PgPlanLock(endpoint, inventory, holder, wait, lease);
    }

    /**
     * Opens the lock's session now, and reads who holds the lock on it, so that a standby's taking over
     * costs the lock's round trips, not a connection to the server and the first run of its queries
     * (docs/design.md section 10: a standby keeps its connections warm). Best effort: a database out of reach
     * is logged, and {@link #acquire()} connects as it always does.
     */
    public void warm() {
        turn.lock();
        try {
            if (closed || held != null) {
                return;
            }
            try {
                LockSession current = session();
                LOG.debug("plan lock session warm holder={} pid={} {}", holder, current.pid(), current.leadership());
                if (lease != null) {
                    current.expired(lease);
                }
                current.rehearse(holder);
            } catch (SQLException | DataAccessException e) {
                dropSession();
                LOG.info("plan lock session not opened ahead reason=\"{}\"", e.getMessage());
            }
        } finally {
            turn.unlock();
        }
    }

    /** How long {@link #check()} waits for its turn behind plan work in this process. */
    public static final Duration CHECK_WAIT = Duration.ofMillis(500);

    /** How often {@link #acquire()} with a lease looks at whether the holder's lease expired. */
    public static final Duration LEASE_CHECK_EVERY = Duration.ofMillis(500);

    /**
     * {@inheritDoc}
     *
     * <p>Runs {@code work} in this process's turn at the lock (holders in this process take turns,
     * fairly); the advisory lock stays with the session {@link #acquire()} opened.
     *
     * @throws VerbException {@code unavailable} when the lock is not acquired, or was lost
     * @throws IllegalStateException after {@link #close()}
     */
    @Override
    public <T> T holding(Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        if (turn.isHeldByCurrentThread()) {
            return work.get();
        }
        turn.lock();
        try {
            refuseIfClosed();
            refuseIfLost();
            if (held == null) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, holder + " does not hold the plan lock: plan "
                        + "work runs only while this controller is active", "");
            }
            return work.get();
        } finally {
            turn.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for work in this process that holds the lock to end, then takes the advisory lock
     * (waiting up to the configured wait) on a dedicated session and increments the epoch. The
     * session stays open until {@link #release()}; when it ends meanwhile the lock is lost, and the
     * next plan write or {@link #holding} says so. After a loss, this takes the lock again on a new
     * session, with a new epoch.
     *
     * @return {@link PlanLock.Busy} when another controller kept the lock past the wait,
     *     {@link PlanLock.Unreachable} when the database cannot be reached or fails
     * @throws IllegalStateException after {@link #close()}
     */
    @Override
    public Attempt attempt() {
        turn.lock();
        try {
            refuseIfClosed();
            if (held != null && lost == null) {
                return new Taken(held.tenure());
            }
            if (lost != null) {
                dropSession();
                held = null;
                lost = null;
            }
            Attempt attempt = take();
            if (attempt instanceof Taken(Tenure tenure)) {
                LOG.info("plan lock acquired holder={} epoch={} previous={}", holder, tenure.epoch(),
                        tenure.previous().isEmpty() ? "none" : tenure.previous());
            }
            return attempt;
        } finally {
            turn.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for work in this process that holds the lock to end, records the release time in
     * {@code leadership.released_at} (so the next holder's takeover is planned), then releases the
     * advisory lock; the lock is lost when its session no longer held it.
     */
    @Override
    public void release() {
        turn.lock();
        try {
            Held taken = held;
            if (taken != null) {
                held = null;
                if (lost == null) {
                    giveBack(taken);
                    if (lost == null) {
                        LOG.info("plan lock released holder={} epoch={}", holder, taken.epoch());
                    }
                }
                lost = null;
            }
        } finally {
            turn.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Asks the lock's own session whether it still holds the advisory lock, and records in the same
     * statement that it was seen holding it ({@code leadership.seen_at}, the lease). It waits its turn
     * behind plan work in this process up to {@link #CHECK_WAIT} (the turn is fair, so behind the work
     * under way): an executor taking the turn round after round must not keep the lease from being renewed.
     * When work holds the turn longer, it returns (that work's plan writes check the lock themselves). A
     * session that ended, or no longer holds the lock, makes the lock lost.
     */
    @Override
    public void check() {
        try {
            if (!turn.tryLock(CHECK_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            Held now = held;
            if (now == null || lost != null || closed) {
                return;
            }
            boolean holds;
            try {
                holds = session.seen(now.epoch());
            } catch (DataAccessException e) {
                dropSession();
                lose("the plan lock was lost: its database session (pid " + now.pid() + ") ended while epoch "
                        + now.epoch() + " held it");
                return;
            }
            if (holds) {
                confirmedAt = System.nanoTime();
            } else {
                lose("the plan lock was lost: its database session (pid " + now.pid() + ") no longer holds it");
            }
        } finally {
            turn.unlock();
        }
    }

    /** @return how long ago the store last confirmed the lock held (taken, or seen by {@link #check()}) */
    Duration sinceConfirmed() {
        return Duration.ofNanos(System.nanoTime() - confirmedAt);
    }

    /**
     * Whether this controller may still speak for its epoch where nothing fences it (an event on NATS): the lock
     * held and not found lost, and the store's last confirmation of it ({@link #check()}, or the taking) younger
     * than the lease — before the lease runs out no other controller may take the lock from a holder that is
     * seen. When it is older (this process was frozen, or starved of the CPU, past its lease), the store is asked
     * again first, as {@link #check()} does; a lock found lost on the way is lost as there. Without a lease,
     * whether the lock is held and not found lost.
     *
     * @return {@code true} when the store confirmed the lock held within the lease
     */
    public boolean confirmed() {
        Held now = held;
        if (now == null || lost != null || closed) {
            return false;
        }
        if (lease == null || System.nanoTime() - confirmedAt < lease.toNanos()) {
            return true;
        }
        check();
        return held == now && lost == null && System.nanoTime() - confirmedAt < lease.toNanos();
    }

    @Override
    public Optional<Tenure> tenure() {
        Held now = held;
        return now == null || lost != null ? Optional.empty() : Optional.of(now.tenure());
    }

    /**
     * The latest fencing epoch: while this controller holds the lock, the epoch it took; otherwise the epoch in the
     * {@code leadership} table, which the last holder took. Never waits for the lock.
     *
     * @throws StoreException when the database cannot be read
     */
    public long epoch() {
        Held now = held;
        if (now != null) {
            return now.epoch();
        }
        try {
            return DSL.using(inventory, SQLDialect.POSTGRES).select(LEADERSHIP.EPOCH).from(LEADERSHIP)
                    .fetchSingle().value1();
        } catch (DataAccessException e) {
            throw Failure.of(Database.INVENTORY, inventory, "read the fencing epoch", e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the {@code leadership} row on the pool, not on the lock's session: a standby reads it every
     * second ({@code Assembly.watchLock}).
     */
    @Override
    public Optional<Holder> heldBy() {
        try {
            var row = DSL.using(inventory, SQLDialect.POSTGRES)
                    .select(LEADERSHIP.HOLDER, LEADERSHIP.EPOCH, LEADERSHIP.RELEASED_AT).from(LEADERSHIP)
                    .fetchSingle();
            return row.value2() == 0 || row.value3() != null || row.value1().isEmpty() ? Optional.empty()
                    : Optional.of(new Holder(row.value1(), row.value2()));
        } catch (DataAccessException e) {
            return Optional.empty();
        }
    }

    /** @return this controller's name, as recorded when it takes the lock */
    public String holder() {
        return holder;
    }

    /** Ends the lock's session (freeing the lock if a holder still has it) and refuses further use. */
    @Override
    public void close() {
        closed = true;
        turn.lock();
        try {
            held = null;
            if (session != null) {
                session.close();
                session = null;
            }
        } finally {
            turn.unlock();
        }
    }

    /**
     * What the current holder holds, for a fenced write.
     *
     * @throws VerbException {@code unavailable} when the lock was lost
     * @throws IllegalStateException when this controller has not {@linkplain #acquire() acquired} it
     */
    Held held() {
        refuseIfLost();
        Held now = held;
        if (now == null) {
            throw new IllegalStateException("a plan write must run after PlanLock.acquire (" + holder
                    + " does not hold the plan lock)");
        }
        return now;
    }

    /**
     * @param listener told, when the lock's session opens on another server than the last one did (the store
     *     failed over to its standby), the server it was on and the one it is on now, {@code host:port}; called
     *     while this process's turn at the lock is held, it must not block
     */
    public void onFailover(BiConsumer<String, String> listener) {
        onFailover.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * @return for {@code status}: {@code primary} (the server the lock's last session was on, {@code host:port},
     *     {@code ""} before the first), {@code synchronous} (whether its commits wait for a standby) and
     *     {@code standbys} (how many stream from it)
     */
    public Map<String, Object> primary() {
        Replication now = seen;
        return now == null ? Map.of("primary", "") : now.shown();
    }

    /** @return what the primary said of its standbys when the lock's current session opened; empty without one */
    Optional<Replication> replication() {
        turn.lock();
        try {
            return Optional.ofNullable(session).map(LockSession::replication);
        } finally {
            turn.unlock();
        }
    }

    /** @return the server process of the lock's session while it is open, for tests that end it */
    OptionalInt sessionPid() {
        Held now = held;
        return now == null ? OptionalInt.empty() : OptionalInt.of(now.pid());
    }

    /**
     * Records that the lock is lost, so that this controller stops planning.
     *
     * @return the exception to throw, saying so
     */
    VerbException lose(String why) {
        if (lost == null) {
            lost = why;
            LOG.warn("plan lock lost holder={} reason=\"{}\"", holder, why);
        }
        return unavailable(lost);
    }

    private void refuseIfClosed() {
        if (closed) {
            throw new IllegalStateException("the plan lock of " + holder + " is closed");
        }
    }

    private void refuseIfLost() {
        if (lost != null) {
            throw unavailable(lost);
        }
    }

    private static VerbException unavailable(String why) {
        return new VerbException(VerbException.Code.UNAVAILABLE, why + "; this controller stops planning", "");
    }

    /**
     * Opens the session if it has none (or it ended while idle), takes the lock and the next epoch; what it
     * took is {@link #held} from then on.
     */
    private Attempt take() {
        for (int attempt = 1; ; attempt++) {
            LockSession current;
            try {
                current = session();
            } catch (SQLException e) {
                return new Unreachable(Failure.message(Database.INVENTORY, endpoint.address(), "take the plan lock",
                        e), e);
            }
            long asked = System.nanoTime();
            try {
                lock(current);
            } catch (DataAccessException e) {
                if (attempt == 1 && !LOCK_NOT_AVAILABLE.equals(e.sqlState())) {
                    // The session ended while the lock was not held (terminated, a server restart):
                    // nothing was lost, and a new session may take the lock.
                    dropSession();
                    continue;
                }
                return waitFailed(current, e, Duration.ofNanos(System.nanoTime() - asked));
            }
            long locked = System.nanoTime();
            try {
                Tenure tenure = current.advance(holder);
                LOG.debug("plan lock taken holder={} epoch={} pid={} waitedMs={} advancedMs={}", holder, tenure.epoch(),
                        current.pid(), (locked - asked) / 1_000_000, (System.nanoTime() - locked) / 1_000_000);
                held = new Held(tenure, current.pid());
                confirmedAt = System.nanoTime();
                return new Taken(tenure);
            } catch (LockSession.Unconfirmed e) {
                // Ending the session frees the lock; the epoch stays recorded on the primary, never held by
                // anyone, and the next taking passes over it.
                dropSession();
                LOG.warn("plan lock epoch not taken holder={} epoch={} reason=\"the commit ended without the "
                        + "standby's confirmation\" server=\"{}\"", holder, e.epoch(), e.getMessage());
                return new Unreachable("the inventory database committed fencing epoch " + e.epoch() + " without its "
                        + "synchronous standby's confirmation (\"" + e.getMessage() + "\"), so a failover could lose "
                        + "it: the epoch is not taken, and the next attempt takes another", e);
            } catch (DataAccessException e) {
                dropSession();
                StoreException failed = Failure.of(Database.INVENTORY, endpoint,
                        "advance the fencing epoch after taking the plan lock", e);
                return new Unreachable(failed.getMessage(), failed);
            }
        }
    }

    /**
     * Waits for the advisory lock: up to the wait at once without a lease; with one, in slices of
     * {@link #LEASE_CHECK_EVERY}, ending a holder's sessions between two when its lease expired.
     *
     * @throws DataAccessException {@code lock_not_available} when the wait ran out, or as the session fails
     */
    private void lock(LockSession current) {
        if (lease == null) {
            current.lock();
            return;
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            try {
                current.lock(Duration.ofNanos(Math.max(1_000_000, Math.min(left, LEASE_CHECK_EVERY.toNanos()))));
                return;
            } catch (DataAccessException e) {
                if (!LOCK_NOT_AVAILABLE.equals(e.sqlState()) || deadline - System.nanoTime() <= 0) {
                    throw e;
                }
            }
            Optional<String> expired = current.expired(lease);
            if (expired.isPresent()) {
                int terminated = current.terminateHolder();
                LOG.warn("plan lock lease expired holder={} lease={}ms terminated={} taker={}", expired.get(),
                        lease.toMillis(), terminated, holder);
            }
        }
    }

    private Attempt waitFailed(LockSession current, DataAccessException e, Duration waited) {
        if (LOCK_NOT_AVAILABLE.equals(e.sqlState())) {
            String who;
            String named;
            try {
                who = current.leadership();
                named = who;
            } catch (DataAccessException unreadable) {
                who = "";
                named = "its holder could not be read: " + Failure.kind(unreadable).text();
            }
            return new Busy(who, waited, "the plan lock is held by another controller (" + named
                    + ") and did not come free within " + wait.toMillis() + " ms; retry later");
        }
        dropSession();
        return new Unreachable(Failure.message(Database.INVENTORY, endpoint.address(), "take the plan lock", e), e);
    }

    /** Releases the lock; a session that no longer held it means the lock was lost during the work. */
    private void giveBack(Held taken) {
        boolean released;
        try {
            // Recorded while the lock is still held, so the successor, who can take it only after the
            // unlock, finds it: a planned release, and the gap from here.
            session.releasing(taken.epoch());
            released = session.unlock();
        } catch (DataAccessException e) {
            dropSession();
            lose("the plan lock was lost: its database session (pid " + taken.pid() + ") ended while epoch "
                    + taken.epoch() + " held it (" + Failure.kind(e).text() + ")");
            return;
        }
        if (!released) {
            lose("the plan lock was lost: its database session (pid " + taken.pid() + ") no longer held it at the end "
                    + "of the work of epoch " + taken.epoch());
        }
    }

    private LockSession session() throws SQLException {
        if (session == null) {
            session = LockSession.open(endpoint, holder, wait);
            Replication now = session.replication();
            Replication before = seen;
            seen = now;
            if (before != null && !before.server().equals(now.server())) {
                LOG.warn("store primary changed database=inventory from={} to={} holder={}", before.server(),
                        now.server(), holder);
                onFailover.forEach(listener -> listener.accept(before.server(), now.server()));
            }
            say(now);
        }
        return session;
    }

    /**
     * Says, once for each state it finds, that the store has standbys (or names several servers) but commits
     * without waiting for one: a failover can then lose the last epoch taken and hand it out again, and lose
     * writes already acknowledged (docs/handover.md, "The store's failover").
     */
    private void say(Replication replication) {
        boolean unsafe = replication.unsafeFor(endpoint);
        if (unsafe && !replication.equals(said)) {
            LOG.warn("store not synchronous database=inventory servers={} {} risk=\"a failover to a standby can lose "
                    + "the last fencing epoch taken, and hand it out twice, and lose writes already acknowledged\" "
                    + "fix=\"name the standby in synchronous_standby_names on the primary (docs/store.md, "
                    + "'A primary with a standby')\"", endpoint.address(), replication.settings());
        }
        said = unsafe ? replication : null;
    }

    private void dropSession() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    @Override
    public String toString() {
        Held now = held;
        return "PgPlanLock[" + holder + " on " + endpoint.address() + (now == null ? ", not held" : ", held at epoch "
                + now.epoch() + " by pid " + now.pid()) + (lost == null ? "" : ", lost") + "]";
    }
}
