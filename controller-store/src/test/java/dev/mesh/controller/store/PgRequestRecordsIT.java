package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords.Recorded;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@link PgRequestRecords} on a fresh inventory database, and a repeated request over the store. */
class PgRequestRecordsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private PgRequestRecords records;
    private PgInventory inventory;

    @BeforeEach
    void freshDatabase() {
        Endpoint endpoint = databases.migrated(Database.INVENTORY);
        records = new PgRequestRecords(endpoint.dataSource());
        inventory = new PgInventory(endpoint.dataSource());
    }

    @Test
    void record_firstStands_andReadsBack() {
        Recorded first = new Recorded("r-1", "ops", "assign", "sha256:a", JSON.readTree("{\"changed\": true}"), false);
        Recorded second = new Recorded("r-1", "ops", "assign", "sha256:b", JSON.readTree("{\"changed\": false}"), true);

        records.record(first);
        records.record(second);

        assertThat(records.find("r-1")).contains(first);
        assertThat(records.find("r-2")).isEmpty();
    }

    @Test
    void call_repeatedOverTheStore_runsOnce() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1.0.0\"}", "manifest"));
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                records, Layout.DEFAULT, Clock.systemUTC()));
        JsonNode args = JSON.readTree("{\"module\": \"web\", \"node\": \"alpha\"}");

        JsonNode first = verbs.call("r-9", "ops", "assign", args);
        inventory.unassign(new Assignment("web", "alpha"));
        JsonNode again = verbs.call("r-9", "ops", "assign", args);

        assertThat(again).isEqualTo(first);
        assertThat(inventory.assignments()).isEmpty();
    }
}
