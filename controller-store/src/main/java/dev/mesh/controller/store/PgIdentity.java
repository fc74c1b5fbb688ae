package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.identity.Tables.PRINCIPALS;
import static dev.mesh.controller.store.internal.schema.identity.Tables.VERB_GRANTS;

import dev.mesh.controller.core.Grants;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The {@link Identity} and the {@link Grants} on the store's {@code identity} database: principals,
 * disabled or not, and their verb grants. Also adds and disables principals, for genesis and for tests.
 *
 * <p>Thread-safe. Methods throw {@link StoreException} when the database fails.
 */
public final class PgIdentity implements Identity, Grants {

    private final DataSource dataSource;
    private final DSLContext db;

    /** @param dataSource a login to the migrated {@code identity} database */
    public PgIdentity(DataSource dataSource) {
        this.dataSource = dataSource;
        this.db = DSL.using(dataSource, SQLDialect.POSTGRES);
    }

    @Override
    public boolean allows(String principal, String verb) {
        if (!Tool.mutates(verb)) {
            return run("check whether " + principal + " may call " + verb, tx -> tx.fetchExists(tx.selectOne()
                    .from(PRINCIPALS).where(PRINCIPALS.NAME.eq(principal), PRINCIPALS.DISABLED_AT.isNull())));
        }
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

    @Override
    public boolean enroll(String principal) {
        return run("add principal " + principal, tx -> tx.insertInto(PRINCIPALS)
                .set(PRINCIPALS.NAME, principal).onConflictDoNothing().execute() > 0);
    }

    @Override
    public List<String> grant(String principal, String... verbs) {
        return run("grant verbs to " + principal, tx -> {
            List<String> granted = new ArrayList<>();
            for (String verb : verbs) {
                if (tx.insertInto(VERB_GRANTS).set(VERB_GRANTS.PRINCIPAL, principal).set(VERB_GRANTS.VERB, verb)
                        .onConflictDoNothing().execute() > 0) {
                    granted.add(verb);
                }
            }
            return List.copyOf(granted);
        });
    }

    @Override
    public boolean revoke(String principal, String verb) {
        return run("revoke " + verb + " from " + principal, tx -> tx.deleteFrom(VERB_GRANTS)
                .where(VERB_GRANTS.PRINCIPAL.eq(principal), VERB_GRANTS.VERB.eq(verb)).execute() > 0);
    }

    @Override
    public List<String> revokeAll(String principal) {
        return run("revoke every verb from " + principal, tx -> tx.deleteFrom(VERB_GRANTS)
                .where(VERB_GRANTS.PRINCIPAL.eq(principal)).returningResult(VERB_GRANTS.VERB).fetch()
                .getValues(VERB_GRANTS.VERB).stream().sorted().toList());
    }

    @Override
    public List<Principal> principals() {
        return run("list the principals", tx -> {
            Map<String, List<String>> grants = tx.select(VERB_GRANTS.PRINCIPAL, VERB_GRANTS.VERB).from(VERB_GRANTS)
                    .orderBy(VERB_GRANTS.VERB).fetchGroups(VERB_GRANTS.PRINCIPAL, VERB_GRANTS.VERB);
            return tx.select(PRINCIPALS.NAME, PRINCIPALS.DISABLED_AT).from(PRINCIPALS).orderBy(PRINCIPALS.NAME)
                    .fetch(row -> new Principal(row.value1(), row.value2() != null,
                            grants.getOrDefault(row.value1(), List.of())));
        });
    }

    /**
     * @return the principals that are not disabled, by name (sorted), each with its granted verbs: who the broker's
     *     permissions and the facts' senders are held to (docs/security.md)
     */
    public Map<String, Set<String>> enabled() {
        Map<String, Set<String>> enabled = new TreeMap<>();
        for (Principal principal : principals()) {
            if (!principal.disabled()) {
                enabled.put(principal.name(), Set.copyOf(principal.verbs()));
            }
        }
        return enabled;
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
