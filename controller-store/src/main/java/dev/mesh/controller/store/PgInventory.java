package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.ASSIGNMENTS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.NODES;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.excluded;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.store.internal.BuildId;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The {@link Inventory} on the store's {@code inventory} database. Every method is one
 * transaction; concurrent callers, in this process or another, see each other's committed
 * changes.
 *
 * <p>The controller's inventory is <em>fenced</em> by its plan lock: the writes that change what
 * is planned or what was sent — {@link #push}, {@link #assign}, {@link #unassign}, {@link #request},
 * {@link #desire}, {@link #delivered}, {@link #sent} — check in their transaction that this
 * controller's epoch is current (docs/design.md section 10), so a controller that lost the lock cannot
 * change the plan. What hosts and builders report — {@link #report}, {@link #acknowledge},
 * {@link #failed}, {@link #finish} — is recorded by whoever receives it. Modules, node facts,
 * declarations, deliveries, failures and builds are queried by {@link Modules},
 * {@link ReportedFacts}, {@link DesiredDeclarations}, {@link Deliveries}, {@link NodeFailures} and
 * {@link Builds}.
 *
 * <p>Manifests are parsed once per module version and kept ({@link Modules}); acknowledged declarations are
 * parsed again only when a node's revision changed since the last {@link #acknowledged()}.
 *
 * <p>Thread-safe. Methods throw {@link StoreException} when the database fails (it names the
 * operation and carries the driver's exception).
 */
public final class PgInventory implements Inventory {

    private final DataSource dataSource;
    private final DSLContext db;
    private final Writes planWrites;
    /** Unfenced transactions, for what hosts and builders report. */
    private final Writes reports;
    private final Modules modules = new Modules();
    /**
     * The acknowledged declarations the last {@link #acknowledged()} read, by node and revision: read again,
     * an unchanged one is neither fetched nor parsed (a round of the executor reads them all).
     */
    private volatile Map<String, Declaration> acknowledgedRead = Map.of();

    private PgInventory(DataSource dataSource, Writes planWrites) {
        this.dataSource = dataSource;
        this.db = DSL.using(dataSource, SQLDialect.POSTGRES);
        this.planWrites = planWrites;
        this.reports = Writes.plain(dataSource);
    }

    /**
     * An inventory whose writes are not fenced: for tools and tests that are not a planning
     * controller.
     *
     * @param dataSource a login to the migrated {@code inventory} database
     */
    public PgInventory(DataSource dataSource) {
        this(Objects.requireNonNull(dataSource, "dataSource"), Writes.plain(dataSource));
    }

    /**
     * The controller's inventory: its plan writes are fenced by {@code lock}, and run only while
     * the lock is held ({@link PgPlanLock#holding}) or acquired ({@link PgPlanLock#acquire}).
     *
     * @param dataSource a login to the migrated {@code inventory} database
     * @param lock the plan lock on the same database
     * @return the fenced inventory
     */
    public static PgInventory fenced(DataSource dataSource, PgPlanLock lock) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new PgInventory(dataSource, new FencedWrites(dataSource, Objects.requireNonNull(lock, "lock")));
    }

    @Override
    public List<Node> nodes() {
        return run("list the nodes", tx -> tx.select(NODES.NAME, NODES.ADDRESS, NODES.SYSTEM).from(NODES)
                .orderBy(NODES.NAME)
                .fetch(r -> new Node(r.value1(), r.value2(), r.value3())));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A keyset query on the nodes' key ({@code WHERE name > ? ORDER BY name LIMIT ?}): an index range
     * scan of the page alone, however many nodes come before it. Names sort as Java's
     * {@link String#compareTo} does (the column's collation is "C"; migration 1).
     */
    @Override
    public List<Node> nodes(String after, int limit) {
        Objects.requireNonNull(after, "after");
        if (limit < 1) {
            throw new IllegalArgumentException("a page holds at least 1 node, not " + limit);
        }
        return run("list " + limit + " nodes after \"" + after + "\"", tx -> tx
                .select(NODES.NAME, NODES.ADDRESS, NODES.SYSTEM).from(NODES)
                .where(NODES.NAME.gt(after))
                .orderBy(NODES.NAME)
                .limit(limit)
                .fetch(r -> new Node(r.value1(), r.value2(), r.value3())));
    }

    @Override
    public Optional<Node> node(String name) {
        return run("read node " + name, tx -> tx.selectFrom(NODES).where(NODES.NAME.eq(name))
                .fetchOptional(r -> new Node(r.getName(), r.getAddress(), r.getSystem())));
    }

    @Override
    public void report(Node node) {
        run("record node " + node.name(), tx -> tx.insertInto(NODES)
                .set(NODES.NAME, node.name())
                .set(NODES.ADDRESS, node.address())
                .set(NODES.SYSTEM, node.system())
                .onConflict(NODES.NAME).doUpdate()
                .set(NODES.ADDRESS, excluded(NODES.ADDRESS))
                .set(NODES.SYSTEM, excluded(NODES.SYSTEM))
                .set(NODES.REPORTED_AT, currentOffsetDateTime())
                .execute());
    }

    @Override
    public List<Manifest> modules() {
        return run("list the modules", modules::latest);
    }

    @Override
    public Optional<Manifest> module(String name) {
        return run("read module " + name, db -> modules.latest(db, name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Keeps the document as pushed (a {@code json} column keeps its text); the version pushed
     * last, even when pushed again unchanged, is the module's current one.
     */
    @Override
    public boolean push(ModuleVersion pushed) {
        return planWrites.write("record version " + pushed.version() + " of module " + pushed.module(),
                tx -> Modules.push(tx, pushed));
    }

    @Override
    public List<Assignment> assignments() {
        return run("list the assignments", tx -> tx.select(ASSIGNMENTS.MODULE, ASSIGNMENTS.NODE).from(ASSIGNMENTS)
                .orderBy(ASSIGNMENTS.NODE, ASSIGNMENTS.MODULE)
                .fetch(r -> new Assignment(r.value1(), r.value2())));
    }

    @Override
    public List<Assignment> assignments(Set<String> modules) {
        return run("list the assignments of " + modules.size() + " modules", tx -> tx
                .select(ASSIGNMENTS.MODULE, ASSIGNMENTS.NODE).from(ASSIGNMENTS)
                .where(ASSIGNMENTS.MODULE.in(modules))
                .orderBy(ASSIGNMENTS.NODE, ASSIGNMENTS.MODULE)
                .fetch(r -> new Assignment(r.value1(), r.value2())));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A range of the assignments' key (node, module), as {@link #nodes(String, int)} reads the nodes'.
     */
    @Override
    public List<Assignment> assignments(Set<String> modules, String after, String last) {
        if (modules.isEmpty()) {
            return List.of();
        }
        return run("list the assignments of " + modules.size() + " modules to the nodes after \"" + after
                + "\" up to \"" + last + "\"", tx -> tx
                .select(ASSIGNMENTS.MODULE, ASSIGNMENTS.NODE).from(ASSIGNMENTS)
                .where(ASSIGNMENTS.NODE.gt(after), ASSIGNMENTS.NODE.le(last), ASSIGNMENTS.MODULE.in(modules))
                .orderBy(ASSIGNMENTS.NODE, ASSIGNMENTS.MODULE)
                .fetch(r -> new Assignment(r.value1(), r.value2())));
    }

    @Override
    public boolean assign(Assignment assignment) {
        String what = "assign " + assignment.module() + " to " + assignment.node();
        return planWrites.write(what, tx -> tx.insertInto(ASSIGNMENTS)
                .set(ASSIGNMENTS.NODE, assignment.node())
                .set(ASSIGNMENTS.MODULE, assignment.module())
                .onConflictDoNothing()
                .execute() == 1);
    }

    @Override
    public boolean unassign(Assignment assignment) {
        String what = "unassign " + assignment.module() + " from " + assignment.node();
        return planWrites.write(what, tx -> tx.deleteFrom(ASSIGNMENTS)
                .where(ASSIGNMENTS.NODE.eq(assignment.node()), ASSIGNMENTS.MODULE.eq(assignment.module()))
                .execute() == 1);
    }

    @Override
    public Map<String, Declaration> acknowledged() {
        Map<String, Declaration> known = acknowledgedRead;
        Map<String, Declaration> read = run("list the acknowledged declarations",
                db -> DesiredDeclarations.acknowledged(db, known));
        Map<String, Declaration> keyed = new HashMap<>();
        read.values().forEach(d -> keyed.put(DesiredDeclarations.key(d.node(), d.revision()), d));
        acknowledgedRead = Map.copyOf(keyed);
        return read;
    }

    @Override
    public void acknowledge(Declaration declaration) {
        run("record the declaration node " + declaration.node() + " applied",
                db -> DesiredDeclarations.acknowledge(db, declaration));
    }

    @Override
    public Map<String, Built> built() {
        return run("list the builds done", Builds::done);
    }

    @Override
    public Set<String> requested() {
        return run("list the builds requested", Builds::requested);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A build that succeeded before is not requested again; one that failed may be.
     *
     * @throws IllegalArgumentException when the id is not {@code build:MODULE@VERSION/ARTIFACT}
     */
    @Override
    public boolean request(String buildId) {
        BuildId id = BuildId.parse(buildId);
        return planWrites.write("request " + buildId, tx -> Builds.request(tx, id));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Keeps the latest outcome and detail of each build.
     */
    @Override
    public void finish(Report.Build report) {
        BuildId id = BuildId.parse(report.build());
        if (report.usable() != report) {
            throw new IllegalArgumentException(report.problem().orElseThrow());
        }
        reports.write("record build " + report.build(), tx -> Builds.finish(tx, id, report));
    }

    @Override
    public Set<String> unsentBuilds() {
        return run("list the builds not sent", Builds::unsent);
    }

    @Override
    public void sent(String buildId, long epoch) {
        BuildId id = BuildId.parse(buildId);
        if (epoch < 1) {
            throw new IllegalArgumentException("a build is sent with the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
        planWrites.write("record build " + buildId + " sent", tx -> Builds.sent(tx, id, epoch));
    }

    @Override
    public Set<String> failedBuilds() {
        return run("list the builds failed", Builds::failed);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One transaction, and one statement per {@value ReportedFacts#ROWS_PER_STATEMENT} nodes.
     */
    @Override
    public void report(Collection<Facts> facts) {
        List<Facts> reported = List.copyOf(facts);
        if (!reported.isEmpty()) {
            reports.write("record the facts of " + reported.size() + " host reports", tx -> {
                ReportedFacts.record(tx, reported);
                return null;
            });
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One transaction of one statement, however many nodes: {@code last_seen_at} alone, updated from two arrays
     * (names and times) — no JSON, no insert, so a node's unchanged facts cost a fraction of their upsert.
     */
    @Override
    public void seen(Map<String, Instant> seen) {
        Map<String, Instant> times = Map.copyOf(seen);
        if (!times.isEmpty()) {
            reports.write("record when " + times.size() + " nodes were last seen", tx -> ReportedFacts.seen(tx, times));
        }
    }

    @Override
    public Map<String, Facts> facts() {
        return run("list the node facts", ReportedFacts::read);
    }

    @Override
    public Optional<Facts> facts(String node) {
        return run("read the facts of node " + node, db -> ReportedFacts.read(db, node));
    }

    @Override
    public Map<String, Sighting> sightings() {
        return run("list when the nodes were last seen", ReportedFacts::sightings);
    }

    @Override
    public Map<String, Sighting> sightings(String after, String last) {
        return run("list when the nodes after \"" + after + "\" up to \"" + last + "\" were last seen",
                db -> ReportedFacts.sightings(db, after, last));
    }

    @Override
    public boolean desire(Declaration declaration) {
        if (declaration.revision().isEmpty()) {
            throw new IllegalArgumentException("the declaration of node " + declaration.node()
                    + " has no revision; record a composed declaration");
        }
        return planWrites.write("record the declaration desired for node " + declaration.node(),
                tx -> DesiredDeclarations.desire(tx, declaration));
    }

    @Override
    public Map<String, Declaration> desired() {
        return run("list the desired declarations", DesiredDeclarations::read);
    }

    @Override
    public boolean acknowledge(String node, String revision) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        return reports.write("acknowledge revision " + revision + " of node " + node, tx -> {
            boolean acknowledged = DesiredDeclarations.acknowledge(tx, node, revision);
            if (acknowledged) {
                NodeFailures.clear(tx, node);
            }
            return acknowledged;
        });
    }

    @Override
    public void delivered(Delivery delivery) {
        Objects.requireNonNull(delivery, "delivery");
        planWrites.write("record the delivery of revision " + delivery.revision() + " to node " + delivery.node(),
                tx -> Deliveries.record(tx, delivery));
    }

    @Override
    public Map<String, Delivery> deliveries() {
        return run("list the deliveries", Deliveries::read);
    }

    @Override
    public void failed(Report.Failed report) {
        Objects.requireNonNull(report, "report");
        run("record the failure node " + report.node() + " reported", db -> NodeFailures.record(db, report));
    }

    @Override
    public Map<String, Report.Failed> failures() {
        return run("list the node failures", NodeFailures::read);
    }

    /** Runs one statement or transaction, turning jOOQ's failure into the store's. */
    private <T> T run(String what, Function<DSLContext, T> work) {
        try {
            return work.apply(db);
        } catch (DataAccessException e) {
            throw Failure.of(Database.INVENTORY, dataSource, what, e);
        }
    }
}
