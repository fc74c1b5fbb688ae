package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.identity.Tables.PRINCIPALS;
import static dev.mesh.controller.store.internal.schema.identity.Tables.VERB_GRANTS;

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

    /**
     * Adds a principal that is not known yet, with no description; leaves a known one — disabled or
     * not — as it is. What {@code mesh-controller grant} does before it grants.
     *
     * @param principal the user id the transports authenticate
     * @return whether it was added
     */
    public boolean enroll(String principal) {
        return run("add principal " + principal, tx -> tx.insertInto(PRINCIPALS)
                .set(PRINCIPALS.NAME, principal).onConflictDoNothing().execute() > 0);
    }

    /**
     * Grants verbs to a principal that exists; granting one twice changes nothing.
     *
     * @return the verbs it was not granted before, in the order given, each once
     */
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

    /**
     * Takes a verb from a principal.
     *
     * @return whether it was granted
     */
    public boolean revoke(String principal, String verb) {
        return run("revoke " + verb + " from " + principal, tx -> tx.deleteFrom(VERB_GRANTS)
                .where(VERB_GRANTS.PRINCIPAL.eq(principal), VERB_GRANTS.VERB.eq(verb)).execute() > 0);
    }

    /**
     * Takes every verb from a principal; the principal stays known, with no grant.
     *
     * @return the verbs it was granted, sorted
     */
    public List<String> revokeAll(String principal) {
        return run("revoke every verb from " + principal, tx -> tx.deleteFrom(VERB_GRANTS)
                .where(VERB_GRANTS.PRINCIPAL.eq(principal)).returningResult(VERB_GRANTS.VERB).fetch()
                .getValues(VERB_GRANTS.VERB).stream().sorted().toList());
    }

    /**
     * A principal as {@link #principals()} lists it.
     *
     * @param name the user id the transports authenticate
     * @param disabled whether it may call nothing, whatever its grants
     * @param verbs its grants, sorted
     */
    public record Principal(String name, boolean disabled, List<String> verbs) {

        /** Checks and copies the parts. */
        public Principal {
            Objects.requireNonNull(name, "name");
            verbs = List.copyOf(verbs);
        }
    }

    /** @return every principal, disabled ones too, sorted by name, each with its grants */
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
