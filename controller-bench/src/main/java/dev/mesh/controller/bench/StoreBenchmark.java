package dev.mesh.controller.bench;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.MemoryEvents;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.Migrations;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgPlanLock;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The store path of the verbs on the real PostgreSQL, beside the floor measured in the same run:
 *
 * <ul>
 *   <li>{@code assign} — what {@code assign} writes, as the active controller writes it: the
 *       assignment through the {@linkplain PgInventory#fenced fenced inventory}, inside
 *       {@link PgPlanLock#holding} of an {@linkplain PgPlanLock#acquire() acquired} lock, so one
 *       transaction that checks the epoch (and that the lock's session holds the lock) and inserts
 *       the row;</li>
 *   <li>{@code floorInsertAndSelect} — the floor: plain JDBC, one single-row insert and one
 *       single-row select by primary key, each its own (auto-committed) statement, on the same
 *       pool; {@code floorInsert} the insert alone;</li>
 *   <li>{@code nodes} — the {@code nodes} verb ({@link Verbs#call}) over an inventory of 10,000
 *       nodes, the 50 modules and their 75,000-odd assignments of {@link SyntheticMesh}: it reads
 *       the nodes, the modules and the assignments and seats the mesh to say which seats each node
 *       holds.</li>
 * </ul>
 *
 * <p>Each fork works in its own database {@code mesh_bench_<random>} on the server
 * {@code MESH_TEST_PG_HOST}:{@code MESH_TEST_PG_PORT} (default 127.0.0.1:5432) as
 * {@code MESH_TEST_PG_USER} (default {@code postgres}, {@code MESH_TEST_PG_PASSWORD} if set), and
 * drops it at the end. The modules are pushed with the claims of {@link SyntheticMesh}'s (every
 * tenth claims a node seat, modules 5, 15, …, 45 a mesh seat), without their processes, which
 * {@code nodes} does not read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class StoreBenchmark {

    private static final int NODES = 10_000;

    private Endpoint admin;
    private Endpoint endpoint;
    private ConnectionPool pool;
    private PgPlanLock lock;
    private PgInventory inventory;
    private Verbs verbs;
    private final JsonNode noArguments = JsonNodeFactory.instance.objectNode();
    private long next;

    /** Creates and migrates the database, loads the mesh and acquires the plan lock. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        Map<String, String> env = System.getenv();
        admin = new Endpoint(env.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1"),
                Integer.parseInt(env.getOrDefault("MESH_TEST_PG_PORT", "5432")), "postgres",
                env.getOrDefault("MESH_TEST_PG_USER", "postgres"), env.getOrDefault("MESH_TEST_PG_PASSWORD", ""));
        byte[] random = new byte[5];
        new SecureRandom().nextBytes(random);
        endpoint = admin.withDatabase("mesh_bench_" + HexFormat.of().formatHex(random));
        execute(admin.dataSource(), "CREATE DATABASE " + endpoint.database());
        Migrations.of(Database.INVENTORY, endpoint.dataSource()).migrate();
        pool = ConnectionPool.open(endpoint, 4);
        execute(pool.dataSource(), "CREATE TABLE floor_rows (id bigint PRIMARY KEY, value text NOT NULL)");
        load(SyntheticMesh.of(NODES));
        lock = PgPlanLock.of(endpoint, pool.dataSource(), "bench", Duration.ofSeconds(10));
        lock.acquire();
        inventory = PgInventory.fenced(pool.dataSource(), lock);
        verbs = Verbs.of(inventory, lock, new MemoryEvents(), Layout.DEFAULT);
    }

    /** Releases the lock, closes the pool and drops the database. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        lock.close();
        pool.close();
        execute(admin.dataSource(), "DROP DATABASE IF EXISTS " + endpoint.database() + " WITH (FORCE)");
    }

    /** @return whether the assignment was new (always) */
    @Benchmark
    public boolean assign() {
        Assignment assignment = new Assignment("bench-module", "bench-node-" + next++);
        return lock.holding(() -> inventory.assign(assignment));
    }

    /** @return the value read back */
    @Benchmark
    public String floorInsertAndSelect() throws SQLException {
        long id = next++;
        try (Connection connection = pool.dataSource().getConnection()) {
            insert(connection, id);
            try (PreparedStatement select = connection.prepareStatement("SELECT value FROM floor_rows WHERE id = ?")) {
                select.setLong(1, id);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getString(1);
                }
            }
        }
    }

    /** @return rows inserted (1) */
    @Benchmark
    public int floorInsert() throws SQLException {
        try (Connection connection = pool.dataSource().getConnection()) {
            return insert(connection, next++);
        }
    }

    /** @return the verb's answer */
    @Benchmark
    public JsonNode nodes() {
        return verbs.call("nodes", noArguments);
    }

    private static int insert(Connection connection, long id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO floor_rows (id, value) VALUES (?, ?)")) {
            insert.setLong(1, id);
            insert.setString(2, "row-" + id);
            return insert.executeUpdate();
        }
    }

    /** Loads nodes and assignments in batches, and pushes the modules through the inventory. */
    private void load(Mesh mesh) throws SQLException {
        PgInventory loader = new PgInventory(pool.dataSource());
        for (int m = 0; m < SyntheticMesh.MODULES; m++) {
            loader.push(ModuleVersion.parse(document(m), "mod-" + m + ".json"));
        }
        try (Connection connection = pool.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement nodes = connection.prepareStatement(
                    "INSERT INTO nodes (name, address, system) VALUES (?, ?, ?)")) {
                for (Node node : mesh.nodes()) {
                    nodes.setString(1, node.name());
                    nodes.setString(2, node.address());
                    nodes.setString(3, node.system());
                    nodes.addBatch();
                }
                nodes.executeBatch();
            }
            try (PreparedStatement assignments = connection.prepareStatement(
                    "INSERT INTO assignments (node, module) VALUES (?, ?)")) {
                for (Assignment assignment : mesh.assignments()) {
                    assignments.setString(1, assignment.node());
                    assignments.setString(2, assignment.module());
                    assignments.addBatch();
                }
                assignments.executeBatch();
            }
            connection.commit();
        }
        execute(pool.dataSource(), "ANALYZE");
    }

    private static String document(int m) {
        String claim = m % 10 == 0 ? ", \"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"node\"}]"
                : m % 10 == 5 ? ", \"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"mesh\"}]" : "";
        return "{\"module\": \"mod-" + m + "\", \"version\": \"1." + m + "\"" + claim + "}";
    }

    private static void execute(DataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
