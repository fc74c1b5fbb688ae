package dev.mesh.controller.system;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
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
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The mesh the handover driver's controllers serve, made on the local services as a host makes it for
 * the controller's module: three databases of the run's own on the local PostgreSQL ({@code
 * mesh_ho_<random>_inventory}, …), migrated by the bundle's {@code prepare}; a RabbitMQ virtual host
 * of the run's own ({@link Loopback}), the controller as {@code guest}; the local NATS; the credentials
 * files and ports of docs/design.md section 11 in the run's directory ({@link ServeEnvironment}); and {@code guest} granted every verb
 * with the bundle's {@code grant}. {@link #close()} drops the databases and the virtual host.
 *
 * <p>The cluster driver makes the same mesh on other {@link Services}: the broker's three nodes, the store's primary
 * and standby, the bus's three servers, each named to the controllers as docs/cli.md tells an operator (every member,
 * separated by commas).
 */
public final class HandoverMesh implements AutoCloseable {

    public static final String NATS_URL = Loopback.NATS_URL;
    private static final String START_POSTGRES =
            "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

    private final Path bundle;
    private final Path dir;
    private final Endpoint admin;
    private final Map<Database, Endpoint> databases;
    private final MeshBroker broker;
    private final String nats;
    private final Map<String, String> env;

    /**
     * Where a mesh's services are.
     *
     * @param store the database server, as its superuser: one server, or a primary and its standbys
     * @param broker opens the broker's virtual host of the run's own
     * @param nats the bus's NATS URL, or a cluster's separated by commas
     */
    record Services(Endpoint store, Supplier<MeshBroker> broker, String nats) {

        /** @return the local services: PostgreSQL (5432, or {@code MESH_TEST_PG_*}), RabbitMQ, NATS */
        static Services local() {
            Map<String, String> system = System.getenv();
            return new Services(new Endpoint(system.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1"),
                    Integer.parseInt(system.getOrDefault("MESH_TEST_PG_PORT", "5432")), "postgres",
                    system.getOrDefault("MESH_TEST_PG_USER", "postgres"),
                    Secret.of(system.getOrDefault("MESH_TEST_PG_PASSWORD", ""))), Loopback::open, NATS_URL);
        }

        Services withStore(Endpoint other) {
            return new Services(other, broker, nats);
        }

        Services withBroker(Supplier<MeshBroker> other) {
            return new Services(store, other, nats);
        }

        Services withNats(String other) {
            return new Services(store, broker, other);
        }
    }

    private HandoverMesh(Path bundle, Path dir, Endpoint admin, Map<Database, Endpoint> databases,
            MeshBroker broker, String nats, Map<String, String> env) {
        this.bundle = bundle;
        this.dir = dir;
        this.admin = admin;
        this.databases = databases;
        this.broker = broker;
        this.nats = nats;
        this.env = env;
    }

    /**
     * Makes the mesh: databases, virtual host, files; then {@code prepare} and {@code grant guest …}.
     *
     * @param bundle the bundle's {@code mesh-controller} launcher
     * @param dir the run's directory (credentials files, logs)
     */
    public static HandoverMesh create(Path bundle, Path dir) {
        return create(bundle, dir, Services.local());
    }

    /**
     * Makes the mesh on these services.
     *
     * @param bundle the bundle's {@code mesh-controller} launcher
     * @param dir the run's directory (credentials files, logs)
     */
    static HandoverMesh create(Path bundle, Path dir, Services services) {
        Endpoint admin = services.store();
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        String prefix = "mesh_ho_" + HexFormat.of().formatHex(random);
        // The broker and its management API first: when they do not answer, nothing is made to be left behind.
        MeshBroker broker = services.broker().get();
        Map<Database, Endpoint> databases = new EnumMap<>(Database.class);
        HandoverMesh mesh = new HandoverMesh(bundle, dir, admin, databases, broker, services.nats(), Map.of());
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
            serve.database(database.name(), String.join(",", endpoint.servers().stream().map(Address::text)
                    .toList()), endpoint.user(), endpoint.password().reveal(), endpoint.database());
        }
        MeshBroker broker = empty.broker;
        Map<String, String> env = serve.broker(broker.members(), broker.vhost(), Loopback.USER, Loopback.PASSWORD)
                .nats(empty.nats).variables();
        HandoverMesh mesh = new HandoverMesh(empty.bundle, dir, admin, databases, broker, empty.nats, env);
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

    /**
     * @return the local broker's virtual host
     * @throws IllegalStateException when the mesh is on the cluster's
     */
    public Loopback loopback() {
        if (broker instanceof Loopback loopback) {
            return loopback;
        }
        throw new IllegalStateException("this mesh's broker is the cluster " + broker.members() + ", not loopback");
    }

    /** @return the broker's virtual host, the local one or the cluster's */
    MeshBroker broker() {
        return broker;
    }

    /** @return the bus's NATS URL, or a cluster's separated by commas */
    String nats() {
        return nats;
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
        broker.close();
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
