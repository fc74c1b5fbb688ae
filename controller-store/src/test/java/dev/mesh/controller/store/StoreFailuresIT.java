package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.VerbException;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a store failure says: the database, the operation, the kind of failure and the fix, never
 * the SQL text nor a password; the driver's exception stays the cause.
 */
class StoreFailuresIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final String PASSWORD = "never-shown-7f3a";
    private static int closedPort;

    @BeforeAll
    static void findAClosedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
    }

    private static Endpoint nowhere(String database) {
        return new Endpoint("127.0.0.1", closedPort, database, "store", Secret.of(PASSWORD));
    }

    private static String refused(String what, String database) {
        return "could not " + what + " in the " + database + " database at postgresql://store@127.0.0.1:" + closedPort
                + "/" + database + ": nothing accepts connections there (connection refused) (SQLState 08001); check "
                + "that PostgreSQL runs at 127.0.0.1:" + closedPort + " and MESH_STORE_" + database.toUpperCase()
                + "_PORT names it";
    }

    @Test
    void serverNotListening_eachAdapter_namesDatabaseOperationAndFix() {
        PgInventory inventory = new PgInventory(nowhere("inventory").dataSource());
        PgIdentity identity = new PgIdentity(nowhere("identity").dataSource());
        PgLicences licences = new PgLicences(nowhere("licences").dataSource());
        PgRequestRecords records = new PgRequestRecords(nowhere("inventory").dataSource());
        Migrations migrations = Migrations.of(Database.IDENTITY, nowhere("identity").dataSource());

        expect(inventory::nodes, refused("list the nodes", "inventory"));
        expect(() -> inventory.report(new Node("alpha", "10.0.0.1", "debian-12")),
                refused("record node alpha", "inventory"));
        expect(() -> identity.allows("ops", "status"), refused("check whether ops may call status", "identity"));
        expect(() -> licences.grant("web", 3, Instant.EPOCH), refused("grant the licence of module web", "licences"));
        expect(() -> records.find("r-1"), refused("read the record of request r-1", "inventory"));
        expect(migrations::migrate, "could not migrate the identity database at postgresql://store@127.0.0.1:"
                + closedPort + "/identity: nothing accepts connections there (connection refused) (SQLState 08001); "
                + "check that PostgreSQL runs at 127.0.0.1:" + closedPort + " and MESH_STORE_IDENTITY_PORT names it");
        expect(migrations::status, refused("read the schema version", "identity"));
    }

    @Test
    void droppedDatabase_namesItAndSaysToCreateAndPrepare() {
        Endpoint endpoint = databases.migrated(Database.INVENTORY);
        databases.drop(Database.INVENTORY);
        PgInventory inventory = new PgInventory(endpoint.dataSource());

        expect(() -> inventory.report(new Node("alpha", "10.0.0.1", "debian-12")), "could not record "
                + "node alpha in the inventory database at " + endpoint.address() + ": the database does not exist on "
                + "the server (SQLState 3D000); create the database, or name the right one in "
                + "MESH_STORE_INVENTORY_FILE, then run `mesh-controller prepare`");
    }

    @Test
    void droppedUnderAPool_namesTheDatabaseWithoutSql() {
        Endpoint endpoint = databases.migrated(Database.LICENCES);
        try (ConnectionPool pool = ConnectionPool.open(endpoint, 1)) {
            PgLicences licences = new PgLicences(pool.dataSource());
            licences.grant("web", 3, Instant.EPOCH);
            databases.drop(Database.LICENCES);

            assertThatThrownBy(() -> licences.licence("web"))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("could not read the licence of module web in the licences database at "
                            + endpoint.address() + ": ")
                    .satisfies(withoutSqlOrPassword());
        }
    }

    @Test
    void unmigratedDatabase_saysTheSchemaIsBehind_andToPrepare() {
        Endpoint endpoint = databases.empty(Database.INVENTORY);

        expect(new PgInventory(endpoint.dataSource())::nodes, "could not list the nodes in the inventory database at "
                + endpoint.address() + ": the database lacks a table or column this controller needs (its schema is "
                + "behind) (SQLState 42P01); run `mesh-controller prepare`");
    }

    @Test
    void pool_serverNotListening_namesTheAddress() {
        assertThatThrownBy(() -> ConnectionPool.open(nowhere("inventory"), 2))
                .isInstanceOf(StoreException.class)
                .hasMessage("could not open 2 connections in the database at postgresql://store@127.0.0.1:"
                        + closedPort + "/inventory: nothing accepts connections there (connection refused) (SQLState "
                        + "08001); check that PostgreSQL runs at 127.0.0.1:" + closedPort + " and the configured "
                        + "address names it")
                .satisfies(withoutSqlOrPassword());
    }

    @Test
    void planLock_serverNotListening_isUnavailable_andKeepsTheDriversException() {
        Endpoint inventory = databases.migrated(Database.INVENTORY);
        try (PgPlanLock lock = PgPlanLock.of(nowhere("inventory"), inventory.dataSource(), "ctl-a",
                Duration.ofSeconds(1))) {
            assertThatThrownBy(lock::acquire)
                    .isInstanceOf(VerbException.class)
                    .hasMessage(refused("take the plan lock", "inventory"))
                    .hasCauseInstanceOf(SQLException.class)
                    .satisfies(withoutSqlOrPassword());
        }
    }

    private static void expect(ThrowingCallable call, String message) {
        assertThatThrownBy(call)
                .isInstanceOf(StoreException.class)
                .hasMessage(message)
                .hasCauseInstanceOf(RuntimeException.class)
                .satisfies(withoutSqlOrPassword());
    }

    private static Consumer<Throwable> withoutSqlOrPassword() {
        return e -> {
            assertThat(e.getCause()).as("the driver's exception is kept").isNotNull();
            for (String forbidden : List.of("select", "insert", "update", "SQL [", PASSWORD, "Flyway")) {
                assertThat(e.getMessage()).as("no %s in the message", forbidden).doesNotContainIgnoringCase(forbidden);
            }
        };
    }
}
