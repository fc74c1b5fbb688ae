package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.licences.Tables.LICENCES;

import dev.mesh.controller.core.Licences;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The {@link Licences} on the store's {@code licences} database: one row per limited module. Also
 * grants and revokes, for the tools that manage licences and for tests.
 *
 * <p>Thread-safe. Methods throw {@link StoreException} when the database fails.
 */
public final class PgLicences implements Licences {

    private final DataSource dataSource;
    private final DSLContext db;

    /** @param dataSource a login to the migrated {@code licences} database */
    public PgLicences(DataSource dataSource) {
        this.dataSource = dataSource;
        this.db = DSL.using(dataSource, SQLDialect.POSTGRES);
    }

    @Override
    public Optional<Licence> licence(String module) {
        try {
            return db.selectFrom(LICENCES).where(LICENCES.MODULE.eq(module)).fetchOptional(r -> new Licence(
                    r.getModule(), r.getMaxNodes(), r.getExpiresAt().toInstant()));
        } catch (DataAccessException e) {
            throw Failure.of(Database.LICENCES, dataSource, "read the licence of module " + module, e);
        }
    }

    /**
     * Grants or replaces a module's licence.
     *
     * @param module the module
     * @param nodes on how many nodes it may be assigned, 0 or more
     * @param expires from when it may no longer be assigned
     */
    public void grant(String module, int nodes, Instant expires) {
        Licence licence = new Licence(module, nodes, expires);
        try {
            db.insertInto(LICENCES)
                    .set(LICENCES.MODULE, licence.module())
                    .set(LICENCES.MAX_NODES, licence.nodes())
                    .set(LICENCES.EXPIRES_AT, licence.expires().atOffset(ZoneOffset.UTC))
                    .onConflict(LICENCES.MODULE).doUpdate()
                    .set(LICENCES.MAX_NODES, licence.nodes())
                    .set(LICENCES.EXPIRES_AT, licence.expires().atOffset(ZoneOffset.UTC))
                    .set(LICENCES.UPDATED_AT, DSL.currentOffsetDateTime())
                    .execute();
        } catch (DataAccessException e) {
            throw Failure.of(Database.LICENCES, dataSource, "grant the licence of module " + module, e);
        }
    }

    /** Removes a module's licence: it is no longer limited. */
    public void revoke(String module) {
        try {
            db.deleteFrom(LICENCES).where(LICENCES.MODULE.eq(module)).execute();
        } catch (DataAccessException e) {
            throw Failure.of(Database.LICENCES, dataSource, "revoke the licence of module " + module, e);
        }
    }
}
