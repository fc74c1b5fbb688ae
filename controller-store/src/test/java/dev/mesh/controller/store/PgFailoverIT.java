package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.settings.Variables;
import dev.mesh.controller.testing.ClusterScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store's failover, for real: a PostgreSQL primary ({@code a}) with a streaming standby ({@code b}), made by
 * {@code bin/clusters/postgresql}; the primary killed (SIGKILL of all its processes, as a machine lost) and the
 * standby promoted. The controller's side reaches both through one endpoint naming the two servers (the driver
 * connects to whichever is the primary). What must hold (docs/handover.md, "The store's failover"): no epoch is
 * handed out twice, nothing a fenced write acknowledged is lost, and the lock continues on the new primary.
 */
class PgFailoverIT {

    private static final ClusterScript PAIR = ClusterScript.named("postgresql");
    private static final Table<?> WRITTEN = table(name("failover_written"));
    private static final Field<Long> ID = field(name("id"), Long.class);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ExecutorService background = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        background.shutdownNow();
        for (AutoCloseable each : opened.reversed()) {
            each.close();
        }
    }

    @AfterAll
    static void down() {
        PAIR.run("down");
    }

    /**
     * The dangerous case: an epoch committed on the primary while its standby does not have it, then the primary
     * lost. With the standby synchronous, that commit never returns, so the epoch is not handed out; the
     * promoted standby's next epoch is one no controller ever held.
     */
    @Test
    void synchronousStandby_anEpochTheStandbyNeverGot_isNotHandedOut_andTheNextIsNew() throws Exception {
        Endpoint inventory = pair("--sync");
        Set<Long> handedOut = ConcurrentHashMap.newKeySet();
        PgPlanLock a = lock(inventory, "ctl-a");
        PgPlanLock b = lock(inventory, "ctl-b");
        handedOut.add(a.acquire().epoch());
        assertThat(a.replication().orElseThrow().synchronous()).as("the primary waits for b at commit").isTrue();
        a.release();

        // The standby goes away; the next epoch is written on the primary alone, and its commit waits for b.
        PAIR.run("kill", "b");
        Future<PlanLock.Attempt> taking = background.submit(b::attempt);
        awaitWaitingForStandby(inventory, "ctl-b");
        PAIR.run("kill", "a");
        PlanLock.Attempt lost = taking.get(30, TimeUnit.SECONDS);
        assertThat(lost).as("the commit that never reached the standby did not return a tenure")
                .isInstanceOf(PlanLock.Unreachable.class);

        PAIR.run("start", "b");
        PAIR.run("promote", "b");
        long next = b.acquire().epoch();
        assertThat(handedOut).as("epochs handed out before the failover").doesNotContain(next);
        assertThat(next).isEqualTo(2);
    }

    /**
     * A commit's wait for the standby cancelled ({@code pg_cancel_backend}, as an operator or a pooler might): the
     * server commits on the primary alone and says so with a warning. That epoch is not handed out either.
     */
    @Test
    void synchronousStandby_theWaitCancelled_theEpochCommittedOnThePrimaryAlone_isNotHandedOut() throws Exception {
        Endpoint inventory = pair("--sync");
        PgPlanLock a = lock(inventory, "ctl-a");
        a.acquire();
        a.release();

        PAIR.run("kill", "b");
        Future<PlanLock.Attempt> taking = background.submit(a::attempt);
        awaitWaitingForStandby(inventory, "ctl-a");
        DSLContext primary = DSL.using(inventory.dataSource(), SQLDialect.POSTGRES);
        primary.resultQuery("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
                .fetch();

        assertThat(taking.get(30, TimeUnit.SECONDS)).as("committed on a alone: not a tenure")
                .isInstanceOfSatisfying(PlanLock.Unreachable.class, unreachable -> assertThat(unreachable.why())
                        .contains("fencing epoch 2 without its synchronous standby's confirmation"));
        assertThat(primary.resultQuery("SELECT epoch FROM leadership").fetchSingle(0, Long.class))
                .as("the epoch stays recorded on the primary, held by no one").isEqualTo(2);
        PAIR.run("start", "b");
        assertThat(a.acquire().epoch()).as("the next taking passes over it").isEqualTo(3);
    }

    /**
     * The same case with the standby asynchronous, the danger the synchronous standby is for: the epoch's commit
     * returns on the primary alone, is lost with it, and the promoted standby hands the same epoch out again. The
     * lock says the store is unsafe, which {@code serve} logs at start.
     */
    @Test
    void asynchronousStandby_handsTheLostEpochOutTwice_andTheLockSaysTheStoreIsUnsafe() throws Exception {
        Endpoint inventory = pair("--async");
        PgPlanLock a = lock(inventory, "ctl-a");
        PgPlanLock b = lock(inventory, "ctl-b");
        a.acquire();
        assertThat(a.replication().orElseThrow().unsafeFor(inventory)).as("two servers, no synchronous standby")
                .isTrue();
        a.release();

        PAIR.run("kill", "b");
        long first = b.acquire().epoch();
        PAIR.run("kill", "a");
        PAIR.run("start", "b");
        PAIR.run("promote", "b");
        PgPlanLock c = lock(inventory, "ctl-c");
        long again = c.acquire().epoch();

        assertThat(again).as("the epoch the lost primary handed to ctl-b, handed to ctl-c").isEqualTo(first);
    }

    /**
     * Failover under load: fenced writes run while the primary is killed and the standby promoted; the holder
     * finds its lock lost, takes it again on the new primary with a new epoch, and writes on. Every write that
     * was acknowledged is on the new primary.
     */
    @Test
    void promotedUnderFencedWrites_losesNothingAcknowledged_andTheLockContinues() throws Exception {
        Endpoint inventory = pair("--sync");
        ConnectionPool pool = ConnectionPool.open(inventory, 4);
        opened.add(pool);
        DSL.using(pool.dataSource(), SQLDialect.POSTGRES).createTable(WRITTEN)
                .column(ID.getName(), SQLDataType.BIGINT.notNull()).primaryKey(ID.getName()).execute();
        PgPlanLock lock = lock(inventory, "ctl-a");
        List<String> failovers = new CopyOnWriteArrayList<>();
        lock.onFailover((from, to) -> failovers.add(from + " -> " + to));
        List<Long> epochs = new ArrayList<>(List.of(lock.acquire().epoch()));
        String servers = inventory.servers().stream().map(Variables.Address::text).reduce((a, b) -> a + "," + b)
                .orElseThrow();
        assertThat(lock.primary()).containsEntry("primary", servers.split(",")[0]).containsEntry("synchronous", true)
                .containsEntry("standbys", 1L);
        FencedWrites writes = new FencedWrites(pool.dataSource(), lock);
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicLong refused = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> writer = background.submit(() -> {
            for (long id = 1; !stop.get(); id++) {
                long row = id;
                try {
                    writes.write("write row " + row, tx -> tx.insertInto(WRITTEN).columns(ID).values(row).execute());
                    acknowledged.add(row);
                } catch (VerbException | StoreException e) {
                    refused.incrementAndGet();
                    if (lock.attempt() instanceof PlanLock.Taken(var tenure)) {
                        synchronized (epochs) {
                            if (!epochs.contains(tenure.epoch())) {
                                epochs.add(tenure.epoch());
                            }
                        }
                    }
                }
            }
            return null;
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.size() >= 50);

        PAIR.run("kill", "a");
        int beforePromotion = acknowledged.size();
        PAIR.run("promote", "b");
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= beforePromotion + 50);
        stop.set(true);
        writer.get(30, TimeUnit.SECONDS);

        List<Long> onTheNewPrimary = DSL.using(pool.dataSource(), SQLDialect.POSTGRES).select(ID).from(WRITTEN)
                .fetch(ID);
        System.out.printf("PgFailoverIT: injected SIGKILL of primary a under fenced writes, promoted b; saw %d writes "
                + "acknowledged (%d before the kill), %d refused, %d rows on b, epochs %s%n", acknowledged.size(),
                beforePromotion, refused.get(), onTheNewPrimary.size(), epochs);
        assertThat(PAIR.run("role", "b")).isEqualTo("primary");
        assertThat(onTheNewPrimary).as("every acknowledged write, on the promoted standby").containsAll(acknowledged);
        assertThat(refused.get()).as("writes refused while the primary was gone").isPositive();
        synchronized (epochs) {
            assertThat(epochs).as("the lock, taken again on the new primary, with a new epoch").hasSize(2)
                    .doesNotHaveDuplicates().isSorted();
        }
        assertThat(failovers).as("the failover, told once").containsExactly(servers.replace(",", " -> "));
        assertThat(lock.primary()).as("status: the new primary, alone").containsEntry("primary",
                servers.split(",")[1]).containsEntry("synchronous", false).containsEntry("standbys", 0L);
    }

    /** Makes the pair afresh and an {@code inventory} database on it, migrated; reached through both servers. */
    private Endpoint pair(String replication) {
        String servers = PAIR.run("up", replication);
        List<Variables.Address> addresses = Arrays.stream(servers.split(",")).map(PgFailoverIT::address).toList();
        Endpoint admin = new Endpoint(addresses, "postgres", "postgres", Secret.NONE);
        DSL.using(admin.dataSource(), SQLDialect.POSTGRES).createDatabase(name("inventory")).execute();
        Endpoint inventory = admin.withDatabase("inventory");
        Migrations.of(Database.INVENTORY, inventory.dataSource()).migrate();
        return inventory;
    }

    private PgPlanLock lock(Endpoint inventory, String holder) {
        PgPlanLock lock = PgPlanLock.of(inventory, inventory.dataSource(), holder, Duration.ofSeconds(5));
        opened.add(lock);
        return lock;
    }

    /** Waits until the holder's lock session is committing on the primary, waiting for its synchronous standby. */
    private static void awaitWaitingForStandby(Endpoint inventory, String holder) {
        Endpoint primary = new Endpoint(List.of(inventory.servers().getFirst()), "postgres", "postgres", Secret.NONE);
        DSLContext db = DSL.using(primary.dataSource(), SQLDialect.POSTGRES);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> db.fetchExists(db.selectOne()
                .from(table(name("pg_catalog", "pg_stat_activity")))
                .where(field(name("wait_event")).eq("SyncRep"),
                        field(name("application_name"), String.class).contains(holder))));
    }

    private static Variables.Address address(String text) {
        int colon = text.lastIndexOf(':');
        return new Variables.Address(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
    }
}
