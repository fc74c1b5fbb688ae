package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A mutating request's changes and its record, on the real PostgreSQL, as {@code serve} wires them
 * ({@link OneTransaction} under the fenced inventory and request records): one transaction. A controller
 * that dies after the changes and before the record (here: the record fails) leaves neither, so the
 * redelivered request runs once, as the first time; and its events are told only after the commit.
 */
class AtomicRequestsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private ConnectionPool pool;
    private PgPlanLock lock;
    private OneTransaction inventory;
    private final MemoryEvents events = new MemoryEvents();

    @BeforeEach
    void open() {
        Endpoint endpoint = databases.migrated(Database.INVENTORY);
        pool = ConnectionPool.open(endpoint, 4);
        inventory = OneTransaction.over(pool.dataSource());
        lock = PgPlanLock.of(endpoint, inventory, "ctl-a", Duration.ofSeconds(10));
    }

    @AfterEach
    void close() {
        lock.close();
        pool.close();
    }

    private Verbs verbs(RequestRecords records) {
        Lifecycle lifecycle = LocalLifecycle.active(lock, "ctl-a", Clock.systemUTC());
        return Verbs.of(new Verbs.Ports(PgInventory.fenced(inventory, lock), Licences.NONE, lifecycle, events,
                records, Layout.DEFAULT, Clock.systemUTC()));
    }

    private static JsonNode push(String version) {
        return JSON.readTree("{\"manifest\": {\"module\": \"app\", \"version\": \"" + version + "\"}}");
    }

    private long versions() {
        return DSL.using(pool.dataSource(), SQLDialect.POSTGRES)
                .fetchCount(DSL.table(DSL.name("module_versions")));
    }

    @Test
    void theRecordFailing_undoesTheChanges_andTellsNoEvent_soTheRedeliveryRunsAsTheFirstTime() {
        PgRequestRecords records = PgRequestRecords.fenced(inventory, lock);
        RequestRecords dying = new RequestRecords() {
            @Override
            public Optional<Recorded> find(String requestId) {
                return records.find(requestId);
            }

            @Override
            public void record(Recorded recorded) {
                throw new IllegalStateException("the controller dies before its record");
            }

            @Override
            public <T> T atomically(Supplier<T> work) {
                return records.atomically(work);
            }
        };

        assertThatThrownBy(() -> verbs(dying).call("r-1", "n1", "push", push("1.0.0")))
                .hasMessageContaining("the controller dies before its record");
        assertThat(versions()).as("the push undone with its transaction").isZero();
        assertThat(events.events()).as("no event for what did not happen").isEmpty();

        JsonNode again = verbs(records).call("r-1", "n1", "push", push("1.0.0"));

        assertThat(again.path("changed").asBoolean()).as("the redelivery runs as the first time").isTrue();
        assertThat(versions()).isEqualTo(1);
        assertThat(events.events()).extracting(MemoryEvents.Event::kind).containsExactly("plan");
    }

    @Test
    void aRepeat_answersTheRecord_changesNothing_tellsNothing() {
        Verbs verbs = verbs(PgRequestRecords.fenced(inventory, lock));
        JsonNode first = verbs.call("r-2", "n1", "push", push("2.0.0"));

        JsonNode repeat = verbs.call("r-2", "n1", "push", push("2.0.0"));

        assertThat(repeat).isEqualTo(first);
        assertThat(first.path("changed").asBoolean()).isTrue();
        assertThat(versions()).isEqualTo(1);
        assertThat(events.events()).hasSize(1);
    }

    @Test
    void aRefusedRequest_isRecordedOnItsOwn_withNoChange() {
        Verbs verbs = verbs(PgRequestRecords.fenced(inventory, lock));
        verbs.call("r-3", "n1", "push", push("3.0.0"));

        // Other content under the same version: a conflict, recorded, the first content kept.
        JsonNode other = JSON.readTree("{\"manifest\": {\"module\": \"app\", \"version\": \"3.0.0\", \"claims\": "
                + "[{\"name\": \"seat-x\", \"scope\": \"node\"}]}}");
        assertThatThrownBy(() -> verbs.call("r-4", "n1", "push", other)).hasMessageContaining("3.0.0");
        assertThatThrownBy(() -> verbs.call("r-4", "n1", "push", other)).as("the recorded refusal")
                .hasMessageContaining("3.0.0");
        assertThat(versions()).isEqualTo(1);
        assertThat(PgRequestRecords.fenced(inventory, lock).find("r-4")).get()
                .extracting(RequestRecords.Recorded::error).isEqualTo(true);
    }
}
