package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} without {@code --dev}, the whole command line as {@link Main} builds it: its
 * environment is checked before it connects anywhere. Every address points at a listening socket
 * that nothing accepts on (so that any connection would be seen waiting there) or at a port nothing
 * listens on (so that a connection would fail with another message and exit code).
 */
class ServeEnvironmentIT {

    private static final String PASSWORD = "s3cret-\u00e9-7d2a91";

    @TempDir
    Path dir;

    /** Where every configured address points: a connection made to it waits in its backlog. */
    private ServerSocketChannel tripwire;
    private String listening;
    private String closed;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void environmentPointingAtTheTripwire() throws IOException {
        tripwire = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        tripwire.configureBlocking(false);
        listening = "127.0.0.1:" + ((InetSocketAddress) tripwire.getLocalAddress()).getPort();
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = "127.0.0.1:" + socket.getLocalPort();
        }
        for (String role : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            String name = role.toLowerCase(Locale.ROOT);
            env.put("MESH_STORE_" + role + "_FILE", write(name + ".json", "{\"user\": \"mesh\", \"password\": \""
                    + PASSWORD + "\", \"database\": \"" + name + "\"}"));
            env.put("MESH_STORE_" + role + "_PORT", listening);
        }
        env.put("MESH_BROKER_ADDRESS_FILE", write("broker.json", "{\"user\": \"mesh-controller\", \"password\": \""
                + PASSWORD + "\", \"vhost\": \"mesh\"}"));
        env.put("MESH_BROKER_ADDRESS_PORT", listening);
        env.put("MESH_BROKER_MANAGEMENT_FILE", write("management.json", "{\"user\": \"monitor\", \"password\": \""
                + PASSWORD + "\"}"));
        env.put("MESH_BROKER_MANAGEMENT_PORT", closed);
        env.put("MESH_BUS_NATS_FILE", write("nats.json", "{\"url\": \"nats://" + closed + "\", \"user\": \"ctl\", "
                + "\"password\": \"" + PASSWORD + "\"}"));
    }

    @AfterEach
    void closeTheTripwire() throws IOException {
        tripwire.close();
    }

    @Test
    void serve_badEnvironment_exit2_everyLine_beforeAnyConnection() throws IOException {
        write("broker.json", "{\"user\": \"mesh-controller\", \"password\": \"" + PASSWORD + "\"");
        env.remove("MESH_BUS_NATS_FILE");
        env.put("MESH_STORE_LICENCES_PORT", "127.0.0.1:70000");

        CommandRun run = Cli.run(env, "serve");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly(
                "mesh-controller: MESH_STORE_LICENCES_PORT=127.0.0.1:70000 is not host:port; write e.g. "
                        + "127.0.0.1:5432, db.mesh.internal:5432 or [::1]:5432 (port 1-65535)",
                "mesh-controller: MESH_BROKER_ADDRESS_FILE=" + dir.resolve("broker.json") + ": not valid JSON at "
                        + "line 1, column 59; write {\"user\": \"…\", \"password\": \"…\", \"vhost\": \"…\"}",
                "mesh-controller: MESH_BUS_NATS_FILE is not set; set it to the path of a JSON file {\"url\", "
                        + "\"user\"?, \"password\"?, \"token\"?, \"creds\"?} readable by this process");
        assertThat(run.out() + run.err()).doesNotContain(PASSWORD);
        assertThat(tripwire.accept()).as("a connection to a configured address").isNull();
    }

    @Test
    void serve_goodEnvironment_storeNotAnswering_exit1_namingTheStore_noSecretNoTrace() throws IOException {
        CommandRun run = Cli.run(env, "serve");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("mesh-controller: ").contains("inventory").doesNotContain(PASSWORD)
                .doesNotContain("\tat ").doesNotContain("Exception");
    }

    /** Writes a file in the test's directory, for the owner only; returns its path. */
    private String write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file.toString();
    }
}
