package dev.mesh.controller.store;

import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * How a store class writes: each write one transaction, either {@linkplain #plain plain} or
 * {@linkplain FencedWrites fenced} by the plan lock's epoch. Thread-safe.
 */
interface Writes {

    /**
     * Runs {@code work} in one transaction.
     *
     * @param what what the work does, for messages ("assign web to alpha")
     * @return what {@code work} returns
     * @throws StoreException when the database fails
     * @throws dev.mesh.controller.core.VerbException {@code unavailable} when fenced and the plan lock
     *     was lost
     */
    <T> T write(String what, Function<DSLContext, T> work);

    /** @return writes that anyone may make, each in its own transaction */
    static Writes plain(DataSource database) {
        DSLContext db = DSL.using(Objects.requireNonNull(database, "database"), SQLDialect.POSTGRES);
        return new Writes() {
            @Override
            public <T> T write(String what, Function<DSLContext, T> work) {
                try {
                    return db.transactionResult(config -> work.apply(config.dsl()));
                } catch (DataAccessException e) {
                    throw Failure.of(Database.INVENTORY, database, what, e);
                }
            }
        };
    }
}
