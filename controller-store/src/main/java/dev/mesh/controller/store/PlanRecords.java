package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.PLANS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.PLAN_STEPS;
import static org.jooq.impl.DSL.currentOffsetDateTime;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.VerbException;
import java.util.Objects;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.JSON;

/**
 * The plans the controller executes, recorded in the {@code inventory} database so that a
 * controller that takes over resumes them (docs/design.md section 10). Every method is a fenced write:
 * it runs inside {@link PgPlanLock#holding}, in one transaction that checks the holder's epoch, and
 * fails with {@code unavailable} once another controller took the lock.
 *
 * <p>Thread-safe.
 */
public final class PlanRecords {

    private static final String EXECUTING = "executing";

    private final FencedWrites writes;

    /**
     * @param inventory the migrated {@code inventory} database (a pool may serve it)
     * @param lock the plan lock on that database, whose holder writes
     */
    public PlanRecords(DataSource inventory, PgPlanLock lock) {
        this.writes = new FencedWrites(Objects.requireNonNull(inventory, "inventory"), Objects.requireNonNull(lock, "lock"));
    }

    /**
     * Records a plan to execute, under the holder's epoch, with each of its changes
     * {@link StepState#PENDING}; the plan that was executing, if any, is superseded.
     *
     * @return the plan's id
     * @throws VerbException {@code unavailable} when the plan lock was lost
     * @throws IllegalStateException outside {@link PgPlanLock#holding}
     * @throws StoreException when the database fails
     */
    public long start(Plan plan) {
        Objects.requireNonNull(plan, "plan");
        return writes.write("record a new plan", (tx, epoch) -> {
            tx.update(PLANS)
                    .set(PLANS.STATE, "superseded")
                    .set(PLANS.FINISHED_AT, currentOffsetDateTime())
                    .where(PLANS.STATE.eq(EXECUTING))
                    .execute();
            long id = tx.insertInto(PLANS)
                    .set(PLANS.EPOCH, epoch)
                    .set(PLANS.INPUTS_DIGEST, CanonicalJson.digest(plan.inputs()))
                    .set(PLANS.DOCUMENT, JSON.valueOf(CanonicalJson.text(plan)))
                    .returning(PLANS.ID)
                    .fetchSingle()
                    .getId();
            insertSteps(tx, id, plan);
            return id;
        });
    }

    /**
     * Records where one change of a plan stands.
     *
     * @param plan the plan's id, from {@link #start}
     * @param changeId the change's id ({@code NODE/KIND:NAME})
     * @param detail what the node reported, or {@code ""}
     * @throws VerbException {@code unavailable} when the plan lock was lost
     * @throws IllegalArgumentException when the plan has no such change
     * @throws IllegalStateException outside {@link PgPlanLock#holding}
     * @throws StoreException when the database fails
     */
    public void step(long plan, String changeId, StepState state, String detail) {
        Objects.requireNonNull(changeId, "changeId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
        int updated = writes.write("record step " + changeId + " of plan " + plan, tx -> tx.update(PLAN_STEPS)
                .set(PLAN_STEPS.STATE, state.label())
                .set(PLAN_STEPS.DETAIL, detail)
                .set(PLAN_STEPS.UPDATED_AT, currentOffsetDateTime())
                .where(PLAN_STEPS.PLAN_ID.eq(plan), PLAN_STEPS.CHANGE_ID.eq(changeId))
                .execute());
        if (updated == 0) {
            throw new IllegalArgumentException("plan " + plan + " has no change " + changeId);
        }
    }

    /**
     * Records that a plan was executed to its end.
     *
     * @param plan the plan's id, from {@link #start}
     * @throws VerbException {@code unavailable} when the plan lock was lost
     * @throws IllegalArgumentException when that plan is not executing
     * @throws IllegalStateException outside {@link PgPlanLock#holding}
     * @throws StoreException when the database fails
     */
    public void complete(long plan) {
        int updated = writes.write("complete plan " + plan, tx -> tx.update(PLANS)
                .set(PLANS.STATE, "completed")
                .set(PLANS.FINISHED_AT, currentOffsetDateTime())
                .where(PLANS.ID.eq(plan), PLANS.STATE.eq(EXECUTING))
                .execute());
        if (updated == 0) {
            throw new IllegalArgumentException("plan " + plan + " is not executing");
        }
    }

    private static void insertSteps(DSLContext tx, long id, Plan plan) {
        if (plan.changes().isEmpty()) {
            return;
        }
        var insert = tx.insertInto(PLAN_STEPS, PLAN_STEPS.PLAN_ID, PLAN_STEPS.CHANGE_ID);
        for (Plan.Change change : plan.changes()) {
            insert = insert.values(id, change.id());
        }
        insert.execute();
    }
}
