package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.PLANS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.PLAN_STEPS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.VerbException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PlanRecordsIT {

    private static final Plan PLAN = new Plan(Plan.FORMAT, Map.of("mesh", "sha256:1"), List.of(
            new Plan.Change("alpha/container:store", "alpha", List.of("create", "start"), "assigned", List.of()),
            new Plan.Change("beta/container:store", "beta", List.of("create"), "assigned", List.of())),
            List.of(), List.of(), Map.of("create", 2));

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private DataSource source;
    private PgPlanLock lock;
    private PlanRecords records;

    @BeforeEach
    void open() {
        Endpoint inventory = databases.migrated(Database.INVENTORY);
        source = inventory.dataSource();
        lock = PgPlanLock.of(inventory, source, "ctl-a", Duration.ofSeconds(10));
        records = new PlanRecords(source, lock);
    }

    @AfterEach
    void close() {
        lock.close();
    }

    @Test
    void start_recordsThePlanUnderTheEpoch_withEveryChangePending_andSupersedesTheOneExecuting() {
        long first = tenure(() -> records.start(PLAN));
        long second = tenure(() -> {
            long id = records.start(PLAN);
            records.step(id, "alpha/container:store", StepState.DONE, "started");
            return id;
        });

        DSLContext db = DSL.using(source, SQLDialect.POSTGRES);
        assertThat(db.select(PLANS.ID, PLANS.EPOCH, PLANS.STATE).from(PLANS).orderBy(PLANS.ID).fetch()
                .map(r -> r.value1() + "@" + r.value2() + ":" + r.value3()))
                .containsExactly(first + "@1:superseded", second + "@2:executing");
        assertThat(db.select(PLAN_STEPS.CHANGE_ID, PLAN_STEPS.STATE, PLAN_STEPS.DETAIL).from(PLAN_STEPS)
                .where(PLAN_STEPS.PLAN_ID.eq(second)).orderBy(PLAN_STEPS.CHANGE_ID).fetch()
                .map(r -> r.value1() + " " + r.value2() + " " + r.value3()))
                .containsExactly("alpha/container:store done started", "beta/container:store pending ");

        tenure(() -> {
            records.complete(second);
            return null;
        });
        assertThat(db.select(PLANS.STATE).from(PLANS).where(PLANS.ID.eq(second)).fetchSingle().value1())
                .isEqualTo("completed");
    }

    @Test
    void step_unknownChange_isRefused() {
        assertThatThrownBy(() -> tenure(() -> {
            long id = records.start(PLAN);
            records.step(id, "gamma/container:store", StepState.RUNNING, "");
            return id;
        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("plan \\d+ has no change gamma/container:store");
    }

    @Test
    void writes_afterAnotherControllerTookTheLock_areRefused() {
        PgPlanLock other = PgPlanLock.of(databases.endpoint(Database.INVENTORY), source, "ctl-b", Duration.ofSeconds(10));
        try {
            lock.acquire();
            assertThatThrownBy(() -> lock.holding(() -> {
                long id = records.start(PLAN);
                databases.terminate(lock.sessionPid().orElseThrow());
                other.acquire();
                other.holding(() -> new PlanRecords(source, other).start(PLAN));
                records.step(id, "alpha/container:store", StepState.DONE, "");
                return id;
            }))
                    .isInstanceOf(VerbException.class)
                    .hasMessage("the plan lock was lost to another controller (ctl-b) at epoch 2; this controller's "
                            + "epoch 1 could not record step alpha/container:store of plan 1; this controller stops "
                            + "planning");
        } finally {
            other.close();
        }
    }

    /** Runs {@code work} in a tenure of its own: the lock acquired, and released after it. */
    private <T> T tenure(Supplier<T> work) {
        lock.acquire();
        try {
            return lock.holding(work);
        } finally {
            lock.release();
        }
    }
}
