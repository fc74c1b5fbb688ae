package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.REQUEST_RECORDS;

import dev.mesh.controller.core.RequestRecords;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.JSON;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link RequestRecords} on the store's {@code inventory} database ({@code request_records}).
 * The first record for a request id stands; a second is ignored.
 *
 * <p>The record is written after the verb's own writes, not in their transaction (they go through
 * another port): if the controller dies between the two, a retry runs the verb again — which the
 * verbs tolerate, as assigning, unassigning, pushing the same content and requesting a build are
 * each idempotent in effect.
 *
 * <p>Thread-safe. Methods throw {@link StoreException} when the database fails.
 */
public final class PgRequestRecords implements RequestRecords {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final DataSource dataSource;
    private final DSLContext db;
    private final Writes writes;

    private PgRequestRecords(DataSource dataSource, Writes writes) {
        this.dataSource = dataSource;
        this.db = DSL.using(dataSource, SQLDialect.POSTGRES);
        this.writes = writes;
    }

    /**
     * Records that anyone may write: for tools and tests that are not a planning controller.
     *
     * @param dataSource a login to the migrated {@code inventory} database
     */
    public PgRequestRecords(DataSource dataSource) {
        this(Objects.requireNonNull(dataSource, "dataSource"), Writes.plain(dataSource));
    }

    /**
     * The controller's records: like the mutations they record, they are written only by the
     * holder of the plan lock with a current epoch.
     *
     * @param dataSource a login to the migrated {@code inventory} database
     * @param lock the plan lock on the same database
     * @return the fenced records
     */
    public static PgRequestRecords fenced(DataSource dataSource, PgPlanLock lock) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new PgRequestRecords(dataSource, new FencedWrites(dataSource, Objects.requireNonNull(lock, "lock")));
    }

    /**
     * {@inheritDoc}
     *
     * <p>On a data source made by {@link OneTransaction#over}, shared with the inventory: one database
     * transaction for the request's changes and its record. On any other, the work just runs.
     */
    @Override
    public <T> T atomically(Supplier<T> work) {
        return dataSource instanceof OneTransaction one ? one.run(work) : work.get();
    }

    @Override
    public Optional<Recorded> find(String requestId) {
        try {
            return db.selectFrom(REQUEST_RECORDS).where(REQUEST_RECORDS.REQUEST_ID.eq(requestId))
                    .fetchOptional(r -> new Recorded(r.getRequestId(), r.getPrincipal(), r.getVerb(),
                            r.getArgumentsDigest(), MAPPER.readTree(r.getResult().data()), r.getIsError()));
        } catch (DataAccessException e) {
            throw Failure.of(Database.INVENTORY, dataSource, "read the record of request " + requestId, e);
        }
    }

    @Override
    public void record(Recorded recorded) {
        writes.write("record request " + recorded.requestId(), tx -> tx.insertInto(REQUEST_RECORDS)
                .set(REQUEST_RECORDS.REQUEST_ID, recorded.requestId())
                .set(REQUEST_RECORDS.PRINCIPAL, recorded.principal())
                .set(REQUEST_RECORDS.VERB, recorded.verb())
                .set(REQUEST_RECORDS.ARGUMENTS_DIGEST, recorded.argumentsDigest())
                .set(REQUEST_RECORDS.RESULT, JSON.valueOf(MAPPER.writeValueAsString(recorded.result())))
                .set(REQUEST_RECORDS.IS_ERROR, recorded.error())
                .onConflictDoNothing()
                .execute());
    }
}
