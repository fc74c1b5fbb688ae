package dev.mesh.controller.bench;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.Migrations;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgPlanLock;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * A migrated {@code inventory} database of the benchmarks' own on the local PostgreSQL, holding
 * the nodes and assignments of {@link SyntheticMesh} and its modules' claims, with the plan lock
 * acquired as the active controller holds it. The server is {@code MESH_TEST_PG_HOST}:{@code
 * MESH_TEST_PG_PORT} (default 127.0.0.1:5432) as {@code MESH_TEST_PG_USER} (default
 * {@code postgres}, {@code MESH_TEST_PG_PASSWORD} if set); the database,
 * {@code mesh_bench_<random>}, is dropped by {@link #close()}.
 *
 * <p>The modules are pushed with the claims of {@link SyntheticMesh}'s (every tenth claims a node
 * seat, modules 5, 15, …, 45 a mesh seat) and nothing else: the verbs measured here read claims,
 * not processes.
 */
final class BenchStore implements AutoCloseable {

    private final Endpoint admin;
    private final Endpoint endpoint;
    private final ConnectionPool pool;
    private final PgPlanLock lock;
    private final PgInventory inventory;

    private BenchStore(Endpoint admin, Endpoint endpoint, ConnectionPool pool, PgPlanLock lock) {
        this.admin = admin;
        this.endpoint = endpoint;
        this.pool = pool;
        this.lock = lock;
        this.inventory = PgInventory.fenced(pool.dataSource(), lock);
    }

    /** Creates, migrates and loads the database for a mesh of {@code nodes} nodes; acquires the lock. */
    static BenchStore create(int nodes) throws SQLException {
        return create(nodes, BenchStore::document);
    }

    /**
     * Creates, migrates and loads the database for a mesh of {@code nodes} nodes, its modules pushed as
     * {@code documents} gives them (by number); acquires the lock.
     *
     * @param nodes how many nodes
     * @param documents module {@code m}'s manifest: {@link SyntheticMesh#document} for the whole modules
     * @return the store
     * @throws SQLException when the server refuses
     */
    static BenchStore create(int nodes, IntFunction<String> documents) throws SQLException {
        Map<String, String> env = System.getenv();
        Endpoint admin = new Endpoint(env.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1"),
                Integer.parseInt(env.getOrDefault("MESH_TEST_PG_PORT", "5432")), "postgres",
                env.getOrDefault("MESH_TEST_PG_USER", "postgres"), Secret.of(env.getOrDefault("MESH_TEST_PG_PASSWORD", "")));
        byte[] random = new byte[5];
        new SecureRandom().nextBytes(random);
        Endpoint endpoint = admin.withDatabase("mesh_bench_" + HexFormat.of().formatHex(random));
        execute(admin.dataSource(), "CREATE DATABASE " + endpoint.database());
        Migrations.of(Database.INVENTORY, endpoint.dataSource()).migrate();
        ConnectionPool pool = ConnectionPool.open(endpoint, 4);
        load(pool.dataSource(), SyntheticMesh.of(nodes), documents);
        PgPlanLock lock = PgPlanLock.of(endpoint, pool.dataSource(), "bench", Duration.ofSeconds(10));
        lock.acquire();
        return new BenchStore(admin, endpoint, pool, lock);
    }

    DataSource dataSource() {
        return pool.dataSource();
    }

    PgPlanLock lock() {
        return lock;
    }

    /** @return the controller's inventory: fenced by {@link #lock()} */
    PgInventory inventory() {
        return inventory;
    }

    /** Releases the lock, closes the pool and drops the database. */
    @Override
    public void close() throws SQLException {
        lock.close();
        pool.close();
        execute(admin.dataSource(), "DROP DATABASE IF EXISTS " + endpoint.database() + " WITH (FORCE)");
    }

    static void execute(DataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Loads nodes and assignments in batches, and pushes the modules through the inventory. */
    static void load(DataSource database, Mesh mesh, IntFunction<String> documents) throws SQLException {
        PgInventory loader = new PgInventory(database);
        for (int m = 0; m < SyntheticMesh.MODULES; m++) {
            loader.push(ModuleVersion.parse(documents.apply(m), "mod-" + m + ".json"));
        }
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO nodes (name, address, system) VALUES (?, ?, ?)")) {
                for (Node node : mesh.nodes()) {
                    insert.setString(1, node.name());
                    insert.setString(2, node.address());
                    insert.setString(3, node.system());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO assignments (node, module) VALUES (?, ?)")) {
                for (Assignment assignment : mesh.assignments()) {
                    insert.setString(1, assignment.node());
                    insert.setString(2, assignment.module());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
        execute(database, "ANALYZE");
    }

    private static String document(int m) {
        String claim = m % 10 == 0 ? ", \"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"node\"}]"
                : m % 10 == 5 ? ", \"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"mesh\"}]" : "";
        return "{\"module\": \"mod-" + m + "\", \"version\": \"1." + m + "\"" + claim + "}";
    }
}
