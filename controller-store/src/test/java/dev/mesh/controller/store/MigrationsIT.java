package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.BUILD_REQUESTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.util.List;
import org.flywaydb.core.Flyway;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MigrationsIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    @ParameterizedTest
    @EnumSource(Database.class)
    void emptyDatabase_isBehindAndRefused(Database database) {
        Migrations migrations = Migrations.of(database, databases.empty(database).dataSource());

        SchemaStatus status = migrations.status();

        String latest = latest(database);
        assertThat(status).isEqualTo(new SchemaStatus(database, "", latest, versions(database), List.of()));
        assertThat(status.behind()).isTrue();
        assertThat(status.upToDate()).isFalse();
        assertThatThrownBy(migrations::requireUpToDate)
                .isInstanceOf(StoreException.class)
                .hasMessage("the " + database.label() + " database is empty and this controller needs version " + latest
                        + " (missing: " + String.join(", ", versions(database)) + "); run `mesh-controller prepare` to "
                        + "migrate it");
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void migrate_appliesTheMigrationsOnce_thenIsANoOp(Database database) {
        Migrations migrations = Migrations.of(database, databases.empty(database).dataSource());

        MigrationReport first = migrations.migrate();
        MigrationReport second = migrations.migrate();

        String latest = latest(database);
        List<MigrationReport.Applied> applied = database == Database.INVENTORY
                ? List.of(new MigrationReport.Applied("1", "inventory"), new MigrationReport.Applied("2", "node facts"),
                        new MigrationReport.Applied("3", "deliveries"),
                        new MigrationReport.Applied("4", "handovers"),
                        new MigrationReport.Applied("5", "built artifacts"),
                        new MigrationReport.Applied("6", "schema floor"))
                : List.of(new MigrationReport.Applied("1", database.label()),
                        new MigrationReport.Applied("2", "schema floor"));
        assertThat(first).isEqualTo(new MigrationReport(database, "", latest, applied));
        assertThat(first.changed()).isTrue();
        assertThat(first.text()).isEqualTo(database == Database.INVENTORY
                ? "inventory: migrated from empty to version 6 (applied 1 inventory, 2 node facts, 3 deliveries, "
                        + "4 handovers, 5 built artifacts, 6 schema floor)"
                : database.label() + ": migrated from empty to version 2 (applied 1 " + database.label()
                        + ", 2 schema floor)");
        assertThat(second).isEqualTo(new MigrationReport(database, latest, latest, List.of()));
        assertThat(second.changed()).isFalse();
        assertThat(second.text()).isEqualTo(database.label() + ": already up to date at version " + latest);
        assertThat(migrations.status()).isEqualTo(new SchemaStatus(database, latest, latest, List.of(), List.of()));
        assertThat(migrations.status().upToDate()).isTrue();
        migrations.requireUpToDate();
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void carriedChecksums_areTheOnesFlywayRecords(Database database) {
        Endpoint endpoint = databases.empty(database);
        Flyway.configure().dataSource(endpoint.dataSource()).locations(database.migrations()).load().migrate();

        assertThat(CarriedMigrations.of(database).recordedIn(endpoint.dataSource())).isTrue();
        assertThat(CarriedMigrations.of(database).recordedIn(databases.empty(database).dataSource())).isFalse();
    }

    @Test
    void requireUpToDate_aMigrationChangedAfterItWasApplied_isNotTakenForUpToDate() {
        Endpoint endpoint = databases.migrated(Database.INVENTORY);
        DSL.using(endpoint.dataSource(), SQLDialect.POSTGRES).update(table(name("flyway_schema_history")))
                .set(field(name("checksum"), Integer.class), 42).where(field(name("version")).eq("2")).execute();

        assertThat(CarriedMigrations.of(Database.INVENTORY).recordedIn(endpoint.dataSource())).isFalse();
        assertThatThrownBy(Migrations.of(Database.INVENTORY, endpoint.dataSource())::migrate)
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("the migrations recorded in it are not the ones this controller carries");
    }

    @Test
    void inventoryOfTheControllerBefore_isBehind_andMigratesToDeliveries_keepingItsRequestsUnsent() {
        Endpoint endpoint = databases.empty(Database.INVENTORY);
        // What the controller before deliveries prepared: migrations 1 and 2, and a build requested.
        Flyway.configure().dataSource(endpoint.dataSource()).locations(Database.INVENTORY.migrations()).target("2")
                .load().migrate();
        DSL.using(endpoint.dataSource(), SQLDialect.POSTGRES).insertInto(BUILD_REQUESTS)
                .set(BUILD_REQUESTS.MODULE, "store").set(BUILD_REQUESTS.VERSION, "1")
                .set(BUILD_REQUESTS.ARTIFACT, "server").execute();
        Migrations migrations = Migrations.of(Database.INVENTORY, endpoint.dataSource());

        assertThat(migrations.status()).isEqualTo(new SchemaStatus(Database.INVENTORY, "2", "6",
                List.of("3", "4", "5", "6"), List.of()));
        assertThatThrownBy(migrations::requireUpToDate)
                .isInstanceOf(StoreException.class)
                .hasMessage("the inventory database is at schema version 2 and this controller needs version 6 "
                        + "(missing: 3, 4, 5, 6); run `mesh-controller prepare` to migrate it");

        assertThat(migrations.migrate().text()).isEqualTo("inventory: migrated from version 2 to version 6 (applied 3 "
                + "deliveries, 4 handovers, 5 built artifacts, 6 schema floor)");
        migrations.requireUpToDate();
        PgInventory inventory = new PgInventory(endpoint.dataSource());
        assertThat(inventory.unsentBuilds()).containsExactly("build:store@1/server");
        assertThat(inventory.deliveries()).isEmpty();
        assertThat(inventory.failures()).isEmpty();
    }

    /** @return the versions of the migrations this controller carries for the database */
    private static List<String> versions(Database database) {
        return database == Database.INVENTORY ? List.of("1", "2", "3", "4", "5", "6") : List.of("1", "2");
    }

    private static String latest(Database database) {
        return versions(database).getLast();
    }

    @Test
    void schemaExpandedByANewerController_isAhead_andThisOneStillRunsOnIt() {
        Endpoint endpoint = databases.migrated(Database.LICENCES);
        // What the next version's `prepare` would have done: one more migration, an expand, which this
        // controller does not carry.
        Flyway.configure().dataSource(endpoint.dataSource())
                .locations("classpath:db/licences", "classpath:db/future").load().migrate();
        Migrations migrations = Migrations.of(Database.LICENCES, endpoint.dataSource());

        SchemaStatus status = migrations.status();

        assertThat(status).isEqualTo(new SchemaStatus(Database.LICENCES, "3", "2", List.of(), List.of("3")));
        assertThat(status.ahead()).isTrue();
        assertThat(status.behind()).isFalse();
        assertThat(migrations.requireUpToDate()).as("serve starts on it").isEqualTo(status);
        assertThat(migrations.migrate()).as("prepare of this version, run again for a rollback, changes nothing")
                .isEqualTo(new MigrationReport(Database.LICENCES, "3", "3", List.of()));
        assertThat(new PgLicences(endpoint.dataSource()).licence("mesh-store")).as("and reads it").isEmpty();
    }

    @Test
    void schemaContractedByANewerController_isRefused_namingTheVersionToRun() {
        Endpoint endpoint = databases.migrated(Database.LICENCES);
        Flyway.configure().dataSource(endpoint.dataSource())
                .locations("classpath:db/licences", "classpath:db/future-contract").load().migrate();
        Migrations migrations = Migrations.of(Database.LICENCES, endpoint.dataSource());
        String refusal = "the licences database is at schema version 3, which needs mesh-controller 9.9.0 or newer "
                + "(a controller that carries migration 3; this one carries up to 2): run mesh-controller 9.9.0 or newer";

        assertThatThrownBy(migrations::requireUpToDate).isInstanceOf(StoreException.class).hasMessage(refusal)
                .satisfies(MigrationsIT::inOurWords);
        assertThatThrownBy(migrations::migrate).isInstanceOf(StoreException.class).hasMessage(refusal);
    }

    @Test
    void migrate_aMigrationChangedAfterItWasApplied_isRefused_inOurWords() {
        Endpoint endpoint = databases.migrated(Database.IDENTITY);
        DSL.using(endpoint.dataSource(), SQLDialect.POSTGRES).update(table(name("flyway_schema_history")))
                .set(field(name("checksum"), Integer.class), 42).execute();

        assertThatThrownBy(Migrations.of(Database.IDENTITY, endpoint.dataSource())::migrate)
                .isInstanceOf(StoreException.class)
                .hasMessage("could not migrate the identity database at " + endpoint.address() + ": the migrations "
                        + "recorded in it are not the ones this controller carries (one was changed or removed after "
                        + "it was applied); run the controller version that prepared it, and report the mismatch: a "
                        + "released migration never changes")
                .satisfies(MigrationsIT::inOurWords);
    }

    @Test
    void migrate_tablesWithoutMigrationHistory_isRefused_inOurWords() {
        Endpoint endpoint = databases.empty(Database.INVENTORY);
        DSL.using(endpoint.dataSource(), SQLDialect.POSTGRES).createTable(name("someone_elses"))
                .column("id", SQLDataType.INTEGER).execute();

        assertThatThrownBy(Migrations.of(Database.INVENTORY, endpoint.dataSource())::migrate)
                .isInstanceOf(StoreException.class)
                .hasMessage("could not migrate the inventory database at " + endpoint.address() + ": it holds tables "
                        + "but no migration history, so it was not made by `mesh-controller prepare`; name an empty "
                        + "database, or one mesh-controller prepared, in MESH_STORE_INVENTORY_FILE")
                .satisfies(MigrationsIT::inOurWords);
    }

    /** One line, no Flyway advice or links, no SQL. */
    private static void inOurWords(Throwable e) {
        assertThat(e.getMessage()).doesNotContain("\n").doesNotContainIgnoringCase("flyway")
                .doesNotContain("rd.gt").doesNotContain("repair").doesNotContain("baseline").doesNotContain("SQL [");
    }
}
