package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.CommandRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mesh-controller prepare} against the real PostgreSQL server (127.0.0.1:5432 as
 * {@code postgres}, or {@code MESH_TEST_PG_HOST}/{@code _PORT}/{@code _USER}/{@code _PASSWORD}), in
 * three fresh databases for each test, from the store's {@link TestDatabases}, and the local RabbitMQ
 * (127.0.0.1:5672 as {@code guest}), in a virtual host of each test's own.
 */
class PrepareCommandIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    /** Where the server is and who logs in, as the credentials files say. */
    private Endpoint server;

    @TempDir
    Path dir;

    private RabbitVhost vhost;

    /** Three fresh, empty databases and a virtual host for each test. */
    @BeforeEach
    void createDatabases() {
        for (Database database : Database.values()) {
            server = databases.empty(database);
        }
        vhost = RabbitVhost.create();
    }

    @AfterEach
    void deleteVhost() {
        vhost.close();
    }

    @Test
    void prepare_twice_migratesThenSaysNothingToDo() throws IOException {
        Map<String, String> env = environment(Map.of());

        CommandRun first = Cli.run(env, "prepare");
        CommandRun second = Cli.run(env, "prepare");

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.lines()).containsExactly(
                "inventory: migrated from empty to version 6 (applied 1 inventory, 2 node facts, 3 deliveries, "
                    + "4 handovers, 5 built artifacts, 6 schema floor)",
                "identity: migrated from empty to version 2 (applied 1 identity, 2 schema floor)",
                "licences: migrated from empty to version 2 (applied 1 licences, 2 schema floor)",
                "broker: topology declared in virtual host " + vhost.name() + " (created 3 queues and 3 exchanges)",
                "prepared: 3 of 3 databases migrated, the broker's topology declared");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.lines()).containsExactly("inventory: already up to date at version 6",
                "identity: already up to date at version 2", "licences: already up to date at version 2",
                "broker: topology already declared in virtual host " + vhost.name() + " (3 queues and 3 exchanges)",
                "nothing to do: every database was up to date and the broker's topology was declared already");
        assertThat(vhost.queues("type", "arguments")).hasSize(3).allSatisfy(queue -> assertThat(queue)
                .contains("quorum"));
    }

    @Test
    void prepare_aQueueWithOtherArguments_exits1_withTopologysLines_andStillMigrates() throws Exception {
        vhost.python("channel.queue_declare('mesh-controller.verbs', durable=True, arguments={'x-queue-type': "
                + "'quorum', 'x-single-active-consumer': True, 'x-delivery-limit': 3, 'x-dead-letter-exchange': "
                + "'mesh-controller.dead'})");
        Map<String, String> env = environment(Map.of());

        CommandRun run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(4).last().isEqualTo("the broker's topology could not be prepared");
        List<String> err = run.err().lines().toList();
        assertThat(err).hasSize(2);
        assertThat(err.get(0)).isEqualTo("mesh-controller: broker: the broker's topology in virtual host "
                + vhost.name() + " differs from the controller's (1 problem):");
        assertThat(err.get(1)).startsWith("  queue mesh-controller.verbs exists with other arguments: its "
                + "x-delivery-limit differs from the controller's (the broker says: PRECONDITION_FAILED - inequivalent "
                + "arg 'x-delivery-limit'").endsWith("); delete the queue, or migrate it, then start again");

        CommandRun again = Cli.run(env, "prepare");
        assertThat(again.exitCode()).as("still refused, and nothing was changed").isEqualTo(1);
        assertThat(again.lines().getFirst()).isEqualTo("inventory: already up to date at version 6");
    }

    @Test
    void prepare_brokerThatDoesNotAnswer_isOneLine_exits1_andTheDatabasesAreMigrated() throws IOException {
        Map<String, String> env = new HashMap<>(environment(Map.of()));
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:" + closedPort);

        CommandRun run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(4).startsWith("inventory: migrated from empty to version 6 (applied 1 "
                + "inventory, 2 node facts, 3 deliveries, 4 handovers, 5 built artifacts, 6 schema floor)").last().isEqualTo("the broker's topology could not be "
                + "prepared");
        assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line).startsWith(
                "mesh-controller: broker: cannot connect to the broker as guest@127.0.0.1:" + closedPort + "/"
                        + vhost.name() + ": ").doesNotContain("\tat "));
    }

    @Test
    void prepare_oneDatabaseMissing_reportsIt_migratesTheOthers_exits1() throws IOException {
        Map<String, String> env = environment(Map.of("licences", "mesh_it_absent_database"));

        CommandRun run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(4).last().isEqualTo("1 of 3 databases could not be prepared");
        assertThat(run.err()).startsWith("mesh-controller: licences: could not migrate the licences database")
                .contains("prepare").doesNotContain("\tat ");
    }

    @Test
    void prepare_credentialsReadableByOthers_warnsOnStandardError_andPrepares() throws IOException {
        Map<String, String> env = environment(Map.of());
        Path inventory = Path.of(env.get("MESH_STORE_INVENTORY_FILE"));
        Files.setPosixFilePermissions(inventory, PosixFilePermissions.fromString("rw-r--r--"));

        CommandRun run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err().lines()).containsExactly("mesh-controller: warning: MESH_STORE_INVENTORY_FILE=" + inventory
                + ": the credentials file has mode rw-r--r--, so other users of this machine may read its password; "
                + "run chmod 600 " + inventory);
        assertThat(run.lines()).last().isEqualTo("prepared: 3 of 3 databases migrated, the broker's topology declared");
    }

    @Test
    void prepare_unreachableServer_saysSoInOneLineOfOurOwn_withoutFlywaysText() throws IOException {
        Map<String, String> env = new HashMap<>(environment(Map.of()));
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        env.put("MESH_STORE_IDENTITY_PORT", "127.0.0.1:" + closedPort);

        CommandRun run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines()).containsExactly("mesh-controller: identity: could not migrate the identity "
                + "database at postgresql://" + server.user() + "@127.0.0.1:" + closedPort + "/" + databases.endpoint(Database.IDENTITY)
                .database() + ": nothing accepts connections there (connection refused) "
                + "(SQLState 08001); check that PostgreSQL runs at 127.0.0.1:" + closedPort
                + " and MESH_STORE_IDENTITY_PORT names it");
        assertThat(run.err()).doesNotContainIgnoringCase("flyway").doesNotContain("SQL State").doesNotContain("----");
    }

    @Test
    void prepare_withoutConfiguration_namesEachVariable_exits2() {
        CommandRun run = Cli.run(Map.of(), "prepare");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).hasSize(8).allSatisfy(line -> assertThat(line).startsWith("mesh-controller: MESH_"))
                .filteredOn(line -> line.startsWith("mesh-controller: MESH_BROKER_ADDRESS_")).hasSize(2);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void prepare_neverShowsThePassword_inOutputErrorsOrLogs() throws IOException {
        Map<String, String> env = environment(Map.of("licences", "mesh_it_absent_database"));
        List<String> logged = new CopyOnWriteArrayList<>();
        Logger root = Logger.getLogger("");
        Level level = root.getLevel();
        Handler capture = new Handler() {
            private final Formatter format = new SimpleFormatter();

            @Override
            public void publish(LogRecord record) {
                logged.add(format.format(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        root.addHandler(capture);
        root.setLevel(Level.ALL);
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(console, true, StandardCharsets.UTF_8));
        CommandRun first;
        CommandRun second;
        try {
            first = Cli.run(env, "prepare");
            second = Cli.run(env, "prepare");
        } finally {
            System.setOut(out);
            System.setErr(err);
            root.setLevel(level);
            root.removeHandler(capture);
        }

        assertThat(first.exitCode()).isEqualTo(1);
        assertThat(logged).as("the capture works: the migrations log what they do").isNotEmpty();
        String everything = String.join("\n", logged) + console + first.out() + first.err() + second.out()
                + second.err();
        assertThat(everything).doesNotContain(password());
    }

    /** The password the credentials files hold: the server's, or a marker trust authentication ignores. */
    private String password() {
        return server.password().isEmpty() ? "unused-under-trust-9c41e7" : server.password().reveal();
    }

    /** Credentials files for the three test databases, with some database names replaced. */
    private Map<String, String> environment(Map<String, String> names) throws IOException {
        Map<String, String> env = new HashMap<>();
        for (Database database : Database.values()) {
            String role = database.label();
            Path file = dir.resolve(role + ".json");
            Files.writeString(file, "{\"user\": \"" + server.user() + "\", \"password\": \"" + password()
                    + "\", \"database\": \"" + names.getOrDefault(role, databases.endpoint(database).database())
                    + "\"}");
            // As a user keeps credentials: for the owner only (a file others may read draws a warning).
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            String variable = "MESH_STORE_" + role.toUpperCase(Locale.ROOT);
            env.put(variable + "_FILE", file.toString());
            env.put(variable + "_PORT", (server.host().contains(":") ? "[" + server.host() + "]" : server.host()) + ":"
                    + server.port());
        }
        // prepare declares the broker's topology too, in the test's own virtual host.
        env.putAll(vhost.environment(dir));
        return env;
    }
}
