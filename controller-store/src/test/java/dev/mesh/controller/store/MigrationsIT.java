package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.flywaydb.core.Flyway;
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
                ? List.of(new MigrationReport.Applied("1", "inventory"), new MigrationReport.Applied("2", "node facts"))
                : List.of(new MigrationReport.Applied("1", database.label()));
        assertThat(first).isEqualTo(new MigrationReport(database, "", latest, applied));
        assertThat(first.changed()).isTrue();
        assertThat(first.text()).isEqualTo(database == Database.INVENTORY
                ? "inventory: migrated from empty to version 2 (applied 1 inventory, 2 node facts)"
                : database.label() + ": migrated from empty to version 1 (applied 1 " + database.label() + ")");
        assertThat(second).isEqualTo(new MigrationReport(database, latest, latest, List.of()));
        assertThat(second.changed()).isFalse();
        assertThat(second.text()).isEqualTo(database.label() + ": already up to date at version " + latest);
        assertThat(migrations.status()).isEqualTo(new SchemaStatus(database, latest, latest, List.of(), List.of()));
        assertThat(migrations.status().upToDate()).isTrue();
        migrations.requireUpToDate();
    }

    /** @return the versions of the migrations this controller carries for the database */
    private static List<String> versions(Database database) {
        return database == Database.INVENTORY ? List.of("1", "2") : List.of("1");
    }

    private static String latest(Database database) {
        return versions(database).getLast();
    }

    @Test
    void schemaMigratedByANewerController_isAheadAndRefused() {
        Endpoint endpoint = databases.migrated(Database.LICENCES);
        // What a newer controller would have done: one more migration, which this one does not carry.
        Flyway.configure().dataSource(endpoint.dataSource())
                .locations("classpath:db/licences", "classpath:db/future").load().migrate();
        Migrations migrations = Migrations.of(Database.LICENCES, endpoint.dataSource());

        SchemaStatus status = migrations.status();

        assertThat(status).isEqualTo(new SchemaStatus(Database.LICENCES, "2", "1", List.of(), List.of("2")));
        assertThat(status.ahead()).isTrue();
        assertThat(status.behind()).isFalse();
        assertThatThrownBy(migrations::requireUpToDate)
                .isInstanceOf(StoreException.class)
                .hasMessage("the licences database is at schema version 2, newer than this controller knows (1); "
                        + "run a controller of the version that migrated it, or a newer one");
    }

    @Test
    void serverNotListening_isAStoreExceptionNamingTheDatabase() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Migrations migrations = Migrations.of(Database.IDENTITY,
                new Endpoint("127.0.0.1", closedPort, "identity", "postgres", "").dataSource());

        assertThatThrownBy(migrations::migrate)
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not migrate the identity database: ")
                .hasMessageEndingWith("; check that the server is up and the login may create tables, then run "
                        + "`mesh-controller prepare` again");
        assertThatThrownBy(migrations::status)
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not read the schema version of the identity database: ");
    }
}
