package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestDatabasesIT {

    @Test
    void connect_serverNotListening_failsWithTheCommandThatStartsIt() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        assertThatThrownBy(() -> TestDatabases.connect(Map.of("MESH_TEST_PG_HOST", "127.0.0.1",
                "MESH_TEST_PG_PORT", Integer.toString(closedPort))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("PostgreSQL is not reachable at postgresql://postgres@127.0.0.1:" + closedPort
                        + "/postgres (")
                .hasMessageContaining("Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) "
                        + "main start");
    }
}
