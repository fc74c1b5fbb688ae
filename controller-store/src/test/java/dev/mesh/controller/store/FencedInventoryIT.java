package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.InventoryContract;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.RequestRecords.Recorded;
import dev.mesh.controller.core.VerbException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The controller's inventory, fenced by its plan lock: core's {@link InventoryContract} while the
 * lock is acquired, and the plan writes of a controller that lost the lock refused.
 */
class FencedInventoryIT extends InventoryContract {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private final List<PgPlanLock> locks = new ArrayList<>();
    private Endpoint endpoint;
    private DataSource source;
    /** The lock of the contract's inventory, acquired before each test. */
    private PgPlanLock contractLock;

    @Override
    protected Inventory newInventory() {
        endpoint = databases.migrated(Database.INVENTORY);
        source = endpoint.dataSource();
        contractLock = lock("ctl-contract");
        contractLock.acquire();
        return PgInventory.fenced(source, contractLock);
    }

    @AfterEach
    void close() {
        locks.forEach(PgPlanLock::close);
    }

    @Test
    void planWrites_withoutTheLock_areAProgrammingError_andReportsAreNot() {
        PgPlanLock idle = lock("ctl-idle");
        PgInventory inventory = PgInventory.fenced(source, idle);

        assertThatThrownBy(() -> inventory.assign(new Assignment("web", "alpha")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ctl-idle does not hold the plan lock");
        for (Runnable write : List.<Runnable>of(
                () -> inventory.desire(declaration("alpha")),
                () -> inventory.delivered(new Delivery("alpha", "sha256:alpha", 1,
                        Instant.parse("2026-11-29T21:00:00Z"))),
                () -> inventory.sent("build:web@1/server", 1))) {
            assertThatThrownBy(write::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ctl-idle does not hold the plan lock");
        }
        Report.Failed failure = new Report.Failed("alpha", "sha256:alpha", List.of(),
                Instant.parse("2026-11-29T21:00:01Z"));
        inventory.failed(failure);
        inventory.finish(InventoryContract.failed("build:web@1/server", ""));
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(List.of(new Facts(new Node("beta", "10.0.0.2", "debian-12"), "", List.of(),
                Instant.parse("2026-11-29T21:00:00Z"))));

        assertThat(inventory.nodes()).extracting(Node::name).containsExactly("alpha", "beta");
        assertThat(inventory.facts()).containsOnlyKeys("beta");
        assertThat(inventory.acknowledge("alpha", "sha256:none")).isFalse();
        assertThat(inventory.assignments()).isEmpty();
        assertThat(inventory.desired()).isEmpty();
        assertThat(inventory.deliveries()).isEmpty();
        assertThat(inventory.failures()).containsOnly(Map.entry("alpha", failure));
        assertThat(inventory.failedBuilds()).containsExactly("build:web@1/server");
    }

    @Test
    void controllerThatLostTheLock_cannotChangeThePlan_andChangesNothing() {
        contractLock.release();
        PgPlanLock a = lock("ctl-a");
        PgPlanLock b = lock("ctl-b");
        PgInventory aInventory = PgInventory.fenced(source, a);
        PgRequestRecords aRecords = PgRequestRecords.fenced(source, a);
        a.acquire();
        aInventory.assign(new Assignment("web", "alpha"));
        aInventory.request("build:web@1/server");
        long aEpoch = a.epoch();
        Delivery delivered = new Delivery("alpha", "sha256:alpha", aEpoch, Instant.parse("2026-11-29T21:00:00Z"));
        aInventory.delivered(delivered);

        databases.terminate(a.sessionPid().orElseThrow());
        // The standby takes over: a's session is gone, so the advisory lock is free.
        b.acquire();

        for (Runnable write : List.<Runnable>of(
                () -> aInventory.assign(new Assignment("web", "beta")),
                () -> aInventory.unassign(new Assignment("web", "alpha")),
                () -> aInventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1\"}", "manifest")),
                () -> aInventory.request("build:web@1/server"),
                () -> aInventory.desire(declaration("alpha")),
                () -> aInventory.delivered(new Delivery("alpha", "sha256:beta", aEpoch,
                        Instant.parse("2026-11-29T21:00:05Z"))),
                () -> aInventory.sent("build:web@1/server", aEpoch),
                () -> aRecords.record(new Recorded("req-1", "ops", "assign", "sha256:x",
                        JsonNodeFactory.instance.objectNode(), false)))) {
            assertThatThrownBy(write::run)
                    .isInstanceOfSatisfying(VerbException.class, e ->
                            assertThat(e.code()).isEqualTo(VerbException.Code.UNAVAILABLE))
                    .hasMessageContaining("this controller stops planning");
        }

        PgInventory reader = new PgInventory(source);
        assertThat(reader.assignments()).containsExactly(new Assignment("web", "alpha"));
        assertThat(reader.modules()).isEmpty();
        assertThat(reader.requested()).containsExactly("build:web@1/server");
        assertThat(reader.unsentBuilds()).containsExactly("build:web@1/server");
        assertThat(reader.desired()).isEmpty();
        assertThat(reader.deliveries()).containsOnly(Map.entry("alpha", delivered));
        assertThat(new PgRequestRecords(source).find("req-1")).isEmpty();
    }

    /** A node's declaration with a revision (its content does not matter to the fence). */
    private static Declaration declaration(String node) {
        return new Declaration(node, "sha256:" + node, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    private PgPlanLock lock(String holder) {
        PgPlanLock lock = PgPlanLock.of(endpoint, source, holder, Duration.ofSeconds(5));
        locks.add(lock);
        return lock;
    }
}
