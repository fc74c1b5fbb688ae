package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.ACKNOWLEDGED_DECLARATIONS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.DESIRED_DECLARATIONS;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.select;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.plan.DeclarationReader;
import dev.mesh.controller.manifest.ManifestException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.JSON;
import org.jooq.impl.DSL;

/**
 * The queries of the {@code desired_declarations} table (one declaration per node, by revision)
 * and of the {@code acknowledged_declarations} table, also acknowledging by revision, for {@link PgInventory}, which runs them — recording a desired
 * declaration fenced, acknowledging not — and turns their failures into the store's. Stateless, so
 * thread-safe.
 */
final class DesiredDeclarations {

    private DesiredDeclarations() {
    }

    /**
     * Records the node's desired declaration, unless it is desired with that revision already.
     *
     * @return {@code true} when the node had no desired declaration of that revision
     */
    static boolean desire(DSLContext tx, Declaration declaration) {
        return tx.insertInto(DESIRED_DECLARATIONS)
                .set(DESIRED_DECLARATIONS.NODE, declaration.node())
                .set(DESIRED_DECLARATIONS.REVISION, declaration.revision())
                .set(DESIRED_DECLARATIONS.DECLARATION, JSON.valueOf(CanonicalJson.text(declaration)))
                .onConflict(DESIRED_DECLARATIONS.NODE).doUpdate()
                .set(DESIRED_DECLARATIONS.REVISION, excluded(DESIRED_DECLARATIONS.REVISION))
                .set(DESIRED_DECLARATIONS.DECLARATION, excluded(DESIRED_DECLARATIONS.DECLARATION))
                .set(DESIRED_DECLARATIONS.PLAN_ID, (Long) null)
                .set(DESIRED_DECLARATIONS.UPDATED_AT, currentOffsetDateTime())
                // The same revision is the same bytes: nothing to write, and nothing new to say.
                .where(DESIRED_DECLARATIONS.REVISION.ne(excluded(DESIRED_DECLARATIONS.REVISION)))
                .execute() == 1;
    }

    /**
     * @return each node's desired declaration, by node name
     * @throws StoreException when a stored declaration cannot be read
     */
    static Map<String, Declaration> read(DSLContext db) {
        Map<String, Declaration> declarations = new LinkedHashMap<>();
        db.selectFrom(DESIRED_DECLARATIONS).orderBy(DESIRED_DECLARATIONS.NODE).forEach(row ->
                declarations.put(row.getNode(), declaration(row.getNode(), row.getDeclaration())));
        return Map.copyOf(declarations);
    }

    /**
     * Copies the node's desired declaration into its acknowledged one, in one statement, when its
     * revision is {@code revision}.
     *
     * @return {@code true} when it did (also when it was acknowledged already)
     */
    static boolean acknowledge(DSLContext db, String node, String revision) {
        return db.insertInto(ACKNOWLEDGED_DECLARATIONS, ACKNOWLEDGED_DECLARATIONS.NODE,
                        ACKNOWLEDGED_DECLARATIONS.REVISION, ACKNOWLEDGED_DECLARATIONS.DECLARATION)
                .select(select(DESIRED_DECLARATIONS.NODE, DESIRED_DECLARATIONS.REVISION,
                        DESIRED_DECLARATIONS.DECLARATION)
                        .from(DESIRED_DECLARATIONS)
                        .where(DESIRED_DECLARATIONS.NODE.eq(node), DESIRED_DECLARATIONS.REVISION.eq(revision)))
                .onConflict(ACKNOWLEDGED_DECLARATIONS.NODE).doUpdate()
                .set(ACKNOWLEDGED_DECLARATIONS.REVISION, excluded(ACKNOWLEDGED_DECLARATIONS.REVISION))
                .set(ACKNOWLEDGED_DECLARATIONS.DECLARATION, excluded(ACKNOWLEDGED_DECLARATIONS.DECLARATION))
                .set(ACKNOWLEDGED_DECLARATIONS.ACKNOWLEDGED_AT, currentOffsetDateTime())
                .execute() == 1;
    }

    /**
     * Reads each node's acknowledged declaration; one whose node and revision are among {@code known} is
     * neither fetched nor parsed again, but taken from there (a revision is the digest of its
     * declaration's canonical JSON, so the same node and revision are the same declaration). One
     * statement.
     *
     * @param known declarations read before, by {@link #key}
     * @return each node's acknowledged declaration, by node name
     * @throws StoreException when a stored declaration cannot be read
     */
    static Map<String, Declaration> acknowledged(DSLContext db, Map<String, Declaration> known) {
        Map<String, Declaration> declarations = new LinkedHashMap<>();
        // The known keys joined by hash: a row among them comes without its declaration.
        db.resultQuery("SELECT a.node, a.revision, CASE WHEN k.key IS NULL THEN a.declaration::text END "
                        + "FROM acknowledged_declarations a LEFT JOIN unnest({0}::text[]) AS k(key) "
                        + "ON k.key = a.node || ' ' || a.revision ORDER BY a.node",
                        DSL.val(known.keySet().toArray(String[]::new)))
                .forEach(row -> {
                    String node = row.get(0, String.class);
                    String json = row.get(2, String.class);
                    declarations.put(node, json == null ? known.get(key(node, row.get(1, String.class)))
                            : acknowledged(node, JSON.valueOf(json)));
                });
        return Map.copyOf(declarations);
    }

    /** @return the key of a declaration read, for {@link #acknowledged(DSLContext, Map)}: node and revision */
    static String key(String node, String revision) {
        return node + " " + revision;
    }

    /** Records the declaration the node reports it applied, replacing the one before. */
    static int acknowledge(DSLContext db, Declaration declaration) {
        return db.insertInto(ACKNOWLEDGED_DECLARATIONS)
                .set(ACKNOWLEDGED_DECLARATIONS.NODE, declaration.node())
                .set(ACKNOWLEDGED_DECLARATIONS.REVISION, declaration.revision())
                .set(ACKNOWLEDGED_DECLARATIONS.DECLARATION, JSON.valueOf(CanonicalJson.text(declaration)))
                .onConflict(ACKNOWLEDGED_DECLARATIONS.NODE).doUpdate()
                .set(ACKNOWLEDGED_DECLARATIONS.REVISION, excluded(ACKNOWLEDGED_DECLARATIONS.REVISION))
                .set(ACKNOWLEDGED_DECLARATIONS.DECLARATION, excluded(ACKNOWLEDGED_DECLARATIONS.DECLARATION))
                .set(ACKNOWLEDGED_DECLARATIONS.ACKNOWLEDGED_AT, currentOffsetDateTime())
                .execute();
    }

    private static Declaration acknowledged(String node, JSON json) {
        try {
            return DeclarationReader.read(json.data().getBytes(StandardCharsets.UTF_8),
                    "inventory:acknowledged_declarations/" + node);
        } catch (ManifestException e) {
            throw new StoreException("the declaration node " + node + " acknowledged, as the inventory database holds "
                    + "it, cannot be read (" + e.getMessage() + "); it is replaced at the node's next report", e);
        }
    }

    private static Declaration declaration(String node, JSON json) {
        try {
            return DeclarationReader.read(json.data().getBytes(StandardCharsets.UTF_8),
                    "inventory:desired_declarations/" + node);
        } catch (ManifestException e) {
            throw new StoreException("the declaration desired for node " + node + ", as the inventory database holds "
                    + "it, cannot be read (" + e.getMessage() + "); it is replaced when the node is planned again", e);
        }
    }
}
