package dev.mesh.controller.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.api.MigrationVersion;

/**
 * The oldest controller that may run on a database's schema: the one row of its
 * {@code schema_floor} table (docs/store.md, "Two versions on one schema"). A migration that
 * expands the schema leaves it alone; one that contracts it raises it in the same script.
 *
 * @param migration the newest migration the oldest controller still able to run on the schema carries
 * @param controller that controller's version, named when a controller older than it is refused
 */
record SchemaFloor(String migration, String controller) {

    private static final String UNDEFINED_TABLE = "42P01";

    SchemaFloor {
        Objects.requireNonNull(migration, "migration");
        Objects.requireNonNull(controller, "controller");
    }

    /** @return whether a controller that carries migrations up to {@code latest} may run on the schema */
    boolean admits(String latest) {
        return !latest.isEmpty() && MigrationVersion.fromVersion(latest).compareTo(MigrationVersion.fromVersion(migration))
                >= 0;
    }

    /**
     * @return the floor of the database
     * @throws StoreException when the database cannot be read, or has no floor: a schema migrated
     *     past this controller by one that does not keep it, which no controller may assume it can use
     */
    static SchemaFloor read(Database database, DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT migration, controller FROM schema_floor")) {
            if (!row.next()) {
                throw new StoreException("the " + database.label() + " database has no row in schema_floor, so no "
                        + "controller can tell whether it may run on its schema; run the controller that migrated it");
            }
            return new SchemaFloor(row.getString(1), row.getString(2));
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                throw new StoreException("the " + database.label() + " database was migrated past this controller by "
                        + "one that keeps no schema_floor; run the controller that migrated it", e);
            }
            throw Failure.onDatabase(database, dataSource, "read the schema's floor", e);
        }
    }
}
