package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.mesh.controller.core.Secret;

import dev.mesh.controller.core.Node;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConnectionPoolIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    @Test
    void pool_servesTheInventory_andSaysHowManyConnectionsAreInUse() throws SQLException {
        try (ConnectionPool pool = ConnectionPool.open(databases.migrated(Database.INVENTORY), 2)) {
            PgInventory inventory = new PgInventory(pool.dataSource());
            inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
            assertThat(inventory.nodes()).extracting(Node::name).containsExactly("alpha");

            try (Connection borrowed = pool.dataSource().getConnection()) {
                assertThat(borrowed.isValid(1)).isTrue();
                assertThat(borrowed.getNetworkTimeout()).as("socket timeout, ms")
                        .isEqualTo(ConnectionPool.SOCKET_TIMEOUT.toMillis());
                assertThat(pool.toString()).matches("ConnectionPool\\[postgresql://\\S+/mesh_test_\\w+_inventory, "
                        + "total=[12] active=1 idle=[01] waiting=0]");
            }
        }
    }

    @Test
    void open_unreachableServer_failsAtOnce_withoutThePassword() {
        Endpoint nowhere = new Endpoint("127.0.0.1", 1, "inventory", "store", Secret.of("secret-password"));

        assertThatThrownBy(() -> ConnectionPool.open(nowhere, 2))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not open 2 connections in the database at "
                        + "postgresql://store@127.0.0.1:1/inventory: nothing accepts connections there")
                .message().doesNotContain("secret-password");
    }

    @Test
    void open_badSize_isRefusedBeforeConnecting() {
        Endpoint nowhere = new Endpoint("127.0.0.1", 1, "inventory", "store", Secret.NONE);

        assertThatThrownBy(() -> ConnectionPool.open(nowhere, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a connection pool's size must be between 1 and 100, not 0");
    }
}
