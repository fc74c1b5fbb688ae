package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.HANDOVERS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.LEADERSHIP;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;

import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.store.internal.schema.inventory.tables.records.LeadershipRecord;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Record;
import org.jooq.SelectConditionStep;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The dedicated database session that holds the plan lock: one connection, opened for the lock
 * alone and kept open while it is held, because PostgreSQL ties an advisory lock to the session
 * that took it and frees it when that session ends. Used by one thread at a time (the
 * {@link PgPlanLock} serializes its holders).
 */
final class LockSession implements AutoCloseable {

    /** The advisory lock's two keys: {@code 'mesh'} and 1, the plan lock. */
    static final int KEY_CLASS = 0x6d657368;
    static final int KEY_PLAN = 1;

    private static final Table<?> PG_LOCKS = table(name("pg_catalog", "pg_locks"));
    private static final Field<String> LOCKTYPE = field(name("locktype"), String.class);
    private static final Field<Integer> CLASSID = field(name("classid"), Integer.class);
    private static final Field<Integer> OBJID = field(name("objid"), Integer.class);
    private static final Field<Short> OBJSUBID = field(name("objsubid"), Short.class);
    private static final Field<Integer> PID = field(name("pid"), Integer.class);
    private static final Field<Boolean> GRANTED = field(name("granted"), Boolean.class);

    /**
     * Server-side TCP keepalives: a controller that is cut off is noticed by the server within
     * about 10 s, which then ends the session and so frees the lock for the standby.
     */
    private static final String KEEPALIVE_OPTIONS = "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=1 "
            + "-c tcp_keepalives_count=5 -c tcp_user_timeout=10000";

    private final Connection connection;
    private final DSLContext db;
    private final int pid;
    private final Replication replication;

    private LockSession(Connection connection) {
        this.connection = connection;
        // The dialect from the connection's URL: DSL.using(Connection, SQLDialect) makes javac read
        // jOOQ's JAXB-annotated Settings (an overload), which warns without JAXB on the class path.
        this.db = DSL.using(connection);
        this.pid = db.select(function(name("pg_backend_pid"), SQLDataType.INTEGER)).fetchSingle().value1();
        this.replication = Replication.read(db);
    }

    /**
     * Opens a session for the lock: keepalives, a socket timeout longer than the lock wait, and a
     * {@code lock_timeout} of {@code wait}, so that waiting for the lock ends with an error rather
     * than never.
     *
     * @throws SQLException when the database cannot be reached
     */
    static LockSession open(Endpoint endpoint, String holder, Duration wait) throws SQLException {
        PGSimpleDataSource source = endpoint.driverDataSource();
        source.setApplicationName("mesh-controller plan lock (" + holder + ")");
        source.setOptions("-c lock_timeout=" + wait.toMillis() + " " + KEEPALIVE_OPTIONS);
        source.setSocketTimeout((int) Math.max(wait.toSeconds() * 3, 30));
        Connection connection = source.getConnection();
        try {
            return new LockSession(connection);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** @return whether the primary this session reached waits for a standby at commit, as it said when opened */
    Replication replication() {
        return replication;
    }

    /** @return the server process of this session, as {@code pg_locks} and {@code pg_stat_activity} show it */
    int pid() {
        return pid;
    }

    /** Waits for the advisory lock (up to the session's {@code lock_timeout}). */
    void lock() {
        db.select(function(name("pg_advisory_lock"), SQLDataType.OTHER, val(KEY_CLASS), val(KEY_PLAN))).fetch();
    }

    /** Waits for the advisory lock up to {@code wait}, this time only (the session's {@code lock_timeout} after). */
    void lock(Duration wait) {
        db.transaction(config -> {
            DSLContext tx = config.dsl();
            tx.execute("SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis()));
            tx.select(function(name("pg_advisory_lock"), SQLDataType.OTHER, val(KEY_CLASS), val(KEY_PLAN))).fetch();
        });
    }

    /**
     * @param lease how long a holder may go unseen
     * @return the holder, when one holds the lock (no release recorded) and was last seen holding it
     *     ({@code leadership.seen_at}, by the server's clock) longer ago than {@code lease}
     */
    Optional<String> expired(Duration lease) {
        return db.resultQuery("SELECT holder FROM leadership WHERE epoch > 0 AND released_at IS NULL "
                + "AND coalesce(seen_at, since) < now() - {0} * interval '1 millisecond'", val(lease.toMillis()))
                .fetchOptional(0, String.class);
    }

    /**
     * Ends the sessions of a holder whose lease expired: the one holding the advisory lock, and any in a
     * fenced write (a transaction holding the {@code leadership} row {@code FOR SHARE}), so that the lock
     * comes free and the epoch can advance. Its late writes are then refused by the epoch.
     *
     * @return how many server processes were terminated
     */
    int terminateHolder() {
        return db.resultQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE pid <> pg_backend_pid() "
                + "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                + "AND ((locktype = 'advisory' AND classid = {0} AND objid = {1} AND objsubid = 2) "
                + "OR (locktype = 'relation' AND relation = 'leadership'::regclass AND mode = 'RowShareLock'))",
                val(KEY_CLASS), val(KEY_PLAN)).fetchSingle(0, Long.class).intValue();
    }

    /**
     * @param pid a server process
     * @return the query of whether that process holds the plan lock (a row of {@code pg_locks}), for
     *     a fence to check in its transaction
     */
    static SelectConditionStep<Record1<Integer>> heldBy(int pid) {
        return selectOne().from(PG_LOCKS).where(LOCKTYPE.eq("advisory"), CLASSID.eq(KEY_CLASS), OBJID.eq(KEY_PLAN),
                OBJSUBID.eq((short) 2), PID.eq(pid), GRANTED.isTrue());
    }

    /**
     * Asks the server, on this session, whether the session still holds the plan lock for
     * {@code epoch}, and when it does records it as seen now ({@code leadership.seen_at}): after a
     * crash, the successor's gap starts there.
     *
     * @return whether it does
     * @throws org.jooq.exception.DataAccessException when the session has ended
     */
    boolean seen(long epoch) {
        return db.update(LEADERSHIP)
                .set(LEADERSHIP.SEEN_AT, currentOffsetDateTime())
                .where(LEADERSHIP.EPOCH.eq(epoch), exists(heldBy(pid)))
                .execute() == 1;
    }

    /**
     * Records, while this session still holds the plan lock for {@code epoch}, that its holder
     * releases it now ({@code leadership.released_at}): the next taking is then a planned one.
     *
     * @return whether it was recorded (the session holds the lock for that epoch)
     * @throws org.jooq.exception.DataAccessException when the session has ended
     */
    boolean releasing(long epoch) {
        return db.update(LEADERSHIP)
                .set(LEADERSHIP.RELEASED_AT, currentOffsetDateTime())
                .set(LEADERSHIP.SEEN_AT, currentOffsetDateTime())
                .where(LEADERSHIP.EPOCH.eq(epoch), exists(heldBy(pid)))
                .execute() == 1;
    }

    /** @return whether this session held the lock (and now does not) */
    boolean unlock() {
        return db.select(function(name("pg_advisory_unlock"), SQLDataType.BOOLEAN, val(KEY_CLASS), val(KEY_PLAN)))
                .fetchSingle().value1();
    }

    /**
     * Makes {@code holder} the holder, in one transaction: increments the fencing epoch, keeping who
     * held it before, and records the handover in {@code handovers} — {@code first} when no one held
     * it, {@code planned} when the one before recorded its release, else {@code crash} (released at
     * the last time it was seen holding the lock, at the latest when it took it).
     *
     * <p>The commit waits for a synchronous standby when the primary names one, at least as {@code
     * synchronous_commit = on} does, whatever this session's default: an epoch a failover can roll back could be
     * taken twice. A commit whose wait for the standby was cancelled (the server then commits on the primary
     * alone, with a warning) is not a tenure.
     *
     * @return the tenure begun
     * @throws Unconfirmed when the commit ended without the standby's confirmation it waited for
     * @throws org.jooq.exception.DataAccessException when the session fails
     */
    Tenure advance(String holder) {
        try {
            connection.clearWarnings();
        } catch (SQLException e) {
            throw new org.jooq.exception.DataAccessException("the lock's session ended", e);
        }
        Tenure tenure = db.transactionResult(config -> {
            if (replication.commitsLocally()) {
                config.dsl().execute("SET LOCAL synchronous_commit = on");
            }
            return advance(config.dsl(), holder, false);
        });
        SQLWarning warning;
        try {
            warning = connection.getWarnings();
        } catch (SQLException e) {
            throw new org.jooq.exception.DataAccessException("the lock's session ended", e);
        }
        if (warning != null) {
            throw new Unconfirmed(tenure.epoch(), warning.getMessage());
        }
        return tenure;
    }

    /**
     * The epoch's commit ended with a warning: the server says it committed on the primary without the
     * standby's confirmation (its wait was cancelled), so a failover could lose it.
     */
    static final class Unconfirmed extends RuntimeException {
        private final long epoch;

        Unconfirmed(long epoch, String warning) {
            super(warning, null, false, false);
            this.epoch = epoch;
        }

        long epoch() {
            return epoch;
        }
    }

    /**
     * Runs {@link #advance}'s statements in a transaction it rolls back, with nothing locked and nothing
     * changed: the leadership row read without {@code FOR UPDATE}, updated where no row matches, and a
     * handover of epochs no controller takes inserted and rolled back. A standby's first taking of the
     * lock then costs its round trips, not the first use of this code (docs/benchmarks.md has what it was cold).
     */
    void rehearse(String holder) {
        try {
            db.transaction(config -> {
                advance(config.dsl(), holder, true);
                throw new Rehearsed();
            });
        } catch (Rehearsed expected) {
            // rolled back, as meant
        }
    }

    /** Ends {@link #rehearse}'s transaction with a rollback. */
    private static final class Rehearsed extends RuntimeException {
        Rehearsed() {
            super("rehearsed", null, false, false);
        }
    }

    private static Tenure advance(DSLContext tx, String holder, boolean rehearsal) {
        LeadershipRecord before = rehearsal ? tx.selectFrom(LEADERSHIP).fetchSingle()
                : tx.selectFrom(LEADERSHIP).forUpdate().fetchSingle();
        var update = tx.update(LEADERSHIP)
                .set(LEADERSHIP.PREVIOUS_HOLDER, LEADERSHIP.HOLDER)
                .set(LEADERSHIP.HOLDER, holder)
                .set(LEADERSHIP.EPOCH, LEADERSHIP.EPOCH.plus(1))
                .set(LEADERSHIP.SINCE, currentOffsetDateTime())
                .set(LEADERSHIP.SEEN_AT, currentOffsetDateTime())
                .setNull(LEADERSHIP.RELEASED_AT)
                .where(rehearsal ? LEADERSHIP.EPOCH.lt(0L) : DSL.noCondition())
                .returning(LEADERSHIP.EPOCH, LEADERSHIP.SINCE);
        Tenure.Takeover takeover = takeover(before);
        long epoch;
        long previousEpoch;
        OffsetDateTime since;
        if (rehearsal) {
            // Matches no row; epochs no controller reaches, so that the insert meets no one's row.
            update.fetchOptional();
            epoch = Long.MAX_VALUE;
            previousEpoch = takeover instanceof Tenure.First ? 0 : Long.MAX_VALUE - 1;
            since = OffsetDateTime.now(ZoneOffset.UTC);
        } else {
            var row = update.fetchSingle();
            epoch = row.getEpoch();
            previousEpoch = before.getEpoch();
            since = row.getSince();
        }
        Tenure tenure = new Tenure(epoch, since.toInstant(), holder, before.getHolder(), previousEpoch, takeover);
        OffsetDateTime released = switch (takeover) {
            case Tenure.First first -> null;
            case Tenure.Planned planned -> before.getReleasedAt();
            case Tenure.Crash crash -> crash.lastSeen().atOffset(ZoneOffset.UTC);
        };
        tx.insertInto(HANDOVERS)
                .set(HANDOVERS.EPOCH_NEW, tenure.epoch())
                .set(HANDOVERS.EPOCH_OLD, tenure.previousEpoch())
                .set(HANDOVERS.FROM_INSTANCE, tenure.previous())
                .set(HANDOVERS.TO_INSTANCE, holder)
                .set(HANDOVERS.RELEASED_AT, released)
                .set(HANDOVERS.TAKEN_AT, since)
                .set(HANDOVERS.GAP_MS, tenure.gap().map(Duration::toMillis).orElse(null))
                .set(HANDOVERS.HOW, takeover.label())
                .execute();
        return tenure;
    }

    private static Tenure.Takeover takeover(LeadershipRecord before) {
        if (before.getEpoch() == 0) {
            return new Tenure.First();
        }
        if (before.getReleasedAt() != null) {
            return new Tenure.Planned(before.getReleasedAt().toInstant());
        }
        OffsetDateTime seen = before.getSeenAt() != null ? before.getSeenAt() : before.getSince();
        return new Tenure.Crash(seen.toInstant());
    }

    /** @return who holds or last held the lock, with the epoch and since when, for messages */
    String leadership() {
        Record row = db.select(LEADERSHIP.HOLDER, LEADERSHIP.EPOCH, LEADERSHIP.SINCE).from(LEADERSHIP).fetchSingle();
        return "holder " + (row.get(LEADERSHIP.HOLDER).isEmpty() ? "(none yet)" : row.get(LEADERSHIP.HOLDER))
                + ", epoch " + row.get(LEADERSHIP.EPOCH) + " since " + row.get(LEADERSHIP.SINCE);
    }

    /** Ends the session; the server frees a lock it still held. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // Closing a connection whose server already ended it: nothing is left to free.
        }
    }
}
