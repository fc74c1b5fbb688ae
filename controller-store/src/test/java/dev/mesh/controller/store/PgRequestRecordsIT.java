package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.RequestRecordsContract;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link PgRequestRecords} on a fresh inventory database: core's contract, and a repeated request
 * over the store.
 */
class PgRequestRecordsIT extends RequestRecordsContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private PgRequestRecords records;
    private PgInventory inventory;

    @Override
    protected RequestRecords newRecords() {
        Endpoint endpoint = databases.migrated(Database.INVENTORY);
        records = new PgRequestRecords(endpoint.dataSource());
        inventory = new PgInventory(endpoint.dataSource());
        return records;
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
