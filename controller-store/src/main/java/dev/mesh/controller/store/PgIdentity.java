package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.identity.Tables.PRINCIPALS;
import static dev.mesh.controller.store.internal.schema.identity.Tables.VERB_GRANTS;

import dev.mesh.controller.core.Identity;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The {@link Identity} on the store's {@code identity} database: principals, disabled or not, and
 * their verb grants. Also adds principals, grants, revokes and disables, for the tools that manage
 * identity and for tests.
 *
 * <p>Thread-safe. Methods throw {@link StoreException} when the database fails.
 */
public final class PgIdentity implements Identity {

    private final DataSource dataSource;
    private final DSLContext db;

    /** @param dataSource a login to the migrated {@code identity} database */
    public PgIdentity(DataSource dataSource) {
        this.dataSource = dataSource;
        this.db = DSL.using(dataSource, SQLDialect.POSTGRES);
    }

    @Override
    public boolean allows(String principal, String verb) {
        return run("check whether " + principal + " may call " + verb, tx -> tx.fetchExists(tx.selectOne()
                .from(VERB_GRANTS).join(PRINCIPALS).on(PRINCIPALS.NAME.eq(VERB_GRANTS.PRINCIPAL))
                .where(VERB_GRANTS.PRINCIPAL.eq(principal), VERB_GRANTS.VERB.eq(verb), PRINCIPALS.DISABLED_AT.isNull())));
    }

    /**
     * Adds a principal, or enables it again; keeps its grants.
     *
     * @param principal the user id the transports authenticate
     * @param description who or what it is
     */
    public void add(String principal, String description) {
        run("add principal " + principal, tx -> tx.insertInto(PRINCIPALS)
                .set(PRINCIPALS.NAME, principal).set(PRINCIPALS.DESCRIPTION, description)
                .onConflict(PRINCIPALS.NAME).doUpdate()
                .set(PRINCIPALS.DESCRIPTION, description).setNull(PRINCIPALS.DISABLED_AT)
                .execute());
    }

    /** Grants verbs to a principal that exists; granting one twice changes nothing. */
    public void grant(String principal, String... verbs) {
        run("grant verbs to " + principal, tx -> {
            for (String verb : verbs) {
                tx.insertInto(VERB_GRANTS).set(VERB_GRANTS.PRINCIPAL, principal).set(VERB_GRANTS.VERB, verb)
                        .onConflictDoNothing().execute();
            }
            return null;
        });
    }

    /** Takes a verb from a principal. */
    public void revoke(String principal, String verb) {
        run("revoke " + verb + " from " + principal, tx -> tx.deleteFrom(VERB_GRANTS)
                .where(VERB_GRANTS.PRINCIPAL.eq(principal), VERB_GRANTS.VERB.eq(verb)).execute());
    }

    /** Disables a principal: it may call nothing until added again; its grants are kept. */
    public void disable(String principal) {
        run("disable principal " + principal, tx -> tx.update(PRINCIPALS)
                .set(PRINCIPALS.DISABLED_AT, DSL.currentOffsetDateTime())
                .where(PRINCIPALS.NAME.eq(principal)).execute());
    }

    private <T> T run(String what, Function<DSLContext, T> work) {
        try {
            return db.transactionResult(configuration -> work.apply(configuration.dsl()));
        } catch (DataAccessException e) {
            throw Failure.of(Database.IDENTITY, dataSource, what, e);
        }
    }
}
