package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.HANDOVERS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.LEADERSHIP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import dev.mesh.controller.core.Secret;

import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.core.VerbException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PgPlanLock} and {@link FencedWrites} on the real PostgreSQL: mutual exclusion, epochs, fencing. */
class PgPlanLockIT {

    /** A counter that only a fenced read-modify-write changes: exact only under mutual exclusion. */
    private static final Table<?> COUNTER = table(name("fence_counter"));
    private static final Field<Long> VALUE = field(name("value"), Long.class);

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private final List<PgPlanLock> locks = new ArrayList<>();
    private Endpoint inventory;
    private ConnectionPool pool;
    private DataSource source;

    @BeforeEach
    void migrate() {
        inventory = databases.migrated(Database.INVENTORY);
        // Plan writes go through a pool, as the controller's will; the lock has its own session.
        pool = ConnectionPool.open(inventory, 4);
        source = pool.dataSource();
        DSLContext db = DSL.using(source, SQLDialect.POSTGRES);
        db.createTable(COUNTER).column(VALUE.getName(), SQLDataType.BIGINT.notNull()).execute();
        db.insertInto(COUNTER).columns(VALUE).values(0L).execute();
    }

    @AfterEach
    void close() {
        locks.forEach(PgPlanLock::close);
        pool.close();
    }

    @Test
    void acquire_takesTheNextEpoch_andRecordsTheHolders() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(10));

        assertThat(a.epoch()).isZero();
        Tenure first = a.acquire();
        assertThat(first.epoch()).isEqualTo(1);
        assertThat(first.holder()).isEqualTo("ctl-a");
        assertThat(first.previous()).isEmpty();
        assertThat(a.holding(() -> a.holding(a::epoch))).as("reentrant: no new epoch").isEqualTo(1);
        a.release();
        Tenure second = b.acquire();

        assertThat(second.epoch()).isEqualTo(2);
        assertThat(second.previous()).isEqualTo("ctl-a");
        assertThat(second.since()).isAfterOrEqualTo(first.since());
        assertThat(a.epoch()).as("read while not holding: the last holder's").isEqualTo(2);
        var row = DSL.using(source, SQLDialect.POSTGRES).selectFrom(LEADERSHIP).fetchSingle();
        assertThat(row.getHolder()).isEqualTo("ctl-b");
        assertThat(row.getPreviousHolder()).isEqualTo("ctl-a");
    }

    @Test
    void everyTaking_isARowOfHandovers_inTheTransactionOfItsEpoch_firstThenPlannedThenCrash() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(10));

        Tenure first = a.acquire();
        a.release();
        Tenure planned = b.acquire();
        b.check();
        assertThat(databases.terminate(b.sessionPid().orElseThrow())).isTrue();
        Tenure crash = a.acquire();

        var rows = DSL.using(source, SQLDialect.POSTGRES).selectFrom(HANDOVERS).orderBy(HANDOVERS.EPOCH_NEW).fetch();
        assertThat(rows).hasSize(3);
        var one = rows.get(0);
        assertThat(List.of(one.getEpochNew(), one.getEpochOld())).containsExactly(1L, 0L);
        assertThat(List.of(one.getFromInstance(), one.getToInstance(), one.getHow())).containsExactly("", "ctl-a",
                "first");
        assertThat(one.getReleasedAt()).isNull();
        assertThat(one.getGapMs()).isNull();
        assertThat(one.getTakenAt().toInstant()).isEqualTo(first.since());

        var two = rows.get(1);
        assertThat(List.of(two.getEpochNew(), two.getEpochOld())).containsExactly(2L, 1L);
        assertThat(List.of(two.getFromInstance(), two.getToInstance(), two.getHow())).containsExactly("ctl-a", "ctl-b",
                "planned");
        assertThat(two.getReleasedAt().toInstant()).isAfterOrEqualTo(first.since()).isBeforeOrEqualTo(planned.since());
        assertThat(two.getGapMs()).isNotNegative()
                .isEqualTo(Duration.between(two.getReleasedAt(), two.getTakenAt()).toMillis())
                .isEqualTo(planned.gap().orElseThrow().toMillis());
        assertThat(planned.takeover()).isEqualTo(new Tenure.Planned(two.getReleasedAt().toInstant()));

        var three = rows.get(2);
        assertThat(List.of(three.getEpochNew(), three.getEpochOld())).containsExactly(3L, 2L);
        assertThat(List.of(three.getFromInstance(), three.getToInstance(), three.getHow())).containsExactly("ctl-b",
                "ctl-a", "crash");
        assertThat(three.getReleasedAt().toInstant()).as("ctl-b last seen: its check")
                .isAfter(planned.since()).isBeforeOrEqualTo(crash.since());
        assertThat(three.getGapMs()).isNotNegative().isEqualTo(crash.gap().orElseThrow().toMillis());
        assertThat(crash.takeover()).isEqualTo(new Tenure.Crash(three.getReleasedAt().toInstant()));
        assertThat(crash.previous()).isEqualTo("ctl-b");

        var leadership = DSL.using(source, SQLDialect.POSTGRES).selectFrom(LEADERSHIP).fetchSingle();
        assertThat(leadership.getReleasedAt()).as("held: not released").isNull();
        assertThat(leadership.getSeenAt().toInstant()).isEqualTo(crash.since());
        a.release();
        assertThat(DSL.using(source, SQLDialect.POSTGRES).selectFrom(LEADERSHIP).fetchSingle().getReleasedAt())
                .isNotNull();
    }

    @Test
    void warm_rehearsesTheTaking_changingNothing_whetherFirstPlannedOrHeld_andKeepsItsSession() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(10));
        DSLContext db = DSL.using(source, SQLDialect.POSTGRES);

        b.warm(); // no one took the lock yet: the rehearsal is of a first taking
        assertThat(db.fetchCount(table(name("pg_stat_activity")),
                field(name("application_name")).eq("mesh-controller plan lock (ctl-b)")))
                .as("the rehearsal did not fail, which drops the session").isEqualTo(1);
        assertThat(db.fetchCount(HANDOVERS)).isZero();
        assertThat(db.selectFrom(LEADERSHIP).fetchSingle().getEpoch()).isZero();

        a.acquire();
        var held = db.selectFrom(LEADERSHIP).fetchSingle();
        b.warm(); // held by a: nothing of a's row is locked or changed
        assertThat(a.holding(() -> db.selectFrom(LEADERSHIP).forUpdate().noWait().fetchSingle()))
                .as("the leadership row is not left locked").isEqualTo(held);
        a.release();
        var released = db.selectFrom(LEADERSHIP).fetchSingle();
        b.warm(); // released by a: a planned taking rehearsed
        assertThat(db.selectFrom(LEADERSHIP).fetchSingle()).isEqualTo(released);
        assertThat(db.selectFrom(HANDOVERS).fetch(HANDOVERS.EPOCH_NEW)).containsExactly(1L);

        Tenure planned = b.acquire();
        assertThat(planned.epoch()).isEqualTo(2);
        assertThat(planned.takeover()).isInstanceOf(Tenure.Planned.class);
        assertThat(db.selectFrom(HANDOVERS).orderBy(HANDOVERS.EPOCH_NEW).fetch(HANDOVERS.EPOCH_NEW))
                .containsExactly(1L, 2L);
    }

    @Test
    void release_afterTheSessionEnded_isNoPlannedRelease_theNextTakingIsACrash() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(10));
        Tenure first = a.acquire();
        assertThat(databases.terminate(a.sessionPid().orElseThrow())).isTrue();
        a.release();

        Tenure next = b.acquire();

        assertThat(next.takeover()).isEqualTo(new Tenure.Crash(first.since()));
        assertThat(next.previous()).isEqualTo("ctl-a");
        assertThat(DSL.using(source, SQLDialect.POSTGRES).select(HANDOVERS.HOW).from(HANDOVERS)
                .where(HANDOVERS.EPOCH_NEW.eq(next.epoch())).fetchSingle().value1()).isEqualTo("crash");
    }

    @Test
    void twoControllersInParallel_neverBothWrite_andEachHolderHasANewerEpoch() throws Exception {
        int rounds = 100;
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(30));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(30));
        List<Long> epochs = Collections.synchronizedList(new ArrayList<>());
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (PgPlanLock lock : List.of(a, b)) {
                FencedWrites writes = new FencedWrites(source, lock);
                done.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        lock.acquire();
                        lock.holding(() -> {
                            epochs.add(lock.epoch());
                            long value = writes.write("read the counter",
                                    tx -> tx.select(VALUE).from(COUNTER).fetchSingle().value1());
                            return writes.write("write the counter",
                                    tx -> tx.update(COUNTER).set(VALUE, value + 1).execute());
                        });
                        lock.release();
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(DSL.using(source, SQLDialect.POSTGRES).select(VALUE).from(COUNTER).fetchSingle().value1())
                .isEqualTo(2L * rounds);
        assertThat(epochs).hasSize(2 * rounds).isSorted().doesNotHaveDuplicates();
        assertThat(epochs.getLast()).isEqualTo(2L * rounds);
    }

    @Test
    void sessionTerminatedWhileHeld_nextFencedWriteFails_andTheNextAcquireTakesANewEpoch() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        FencedWrites writes = new FencedWrites(source, a);
        a.acquire();

        assertThatThrownBy(() -> a.holding(() -> {
            assertThat(databases.terminate(a.sessionPid().orElseThrow())).isTrue();
            return writes.write("write the counter", tx -> tx.update(COUNTER).set(VALUE, 1L).execute());
        }))
                .isInstanceOf(VerbException.class)
                .hasMessageMatching("the plan lock was lost: its database session \\(pid \\d+\\) no longer holds it, so "
                        + "epoch 1 could not write the counter; this controller stops planning")
                .extracting(e -> ((VerbException) e).code()).isEqualTo(VerbException.Code.UNAVAILABLE);

        assertThat(a.tenure()).as("lost: no longer acquired").isEmpty();
        assertThatThrownBy(() -> a.holding(() -> "more plan work"))
                .isInstanceOf(VerbException.class)
                .hasMessageStartingWith("the plan lock was lost: its database session");
        assertThat(counter()).isZero();

        assertThat(a.acquire().epoch()).as("a lost lock is not final").isEqualTo(2);
        a.holding(() -> writes.write("write the counter", tx -> tx.update(COUNTER).set(VALUE, 3L).execute()));
        assertThat(counter()).isEqualTo(3);
    }

    @Test
    void check_findsASessionThatEnded_beforeAnyPlanWork() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        a.acquire();
        a.check();
        assertThat(a.tenure()).as("held: nothing found").isPresent();

        assertThat(databases.terminate(a.sessionPid().orElseThrow())).isTrue();
        a.check();

        assertThat(a.tenure()).as("lost, found without a write").isEmpty();
        assertThatThrownBy(() -> a.holding(() -> "plan work"))
                .isInstanceOf(VerbException.class)
                .hasMessageMatching("the plan lock was lost: its database session \\(pid \\d+\\) ended while epoch 1 "
                        + "held it; this controller stops planning");
        assertThat(a.acquire().epoch()).isEqualTo(2);
    }

    @Test
    void lateWriteAfterAnotherControllerTookTheLock_isRefusedByTheEpoch() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofSeconds(10));
        FencedWrites aWrites = new FencedWrites(source, a);
        FencedWrites bWrites = new FencedWrites(source, b);
        a.acquire();

        assertThatThrownBy(() -> a.holding(() -> {
            databases.terminate(a.sessionPid().orElseThrow());
            // The standby takes over: a's session is gone, so the advisory lock is free.
            b.acquire();
            b.holding(() -> bWrites.write("write the counter", tx -> tx.update(COUNTER).set(VALUE, 7L).execute()));
            return aWrites.write("write the counter", tx -> tx.update(COUNTER).set(VALUE, 1L).execute());
        }))
                .isInstanceOf(VerbException.class)
                .hasMessage("the plan lock was lost to another controller (ctl-b) at epoch 2; this controller's epoch 1 "
                        + "could not write the counter; this controller stops planning");

        assertThat(counter()).isEqualTo(7);
        assertThatThrownBy(() -> a.holding(() -> "more plan work")).isInstanceOf(VerbException.class);
        assertThat(b.holding(b::epoch)).as("the other controller goes on").isEqualTo(2);
    }

    @Test
    void sessionEndedWhileNotHeld_losesNothing_theNextAcquireOpensANewOne() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        a.acquire();
        int pid = a.sessionPid().orElseThrow();
        a.release();

        assertThat(databases.terminate(pid)).isTrue();

        assertThat(a.acquire().epoch()).isEqualTo(2);
        assertThat(a.sessionPid().orElseThrow()).isNotEqualTo(pid);
    }

    @Test
    void lockKeptByAnotherController_acquireGivesUpAfterTheWait_namingTheHolder() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        PgPlanLock b = lock("ctl-b", Duration.ofMillis(200));
        a.acquire();

        assertThatThrownBy(b::acquire)
                .isInstanceOf(VerbException.class)
                .hasMessageMatching("the plan lock is held by another controller \\(holder ctl-a, epoch 1 since .+\\) "
                        + "and did not come free within 200 ms; retry later")
                .extracting(e -> ((VerbException) e).code()).isEqualTo(VerbException.Code.UNAVAILABLE);
        assertThat(b.tenure()).isEmpty();
        a.release();

        assertThat(b.acquire().epoch()).as("b is not lost: it only waited").isEqualTo(2);
    }

    @Test
    void holding_withoutAcquire_isUnavailable_andAFencedWriteAProgrammingError() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));

        assertThatThrownBy(() -> a.holding(() -> "plan work"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo("ctl-a does not hold the plan lock: plan work runs only "
                            + "while this controller is active");
                });
        assertThatThrownBy(() -> new FencedWrites(source, a).write("write the counter", tx -> 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a plan write must run after PlanLock.acquire (ctl-a does not hold the plan lock)");
        assertThat(a.epoch()).as("nothing was taken").isZero();
    }

    @Test
    void acquire_keepsOneEpochForEveryWorkUntilReleased() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        FencedWrites writes = new FencedWrites(source, a);

        assertThat(a.acquire().epoch()).isEqualTo(1);
        assertThat(a.acquire().epoch()).as("acquired already: the same epoch").isEqualTo(1);
        assertThat(a.holding(a::epoch)).isEqualTo(1);
        assertThat(a.holding(a::epoch)).isEqualTo(1);
        writes.write("write the counter", tx -> tx.update(COUNTER).set(VALUE, 5L).execute());
        a.release();

        assertThat(counter()).isEqualTo(5);
        assertThat(a.tenure()).isEmpty();
        assertThatThrownBy(() -> a.holding(a::epoch)).as("released: no plan work").isInstanceOf(VerbException.class);
        assertThatThrownBy(() -> writes.write("write the counter", tx -> 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void unreachableDatabase_isUnavailable_withTheAddress() {
        Endpoint nowhere = new Endpoint("127.0.0.1", 1, "inventory", "postgres", Secret.of("secret-password"));
        PgPlanLock lock = PgPlanLock.of(nowhere, source, "ctl-a", Duration.ofSeconds(1));
        locks.add(lock);

        assertThatThrownBy(lock::acquire)
                .isInstanceOf(VerbException.class)
                .hasMessageStartingWith("could not take the plan lock in the inventory database at "
                        + "postgresql://postgres@127.0.0.1:1/inventory: nothing accepts connections there")
                .message().doesNotContain("secret-password");
        assertThat(lock.toString()).isEqualTo("PgPlanLock[ctl-a on postgresql://postgres@127.0.0.1:1/inventory, not held]");
    }

    @Test
    void leaseExpired_theFrozenHoldersSessionsAreEnded_theWaiterTakesTheNextEpochAsACrash_lateWritesRefused()
            throws Exception {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        FencedWrites aWrites = new FencedWrites(source, a);
        a.acquire();
        DSLContext db = DSL.using(source, SQLDialect.POSTGRES);
        // Frozen: a was last seen a minute ago, and one of its fenced writes holds the leadership row.
        db.update(LEADERSHIP).set(LEADERSHIP.SEEN_AT, java.time.OffsetDateTime.now().minusMinutes(1)).execute();
        try (java.sql.Connection frozenWrite = inventory.dataSource().getConnection()) {
            frozenWrite.setAutoCommit(false);
            try (var statement = frozenWrite.createStatement()) {
                statement.execute("SELECT epoch FROM leadership FOR SHARE");
            }
            PgPlanLock b = PgPlanLock.of(inventory, source, "ctl-b", Duration.ofSeconds(10))
                    .withLease(Duration.ofSeconds(1));
            locks.add(b);

            long started = System.nanoTime();
            Tenure taken = b.acquire();
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertThat(taken.epoch()).isEqualTo(2);
            assertThat(taken.previous()).isEqualTo("ctl-a");
            assertThat(taken.takeover()).isInstanceOf(Tenure.Crash.class);
            assertThat(tookMs).as("one lease check after the first slice, not the whole wait").isLessThan(5_000);
            assertThatThrownBy(() -> frozenWrite.createStatement().execute("SELECT 1"))
                    .as("the frozen write's session was ended").isInstanceOf(java.sql.SQLException.class);
        }
        // Thawed: a finds its lock lost, and its late write is refused.
        a.check();
        assertThat(a.tenure()).isEmpty();
        assertThatThrownBy(() -> a.holding(() -> aWrites.write("write the counter",
                tx -> tx.update(COUNTER).set(VALUE, 1L).execute()))).isInstanceOf(VerbException.class);
        assertThat(counter()).isZero();
    }

    /**
     * What an event on NATS (which nothing fences) is published under: within the lease the lock is confirmed
     * without asking the store; past it, the store is asked again, and a holder whose lock another controller took
     * meanwhile (its lease expired while it was frozen) finds it lost there and is not confirmed.
     */
    @Test
    void confirmed_withinTheLease_thenOnlyWhatTheStoreConfirmsAgain() throws Exception {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10)).withLease(Duration.ofSeconds(1));
        locks.add(a);
        assertThat(a.confirmed()).as("not acquired").isFalse();
        a.acquire();
        assertThat(a.confirmed()).as("just taken").isTrue();

        awaitPastTheLease(a);
        assertThat(a.confirmed()).as("past the lease: the store asked again, still held").isTrue();
        assertThat(a.tenure()).isPresent();

        // Frozen: a unseen for a minute; b ends its session and takes the lock as a crash.
        DSL.using(source, SQLDialect.POSTGRES).update(LEADERSHIP)
                .set(LEADERSHIP.SEEN_AT, java.time.OffsetDateTime.now().minusMinutes(1)).execute();
        PgPlanLock b = PgPlanLock.of(inventory, source, "ctl-b", Duration.ofSeconds(10))
                .withLease(Duration.ofSeconds(1));
        locks.add(b);
        assertThat(b.acquire().epoch()).isEqualTo(2);
        awaitPastTheLease(a);

        assertThat(a.confirmed()).as("thawed past its lease, its lock taken").isFalse();
        assertThat(a.tenure()).as("found lost on the way").isEmpty();
        assertThat(b.confirmed()).isTrue();
    }

    @Test
    void check_waitsItsTurnBehindPlanWork_andRenewsTheLease() throws Exception {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        a.acquire();
        DSLContext db = DSL.using(source, SQLDialect.POSTGRES);
        db.update(LEADERSHIP).set(LEADERSHIP.SEEN_AT, java.time.OffsetDateTime.now().minusMinutes(1)).execute();
        CountDownLatch working = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            Future<Object> work = executor.submit(() -> a.holding(() -> {
                working.countDown();
                try {
                    done.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }));
            working.await();

            // The check's thread, seen parked in its wait for the turn (a lock's tryLock, which gives up after
            // CHECK_WAIT): the work is let go at once then, so that the check has its turn however loaded the machine.
            java.util.concurrent.CompletableFuture<Thread> checking = new java.util.concurrent.CompletableFuture<>();
            Future<?> checked = executor.submit(() -> {
                checking.complete(Thread.currentThread());
                a.check();
            });
            Thread checker = checking.get(10, TimeUnit.SECONDS);
            Awaitility.await("check waits while the plan work holds the lock").pollInterval(Duration.ofMillis(1))
                    .atMost(Duration.ofSeconds(10)).until(() -> checked.isDone() || waitingForTheTurn(checker));
            assertThat(checked).as("the check, with the plan work under way").isNotDone();
            done.countDown();
            checked.get(10, TimeUnit.SECONDS);
            work.get(10, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }
        java.time.OffsetDateTime seen = db.select(LEADERSHIP.SEEN_AT).from(LEADERSHIP).fetchSingle().value1();
        assertThat(seen).as("renewed after the work, not skipped").isAfter(java.time.OffsetDateTime.now()
                .minusSeconds(10));
    }

    /** @return whether {@code thread} is parked in a lock's timed {@code tryLock}, as {@link PgPlanLock#check} waits */
    private static boolean waitingForTheTurn(Thread thread) {
        return thread.getState() == Thread.State.TIMED_WAITING && java.util.Arrays.stream(thread.getStackTrace())
                .anyMatch(frame -> frame.getClassName().startsWith("java.util.concurrent.locks.ReentrantLock")
                        && frame.getMethodName().equals("tryLock"));
    }

    @Test
    void leaseRenewed_isNotBroken_theWaiterGivesUpAfterItsWait() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        a.acquire();
        a.check();
        PgPlanLock b = PgPlanLock.of(inventory, source, "ctl-b", Duration.ofMillis(1_500))
                .withLease(Duration.ofSeconds(30));
        locks.add(b);

        assertThatThrownBy(b::acquire).isInstanceOf(VerbException.class)
                .hasMessageContaining("held by another controller (holder ctl-a");

        a.check();
        assertThat(a.tenure()).as("a seen within its lease keeps the lock").isPresent();
        assertThat(a.holding(a::epoch)).isEqualTo(1);
    }

    @Test
    void lease_outOfRange_isRefused() {
        PgPlanLock a = lock("ctl-a", Duration.ofSeconds(10));
        assertThatThrownBy(() -> a.withLease(Duration.ofMillis(999))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the plan lock's lease must be between 1 s and 1 hour, not PT0.999S");
    }

    /** Waits until the store's last confirmation of {@code lock} is older than its lease of 1 s. */
    private static void awaitPastTheLease(PgPlanLock lock) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> lock.sinceConfirmed().compareTo(Duration.ofSeconds(1)) > 0);
    }

    private PgPlanLock lock(String holder, Duration wait) {
        PgPlanLock lock = PgPlanLock.of(inventory, source, holder, wait);
        locks.add(lock);
        return lock;
    }

    private long counter() {
        return DSL.using(source, SQLDialect.POSTGRES).select(VALUE).from(COUNTER).fetchSingle().value1();
    }
}
