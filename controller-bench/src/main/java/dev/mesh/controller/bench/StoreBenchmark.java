package dev.mesh.controller.bench;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgPlanLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
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
 *   <li>{@code nodes} — every node of the {@code nodes} verb ({@link Verbs#call}) over an inventory of
 *       10,000 nodes, the 50 modules and their 75,000-odd assignments of {@link SyntheticMesh}: since the
 *       verb is paged (issue 25), its ten pages of 1,000 one after the other, each reading its nodes, the
 *       modules, and its nodes' assignments of the modules that claim seats to say which seats each holds —
 *       what one call of the verb answered before;</li>
 *   <li>{@code nodesPage} — one page of 1,000 in the middle of those nodes (after the 5,000th).</li>
 * </ul>
 *
 * <p>Each fork works in a database of its own ({@link BenchStore}), dropped at the end.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class StoreBenchmark {

    private BenchStore store;
    private PgPlanLock lock;
    private PgInventory inventory;
    private Verbs verbs;
    private final JsonNode noArguments = JsonNodeFactory.instance.objectNode();
    /** The arguments of the page after the 5,000th node. */
    private JsonNode middle;
    private long next;

    /** Creates and loads the database (10,000 nodes) and acquires the plan lock; a table for the floor. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        store = BenchStore.create(10_000);
        BenchStore.execute(store.dataSource(), "CREATE TABLE floor_rows (id bigint PRIMARY KEY, value text NOT NULL)");
        lock = store.lock();
        inventory = store.inventory();
        Lifecycle lifecycle = LocalLifecycle.active(lock, "bench", Clock.systemUTC());
        verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(), RequestRecords.NONE,
                Layout.DEFAULT, Clock.systemUTC()));
        // The cursor is opaque: the fifth page's next is the way to the sixth.
        JsonNode page = verbs.call("nodes", noArguments);
        for (int p = 1; p < 5; p++) {
            page = verbs.call("nodes", JsonNodeFactory.instance.objectNode().put("after", page.path("next").asString()));
        }
        middle = JsonNodeFactory.instance.objectNode().put("after", page.path("next").asString());
    }

    /** Drops the database. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        store.close();
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
        try (Connection connection = store.dataSource().getConnection()) {
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
        try (Connection connection = store.dataSource().getConnection()) {
            return insert(connection, next++);
        }
    }

    /** @return how many nodes the pages held (10,000) */
    @Benchmark
    public int nodes() {
        JsonNode page = verbs.call("nodes", noArguments);
        int nodes = page.path("nodes").size();
        while (page.has("next")) {
            page = verbs.call("nodes", JsonNodeFactory.instance.objectNode().put("after", page.path("next").asString()));
            nodes += page.path("nodes").size();
        }
        return nodes;
    }

    /** @return the verb's answer: the sixth page of 1,000 */
    @Benchmark
    public JsonNode nodesPage() {
        return verbs.call("nodes", middle);
    }

    private static int insert(Connection connection, long id) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO floor_rows (id, value) VALUES (?, ?)")) {
            insert.setLong(1, id);
            insert.setString(2, "row-" + id);
            return insert.executeUpdate();
        }
    }
}
