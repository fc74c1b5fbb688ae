package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

        assertThat(status).isEqualTo(new SchemaStatus(database, "", "1", List.of("1"), List.of()));
        assertThat(status.behind()).isTrue();
        assertThat(status.upToDate()).isFalse();
        assertThatThrownBy(migrations::requireUpToDate)
                .isInstanceOf(StoreException.class)
                .hasMessage("the " + database.label() + " database is empty and this controller needs version 1 "
                        + "(missing: 1); run `mesh-controller prepare` to migrate it");
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void migrate_appliesTheMigrationsOnce_thenIsANoOp(Database database) {
        Migrations migrations = Migrations.of(database, databases.empty(database).dataSource());

        MigrationReport first = migrations.migrate();
        MigrationReport second = migrations.migrate();

        assertThat(first).isEqualTo(new MigrationReport(database, "", "1",
                List.of(new MigrationReport.Applied("1", database.label()))));
        assertThat(first.changed()).isTrue();
        assertThat(first.text()).isEqualTo(database.label() + ": migrated from empty to version 1 (applied 1 "
                + database.label() + ")");
        assertThat(second).isEqualTo(new MigrationReport(database, "1", "1", List.of()));
        assertThat(second.changed()).isFalse();
        assertThat(second.text()).isEqualTo(database.label() + ": already up to date at version 1");
        assertThat(migrations.status()).isEqualTo(new SchemaStatus(database, "1", "1", List.of(), List.of()));
        assertThat(migrations.status().upToDate()).isTrue();
        migrations.requireUpToDate();
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
}
