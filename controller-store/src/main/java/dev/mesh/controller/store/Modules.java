package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.MODULES;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.MODULE_VERSIONS;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.excluded;

import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.JSON;
import org.jooq.Record4;

/**
 * The queries of the {@code module_versions} and {@code modules} tables for {@link PgInventory},
 * which runs them — pushing fenced — and turns their failures into the store's. Manifests are
 * parsed once per module version and kept: a version's content never changes (a push of other
 * content under it is refused). Thread-safe.
 */
final class Modules {

    /** "MODULE@VERSION digest" → the manifest parsed from that version's document. */
    private final Map<String, Manifest> parsed = new ConcurrentHashMap<>();

    /** @return the latest version of every module, by module name */
    List<Manifest> latest(DSLContext db) {
        return db.select(MODULES.NAME, MODULES.LATEST_VERSION, MODULE_VERSIONS.DIGEST, MODULE_VERSIONS.MANIFEST)
                .from(MODULES).join(MODULE_VERSIONS).on(latest())
                .orderBy(MODULES.NAME)
                .fetch(this::manifest);
    }

    /** @return the latest version of that module */
    Optional<Manifest> latest(DSLContext db, String name) {
        return db.select(MODULES.NAME, MODULES.LATEST_VERSION, MODULE_VERSIONS.DIGEST, MODULE_VERSIONS.MANIFEST)
                .from(MODULES).join(MODULE_VERSIONS).on(latest())
                .where(MODULES.NAME.eq(name))
                .fetchOptional(this::manifest);
    }

    /**
     * Records the version, keeping its document as pushed, and makes it the module's latest; the
     * caller runs it in one transaction.
     *
     * @return whether the version is new
     * @throws VerbException {@code conflict} when that version was pushed before with other content
     */
    static boolean push(DSLContext tx, ModuleVersion pushed) {
        String module = pushed.module();
        String version = pushed.version();
        int inserted = tx.insertInto(MODULE_VERSIONS)
                .set(MODULE_VERSIONS.MODULE, module)
                .set(MODULE_VERSIONS.VERSION, version)
                .set(MODULE_VERSIONS.DIGEST, pushed.digest())
                .set(MODULE_VERSIONS.MANIFEST, JSON.valueOf(pushed.document()))
                .onConflictDoNothing()
                .execute();
        if (inserted == 0) {
            String before = tx.select(MODULE_VERSIONS.DIGEST).from(MODULE_VERSIONS)
                    .where(MODULE_VERSIONS.MODULE.eq(module), MODULE_VERSIONS.VERSION.eq(version))
                    .fetchSingle(MODULE_VERSIONS.DIGEST);
            if (!before.equals(pushed.digest())) {
                throw new VerbException(VerbException.Code.CONFLICT, "version " + version + " of module " + module
                        + " was pushed before with other content; give the new content a new version",
                        "/manifest/version");
            }
        }
        tx.insertInto(MODULES)
                .set(MODULES.NAME, module)
                .set(MODULES.LATEST_VERSION, version)
                .onConflict(MODULES.NAME).doUpdate()
                .set(MODULES.LATEST_VERSION, excluded(MODULES.LATEST_VERSION))
                .set(MODULES.UPDATED_AT, currentOffsetDateTime())
                .execute();
        return inserted == 1;
    }

    private static Condition latest() {
        return MODULE_VERSIONS.MODULE.eq(MODULES.NAME).and(MODULE_VERSIONS.VERSION.eq(MODULES.LATEST_VERSION));
    }

    private Manifest manifest(Record4<String, String, String, JSON> row) {
        String module = row.value1();
        String version = row.value2();
        return parsed.computeIfAbsent(module + "@" + version + " " + row.value3(), key -> parse(module, version,
                row.value4()));
    }

    private static Manifest parse(String module, String version, JSON document) {
        try {
            return Manifest.parse(document.data().getBytes(StandardCharsets.UTF_8),
                    "inventory:module_versions/" + module + "@" + version);
        } catch (ManifestException e) {
            throw new StoreException("version " + version + " of module " + module + " in the inventory database is "
                    + "not a valid manifest (" + e.getMessage() + "); push it again under a new version", e);
        }
    }
}
