package dev.mesh.controller.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.CoreErrorCode;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.MigrateOutput;
import org.flywaydb.core.api.output.MigrateResult;
import org.jooq.exception.DataAccessException;

/**
 * The schema of one database of the store: migrate it to the version this controller carries
 * ({@code mesh-controller prepare}), or check that it is there before serving. The migrations are
 * the Flyway scripts under {@code db/<database>/} in this module; Flyway records what it applied
 * in the database's {@code flyway_schema_history} table.
 *
 * <p>A database whose recorded history is exactly the migrations this controller carries (the
 * usual case at every start) is recognised with one query of that table, checksums included,
 * without starting Flyway ({@link CarriedMigrations}); any other history goes to Flyway, which
 * migrates, validates and refuses as before.
 *
 * <p>Thread-safe; migrating the same database from two processes at once is safe, Flyway takes a
 * lock in the database.
 */
public final class Migrations {

    private final Database database;
    private final DataSource dataSource;
    private final CarriedMigrations carried;

    private Migrations(Database database, DataSource dataSource) {
        this.database = database;
        this.dataSource = dataSource;
        this.carried = CarriedMigrations.of(database);
    }

    /** Flyway for this database; made only when the history is not simply up to date (it is slow to start). */
    private Flyway flyway() {
        return Flyway.configure(Migrations.class.getClassLoader())
                .dataSource(dataSource)
                .locations(database.migrations())
                .failOnMissingLocations(true)
                .validateMigrationNaming(true)
                .cleanDisabled(true)
                .load();
    }

    /** Whether the recorded history is exactly the carried migrations; {@code what} names the work in a failure. */
    private boolean recorded(String what, boolean onDatabase) {
        try {
            return carried.recordedIn(dataSource);
        } catch (DataAccessException e) {
            throw onDatabase ? Failure.onDatabase(database, dataSource, what, e) : Failure.of(database, dataSource, what, e);
        }
    }

    /**
     * @param database which database it is: says which migrations apply
     * @param dataSource a login that may create tables in it
     * @return the migrations of that database
     */
    public static Migrations of(Database database, DataSource dataSource) {
        return new Migrations(Objects.requireNonNull(database, "database"),
                Objects.requireNonNull(dataSource, "dataSource"));
    }

    /**
     * Applies the migrations the database lacks; idempotent.
     *
     * @return what it did
     * @throws StoreException when the database cannot be reached, its recorded migrations do not
     *     match this controller's (a script was changed after it was applied), or a migration fails
     */
    public MigrationReport migrate() {
        if (recorded("migrate", true)) {
            return new MigrationReport(database, carried.latest(), carried.latest(), List.of());
        }
        MigrateResult result;
        try {
            Flyway flyway = flyway();
            SchemaStatus before = read(flyway);
            if (before.ahead()) {
                // A newer controller migrated it; this one has nothing to add, and may run on it or not.
                requireCompatible(before);
                return new MigrationReport(database, before.current(), before.current(), List.of());
            }
            result = flyway.migrate();
        } catch (FlywayException e) {
            throw failure(e);
        }
        List<MigrationReport.Applied> applied = new ArrayList<>();
        for (MigrateOutput output : result.migrations) {
            applied.add(new MigrationReport.Applied(output.version, output.description));
        }
        return new MigrationReport(database, orEmpty(result.initialSchemaVersion),
                orEmpty(result.targetSchemaVersion == null ? result.initialSchemaVersion : result.targetSchemaVersion),
                applied);
    }

    /**
     * Compares the database's schema with this controller's migrations; changes nothing.
     *
     * @return where the schema stands
     * @throws StoreException when the database cannot be reached
     */
    public SchemaStatus status() {
        if (recorded("read the schema version", false)) {
            return new SchemaStatus(database, carried.latest(), carried.latest(), List.of(), List.of());
        }
        try {
            return read(flyway());
        } catch (FlywayException e) {
            throw Failure.of(database, dataSource, "read the schema version", e);
        }
    }

    private SchemaStatus read(Flyway flyway) {
        MigrationInfoService info = flyway.info();
        List<String> pending = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        String latest = "";
        for (MigrationInfo migration : info.all()) {
            MigrationVersion version = migration.getVersion();
            if (version == null) {
                continue;
            }
            MigrationState state = migration.getState();
            if (state == MigrationState.PENDING) {
                pending.add(version.getVersion());
            } else if (state == MigrationState.FUTURE_SUCCESS || state == MigrationState.FUTURE_FAILED) {
                unknown.add(version.getVersion());
            }
            if (state.isResolved()) {
                latest = version.getVersion();
            }
        }
        MigrationInfo current = info.current();
        String at = current == null || current.getVersion() == null ? "" : current.getVersion().getVersion();
        return new SchemaStatus(database, at, latest, pending, unknown);
    }

    /**
     * Checks that this controller may use the schema: what {@code serve} does before it uses the
     * database. It may when the schema is exactly the one it carries, and when a newer controller
     * migrated it further without marking it as needing a newer controller than this one (the
     * {@code schema_floor} row; docs/store.md, "Two versions on one schema").
     *
     * @return where the schema stands: {@link SchemaStatus#ahead()} when a newer controller
     *     migrated it and this one may still run on it
     * @throws StoreException saying what to run when the schema is behind, or needs a newer
     *     controller, or when the database cannot be reached
     */
    public SchemaStatus requireUpToDate() {
        SchemaStatus status = status();
        if (status.behind()) {
            throw new StoreException("the " + database.label() + " database is " + (status.current().isEmpty() ? "empty"
                    : "at schema version " + status.current()) + " and this controller needs version " + status.latest()
                    + " (missing: " + String.join(", ", status.pending()) + "); run `mesh-controller prepare` to "
                    + "migrate it");
        }
        if (status.ahead()) {
            requireCompatible(status);
        }
        return status;
    }

    /**
     * Refuses a schema a newer controller migrated past what this one may use: its floor names a
     * migration this controller does not carry.
     */
    private void requireCompatible(SchemaStatus status) {
        SchemaFloor floor = SchemaFloor.read(database, dataSource);
        if (!floor.admits(status.latest())) {
            throw new StoreException("the " + database.label() + " database is at schema version " + status.current()
                    + ", which needs mesh-controller " + floor.controller() + " or newer (a controller that carries "
                    + "migration " + floor.migration() + "; this one carries up to " + status.latest() + "): run "
                    + "mesh-controller " + floor.controller() + " or newer");
        }
    }

    /**
     * Says in our words what Flyway refused: its own messages span lines, quote SQL and advise
     * Flyway commands ({@code repair}, {@code baseline}) and links that are not ours to give.
     */
    private StoreException failure(FlywayException e) {
        if (e.getErrorCode() == CoreErrorCode.NON_EMPTY_SCHEMA_WITHOUT_SCHEMA_HISTORY_TABLE) {
            return Failure.onDatabase(database, dataSource, "migrate", "it holds tables but no migration history, so "
                    + "it was not made by `mesh-controller prepare`", "name an empty database, or one mesh-controller "
                    + "prepared, in MESH_STORE_" + database.name() + "_FILE", e);
        }
        if (e instanceof FlywayValidateException) {
            return Failure.onDatabase(database, dataSource, "migrate", "the migrations recorded in it are not the "
                    + "ones this controller carries (one was changed or removed after it was applied)", "run the "
                    + "controller version that prepared it, and report the mismatch: a released migration never "
                    + "changes", e);
        }
        return Failure.onDatabase(database, dataSource, "migrate", e);
    }

    private static String orEmpty(String version) {
        return version == null ? "" : version;
    }
}
