package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.LicencesContract;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link PgLicences} on a fresh licences database: core's contract, and {@code assign} enforcing it
 * over the store.
 */
class PgLicencesIT extends LicencesContract {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private PgLicences licences;
    private PgInventory inventory;

    @Override
    protected Licences newLicences() {
        licences = new PgLicences(databases.migrated(Database.LICENCES).dataSource());
        inventory = new PgInventory(databases.migrated(Database.INVENTORY).dataSource());
        return licences;
    }

    @Override
    protected void grant(String module, int nodes, Instant expires) {
        licences.grant(module, nodes, expires);
    }

    @Override
    protected void revoke(String module) {
        licences.revoke(module);
    }

    @Test
    void assign_overTheStore_refusesPastTheLicenceAndChangesNothing() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
        inventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1.0.0\"}", "manifest"));
        licences.grant("web", 1, NOW.plusSeconds(3600));
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, licences, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC)));

        verbs.call("assign", JSON.readTree("{\"module\": \"web\", \"node\": \"alpha\"}"));

        assertThatThrownBy(() -> verbs.call("assign", JSON.readTree("{\"module\": \"web\", \"node\": \"beta\"}")))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT);
                    assertThat(e.getMessage()).contains("its licence allows 1 node and it is assigned to 1 (alpha)");
                });
        assertThat(inventory.assignments()).hasSize(1);
    }
}
