package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.BUILDS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.BUILD_REQUESTS;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.val;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.store.internal.BuildId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record3;

/**
 * The queries of builds (the {@code build_requests} and {@code builds} tables) for
 * {@link PgInventory}, which runs them, fenced or not, and turns their failures into the store's.
 * Stateless, so thread-safe.
 */
final class Builds {

    private static final String SUCCEEDED = "succeeded";
    private static final String FAILED = "failed";

    private Builds() {
    }

    /**
     * @return the builds that succeeded and named their archive, by id, sorted; a success recorded
     *     without one (before builders reported it) is not among them
     */
    static Map<String, Built> done(DSLContext db) {
        Map<String, Built> done = new LinkedHashMap<>();
        db.select(BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT, BUILDS.SHA256, BUILDS.LOCATION)
                .from(BUILDS).where(usable())
                .orderBy(BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT)
                .forEach(row -> {
                    String id = new BuildId(row.value1(), row.value2(), row.value3()).id();
                    done.put(id, new Built(id, row.value4(), row.value5()));
                });
        return Collections.unmodifiableMap(done);
    }

    /** A build that succeeded with its archive: one that is never built again. */
    private static Condition usable() {
        return BUILDS.OUTCOME.eq(SUCCEEDED).and(BUILDS.SHA256.isNotNull());
    }

    /** @return the ids of the builds requested and not finished, sorted */
    static Set<String> requested(DSLContext db) {
        return ids(db.select(BUILD_REQUESTS.MODULE, BUILD_REQUESTS.VERSION, BUILD_REQUESTS.ARTIFACT)
                .from(BUILD_REQUESTS)
                .orderBy(BUILD_REQUESTS.MODULE, BUILD_REQUESTS.VERSION, BUILD_REQUESTS.ARTIFACT)
                .fetch(Builds::id));
    }

    /**
     * Requests the build, unsent: a build requested before and not finished is made unsent again,
     * one that succeeded is left alone.
     *
     * @return whether the build is newly requested: neither requested nor succeeded before
     */
    static boolean request(DSLContext tx, BuildId id) {
        int again = tx.update(BUILD_REQUESTS)
                .setNull(BUILD_REQUESTS.SENT_EPOCH)
                .setNull(BUILD_REQUESTS.SENT_AT)
                .where(request(id))
                .execute();
        return again == 0 && tx.insertInto(BUILD_REQUESTS, BUILD_REQUESTS.MODULE, BUILD_REQUESTS.VERSION,
                        BUILD_REQUESTS.ARTIFACT)
                .select(select(val(id.module()), val(id.version()), val(id.artifact()))
                        .whereNotExists(selectOne().from(BUILDS).where(build(id), usable())))
                .onConflictDoNothing()
                .execute() == 1;
    }

    /** @return the ids of the builds requested and not sent since, sorted */
    static Set<String> unsent(DSLContext db) {
        return ids(db.select(BUILD_REQUESTS.MODULE, BUILD_REQUESTS.VERSION, BUILD_REQUESTS.ARTIFACT)
                .from(BUILD_REQUESTS)
                .where(BUILD_REQUESTS.SENT_EPOCH.isNull())
                .orderBy(BUILD_REQUESTS.MODULE, BUILD_REQUESTS.VERSION, BUILD_REQUESTS.ARTIFACT)
                .fetch(Builds::id));
    }

    /** Records that the build, if requested, was sent with that epoch. */
    static int sent(DSLContext tx, BuildId id, long epoch) {
        return tx.update(BUILD_REQUESTS)
                .set(BUILD_REQUESTS.SENT_EPOCH, epoch)
                .set(BUILD_REQUESTS.SENT_AT, currentOffsetDateTime())
                .where(request(id))
                .execute();
    }

    /**
     * A request row beside a failed outcome is a request since the failure: finishing deletes the
     * request.
     *
     * @return the ids of the builds whose latest outcome is a failure, not requested since, sorted
     */
    static Set<String> failed(DSLContext db) {
        return ids(db.select(BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT)
                .from(BUILDS)
                .where(BUILDS.OUTCOME.eq(FAILED))
                .andNotExists(selectOne().from(BUILD_REQUESTS).where(BUILD_REQUESTS.MODULE.eq(BUILDS.MODULE),
                        BUILD_REQUESTS.VERSION.eq(BUILDS.VERSION), BUILD_REQUESTS.ARTIFACT.eq(BUILDS.ARTIFACT)))
                .orderBy(BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT)
                .fetch(Builds::id));
    }

    /**
     * Ends the request and keeps the build's latest outcome and detail — but a build that succeeded
     * stays built: a late or mistaken failure report does not undo it. The caller runs it in one
     * transaction.
     */
    static int finish(DSLContext tx, BuildId id, Report.Build report) {
        tx.deleteFrom(BUILD_REQUESTS).where(request(id)).execute();
        Built made = report.artifact().orElse(null);
        return tx.insertInto(BUILDS)
                .set(BUILDS.MODULE, id.module())
                .set(BUILDS.VERSION, id.version())
                .set(BUILDS.ARTIFACT, id.artifact())
                .set(BUILDS.OUTCOME, report.succeeded() ? SUCCEEDED : FAILED)
                .set(BUILDS.DETAIL, report.detail())
                .set(BUILDS.SHA256, made == null ? null : made.sha256())
                .set(BUILDS.LOCATION, made == null ? null : made.location())
                .onConflict(BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT).doUpdate()
                .set(BUILDS.OUTCOME, excluded(BUILDS.OUTCOME))
                .set(BUILDS.DETAIL, excluded(BUILDS.DETAIL))
                .set(BUILDS.SHA256, excluded(BUILDS.SHA256))
                .set(BUILDS.LOCATION, excluded(BUILDS.LOCATION))
                .set(BUILDS.FINISHED_AT, currentOffsetDateTime())
                .where(BUILDS.OUTCOME.ne(SUCCEEDED).or(BUILDS.SHA256.isNull()))
                .execute();
    }

    private static Condition build(BuildId id) {
        return BUILDS.MODULE.eq(id.module()).and(BUILDS.VERSION.eq(id.version())).and(BUILDS.ARTIFACT.eq(id.artifact()));
    }

    private static Condition request(BuildId id) {
        return BUILD_REQUESTS.MODULE.eq(id.module()).and(BUILD_REQUESTS.VERSION.eq(id.version()))
                .and(BUILD_REQUESTS.ARTIFACT.eq(id.artifact()));
    }

    private static String id(Record3<String, String, String> row) {
        return new BuildId(row.value1(), row.value2(), row.value3()).id();
    }

    private static Set<String> ids(List<String> sorted) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(sorted));
    }
}
