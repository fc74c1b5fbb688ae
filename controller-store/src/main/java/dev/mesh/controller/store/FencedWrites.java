package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.LEADERSHIP;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;

import dev.mesh.controller.core.VerbException;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * Writes that only the current holder of the plan lock may make: each runs in a transaction that
 * first locks the {@code leadership} row ({@code FOR SHARE}) and checks that its epoch is the one
 * the holder took and that the holder's session still holds the advisory lock. The row lock makes
 * the check last until the commit: a controller taking the lock meanwhile waits to increment the
 * epoch until this write is committed, so no write of an old epoch lands after a new one.
 *
 * <p>Thread-safe.
 */
final class FencedWrites implements Writes {

    /** Work in a fenced transaction, given the epoch it is fenced by. */
    @FunctionalInterface
    interface Work<T> {
        T apply(DSLContext tx, long epoch);
    }

    private final DataSource inventory;
    private final DSLContext db;
    private final PgPlanLock lock;

    /**
     * @param inventory the migrated {@code inventory} database the lock is on
     * @param lock the plan lock whose holder writes
     */
    FencedWrites(DataSource inventory, PgPlanLock lock) {
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        this.db = DSL.using(inventory, SQLDialect.POSTGRES);
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /**
     * Runs {@code work} in one transaction, after the fence.
     *
     * @param what what the work does, for messages ("record plan 3")
     * @return what {@code work} returns
     * @throws VerbException {@code unavailable} when the lock was lost, now or before: another
     *     controller took a newer epoch, or the holder's session ended
     * @throws IllegalStateException when the lock is neither held ({@link PgPlanLock#holding}) nor
     *     {@linkplain PgPlanLock#acquire() acquired}
     * @throws StoreException when the database fails
     */
    @Override
    public <T> T write(String what, Function<DSLContext, T> work) {
        return write(what, (tx, epoch) -> work.apply(tx));
    }

    /**
     * Runs {@code work} in one transaction, after the fence, handing it the holder's epoch.
     *
     * @see #write(String, Function)
     */
    <T> T write(String what, Work<T> work) {
        PgPlanLock.Held held = lock.held();
        try {
            return db.transactionResult(config -> {
                DSLContext tx = config.dsl();
                Record3<Long, String, Boolean> fence = tx
                        .select(LEADERSHIP.EPOCH, LEADERSHIP.HOLDER, field(exists(LockSession.heldBy(held.pid()))))
                        .from(LEADERSHIP)
                        .forShare()
                        .fetchSingle();
                if (fence.value1() != held.epoch()) {
                    throw lock.lose("the plan lock was lost to another controller (" + fence.value2() + ") at epoch "
                            + fence.value1() + "; this controller's epoch " + held.epoch() + " could not " + what);
                }
                if (!fence.value3()) {
                    throw lock.lose("the plan lock was lost: its database session (pid " + held.pid() + ") no longer "
                            + "holds it, so epoch " + held.epoch() + " could not " + what);
                }
                return work.apply(tx, held.epoch());
            });
        } catch (DataAccessException e) {
            throw Failure.of(Database.INVENTORY, inventory, what, e);
        }
    }
}
