package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.store.Endpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mesh-controller prepare} against the real PostgreSQL server (127.0.0.1:5432 as
 * {@code postgres}, or {@code MESH_TEST_PG_HOST}/{@code _PORT}/{@code _USER}/{@code _PASSWORD}), in
 * three fresh databases each test creates and drops.
 */
class PrepareCommandIT {

    private static final String START = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";
    private static final List<String> ROLES = List.of("inventory", "identity", "licences");

    private static Endpoint admin;
    private String prefix;

    @TempDir
    Path dir;

    @BeforeAll
    static void server() {
        Map<String, String> env = System.getenv();
        admin = new Endpoint(env.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1"),
                Integer.parseInt(env.getOrDefault("MESH_TEST_PG_PORT", "5432")), "postgres",
                env.getOrDefault("MESH_TEST_PG_USER", "postgres"), env.getOrDefault("MESH_TEST_PG_PASSWORD", ""));
    }

    /** Three fresh, empty databases for each test. */
    @BeforeEach
    void createDatabases() throws SQLException {
        byte[] random = new byte[5];
        new SecureRandom().nextBytes(random);
        prefix = "mesh_it_" + HexFormat.of().formatHex(random) + "_";
        for (String role : ROLES) {
            sql("CREATE DATABASE " + prefix + role);
        }
    }

    @AfterEach
    void dropDatabases() throws SQLException {
        for (String role : ROLES) {
            sql("DROP DATABASE IF EXISTS " + prefix + role + " WITH (FORCE)");
        }
    }

    private static void sql(String statement) throws SQLException {
        try (Connection connection = admin.dataSource().getConnection(); Statement sql = connection.createStatement()) {
            sql.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + admin.address() + " cannot be used (" + e.getMessage()
                    + "); start it with: " + START, e);
        }
    }

    @Test
    void prepare_twice_migratesThenSaysNothingToDo() throws IOException {
        Map<String, String> env = environment(Map.of());

        Cli.Run first = Cli.run(env, "prepare");
        Cli.Run second = Cli.run(env, "prepare");

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.lines()).containsExactly(
                "inventory: migrated from empty to version 1 (applied 1 inventory)",
                "identity: migrated from empty to version 1 (applied 1 identity)",
                "licences: migrated from empty to version 1 (applied 1 licences)",
                "prepared: 3 of 3 databases migrated");
        assertThat(second.exitCode()).isZero();
        assertThat(second.lines()).containsExactly("inventory: already up to date at version 1",
                "identity: already up to date at version 1", "licences: already up to date at version 1",
                "nothing to do: every database was up to date");
    }

    @Test
    void prepare_oneDatabaseMissing_reportsIt_migratesTheOthers_exits1() throws IOException {
        Map<String, String> env = environment(Map.of("licences", "mesh_it_absent_database"));

        Cli.Run run = Cli.run(env, "prepare");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(3).last().isEqualTo("1 of 3 databases could not be prepared");
        assertThat(run.err()).startsWith("mesh-controller: licences: could not migrate the licences database")
                .contains("prepare").doesNotContain("\tat ");
    }

    @Test
    void prepare_withoutConfiguration_namesEachVariable_exits2() {
        Cli.Run run = Cli.run(Map.of(), "prepare");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).hasSize(6).allSatisfy(line -> assertThat(line).startsWith("mesh-controller: MESH_STORE_"));
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
        Cli.Run first;
        Cli.Run second;
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
    private static String password() {
        return admin.password().isEmpty() ? "unused-under-trust-9c41e7" : admin.password();
    }

    /** Credentials files for the three test databases, with some database names replaced. */
    private Map<String, String> environment(Map<String, String> databases) throws IOException {
        Map<String, String> env = new HashMap<>();
        for (String role : ROLES) {
            Path file = dir.resolve(role + ".json");
            String password = password();
            Files.writeString(file, "{\"user\": \"" + admin.user() + "\", \"password\": \"" + password
                    + "\", \"database\": \"" + databases.getOrDefault(role, prefix + role) + "\"}");
            String variable = "MESH_STORE_" + role.toUpperCase(java.util.Locale.ROOT);
            env.put(variable + "_FILE", file.toString());
            env.put(variable + "_PORT", (admin.host().contains(":") ? "[" + admin.host() + "]" : admin.host()) + ":"
                    + admin.port());
        }
        return env;
    }
}
