package dev.mesh.controller.system;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.testing.ServeEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The mesh the handover driver's controllers serve, made on the local services as a host makes it for
 * the controller's module: three databases of the run's own on the local PostgreSQL ({@code
 * mesh_ho_<random>_inventory}, …), migrated by the bundle's {@code prepare}; a RabbitMQ virtual host
 * of the run's own ({@link Loopback}), the controller as {@code guest}; the local NATS; the credentials
 * files and ports of docs/design.md section 11 in the run's directory ({@link ServeEnvironment}); and {@code guest} granted every verb
 * with the bundle's {@code grant}. {@link #close()} drops the databases and the virtual host.
 */
public final class HandoverMesh implements AutoCloseable {

    public static final String NATS_URL = Loopback.NATS_URL;
    private static final String START_POSTGRES =
            "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

    private final Path bundle;
    private final Path dir;
    private final Endpoint admin;
    private final Map<Database, Endpoint> databases;
    private final Loopback loopback;
    private final Map<String, String> env;

    private HandoverMesh(Path bundle, Path dir, Endpoint admin, Map<Database, Endpoint> databases,
            Loopback loopback, Map<String, String> env) {
        this.bundle = bundle;
        this.dir = dir;
        this.admin = admin;
        this.databases = databases;
        this.loopback = loopback;
        this.env = env;
    }

    /**
     * Makes the mesh: databases, virtual host, files; then {@code prepare} and {@code grant guest …}.
     *
     * @param bundle the bundle's {@code mesh-controller} launcher
     * @param dir the run's directory (credentials files, logs)
     */
    public static HandoverMesh create(Path bundle, Path dir) {
        Map<String, String> system = System.getenv();
        Endpoint admin = new Endpoint(system.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1"),
                Integer.parseInt(system.getOrDefault("MESH_TEST_PG_PORT", "5432")), "postgres",
                system.getOrDefault("MESH_TEST_PG_USER", "postgres"),
                Secret.of(system.getOrDefault("MESH_TEST_PG_PASSWORD", "")));
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        String prefix = "mesh_ho_" + HexFormat.of().formatHex(random);
        // The broker and its management API first: when they do not answer, nothing is made to be left behind.
        Loopback loopback = Loopback.open();
        Map<Database, Endpoint> databases = new EnumMap<>(Database.class);
        HandoverMesh mesh = new HandoverMesh(bundle, dir, admin, databases, loopback, Map.of());
        try {
            return prepared(mesh, prefix);
        } catch (RuntimeException e) {
            mesh.close();
            throw e;
        }
    }

    /** Makes the run's databases into {@code mesh}'s (empty) map, then prepares and grants as the host would. */
    private static HandoverMesh prepared(HandoverMesh empty, String prefix) {
        Endpoint admin = empty.admin;
        Path dir = empty.dir;
        Map<Database, Endpoint> databases = empty.databases;
        ServeEnvironment serve = ServeEnvironment.in(dir);
        for (Database database : Database.values()) {
            Endpoint endpoint = admin.withDatabase(prefix + "_" + database.name().toLowerCase(Locale.ROOT));
            try {
                execute(admin.dataSource(), "CREATE DATABASE " + endpoint.database());
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create database " + endpoint.database() + " on "
                        + admin.address() + " (" + e.getMessage() + "); is PostgreSQL running? start it: "
                        + START_POSTGRES, e);
            }
            databases.put(database, endpoint);
            serve.database(database.name(), endpoint.host(), endpoint.port(), endpoint.user(),
                    endpoint.password().reveal(), endpoint.database());
        }
        Loopback loopback = empty.loopback;
        Map<String, String> env = serve.broker(Loopback.HOST, Loopback.AMQP_PORT, loopback.vhost(), Loopback.USER,
                Loopback.PASSWORD).nats(NATS_URL).variables();
        HandoverMesh mesh = new HandoverMesh(empty.bundle, dir, admin, databases, loopback, env);
        mesh.run("prepare");
        List<String> grant = new ArrayList<>(List.of("grant", Loopback.USER));
        grant.addAll(Verbs.names());
        mesh.run(grant.toArray(String[]::new));
        return mesh;
    }

    /** @return the environment the controller's manifest gives {@code serve} */
    public Map<String, String> env() {
        return env;
    }

    public Path bundle() {
        return bundle;
    }

    public Path dir() {
        return dir;
    }

    public Loopback loopback() {
        return loopback;
    }

    /** @return the inventory database, as the driver reads it (never the controllers' connections) */
    public DataSource inventory() {
        return databases.get(Database.INVENTORY).dataSource();
    }

    /** Makes these names principals of the identity store, as the operator or genesis does for every node. */
    public void enroll(java.util.Collection<String> principals) {
        dev.mesh.controller.store.PgIdentity identity = new dev.mesh.controller.store.PgIdentity(
                databases.get(Database.IDENTITY).dataSource());
        principals.forEach(identity::enroll);
    }

    /** Runs the bundle with these arguments and this mesh's environment to its exit; fails unless it exits 0. */
    public void run(String... arguments) {
        List<String> command = new ArrayList<>(List.of(bundle.toString()));
        command.addAll(List.of(arguments));
        Path out = dir.resolve(arguments[0] + "-" + System.nanoTime() + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        environment(builder);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", arguments) + " did not end within 120 s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("mesh-controller " + String.join(" ", arguments) + " exited "
                        + process.exitValue() + ": " + Files.readString(out, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + bundle + "; is the bundle assembled (mvn package)?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", arguments), e);
        }
    }

    /** Gives a process of the bundle this mesh's environment, and none of the caller's {@code MESH_*}. */
    public void environment(ProcessBuilder builder) {
        builder.environment().keySet().removeIf(name -> name.startsWith("MESH_"));
        builder.environment().putAll(env);
        // The driver's own MESH_LOG_LEVEL (DEBUG for the controllers' decisions) reaches them.
        Optional.ofNullable(System.getenv("MESH_LOG_LEVEL")).ifPresent(level -> builder.environment()
                .put("MESH_LOG_LEVEL", level));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    }

    @Override
    public void close() {
        loopback.close();
        for (Endpoint endpoint : databases.values()) {
            try {
                execute(admin.dataSource(), "DROP DATABASE IF EXISTS " + endpoint.database()
                        + " WITH (FORCE)");
            } catch (SQLException e) {
                System.err.println("handover driver: could not drop " + endpoint.database() + ": " + e.getMessage());
            }
        }
    }

    private static void execute(DataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
