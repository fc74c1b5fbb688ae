package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link EmbeddedStore}: its own PostgreSQL under a state directory, as root too (this machine's CI runs as root). */
class EmbeddedStoreIT {

    @TempDir
    Path state;

    @Test
    void start_createsAndMigratesTheDatabases_andASecondStartGoesOnWhereTheFirstStopped() {
        try (EmbeddedStore store = EmbeddedStore.start(state)) {
            assertThat(store.migrations()).extracting(MigrationReport::text).containsExactly(
                    "inventory: migrated from empty to version 2 (applied 1 inventory, 2 node facts)",
                    "identity: migrated from empty to version 1 (applied 1 identity)",
                    "licences: migrated from empty to version 1 (applied 1 licences)");
            assertThat(store.endpoint(Database.INVENTORY).toString())
                    .matches("Endpoint\\[postgresql://postgres@127\\.0\\.0\\.1:\\d+/inventory, password=\\*\\*\\*]");
            new PgInventory(store.endpoint(Database.INVENTORY).dataSource())
                    .report(new Node("alpha", "10.0.0.1", "debian-12"));
        }
        assertThat(state.resolve("postgres").resolve("PG_VERSION")).content().isEqualToIgnoringNewLines("15");

        try (EmbeddedStore again = EmbeddedStore.start(state)) {
            assertThat(again.migrations()).extracting(MigrationReport::text).containsExactly(
                    "inventory: already up to date at version 2",
                    "identity: already up to date at version 1",
                    "licences: already up to date at version 1");
            assertThat(new PgInventory(again.endpoint(Database.INVENTORY).dataSource()).nodes())
                    .containsExactly(new Node("alpha", "10.0.0.1", "debian-12"));
            for (Database database : Database.values()) {
                Migrations.of(database, again.endpoint(database).dataSource()).requireUpToDate();
            }
        }
        assertThat(Files.exists(state.resolve("postgres").resolve("postmaster.pid"))).as("stopped").isFalse();
    }
}
