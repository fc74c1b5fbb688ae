package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.NODES;
import static org.jooq.impl.DSL.currentOffsetDateTime;
import static org.jooq.impl.DSL.excluded;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Sighting;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep6;
import org.jooq.JSON;
import org.jooq.Record6;
import org.jooq.ResultQuery;
import org.jooq.impl.DSL;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The queries of node facts (the {@code nodes} table's {@code applied_revision}, {@code processes}
 * and {@code last_seen_at}, migration 2) for {@link PgInventory}, which runs them and turns their
 * failures into the store's. Stateless, so thread-safe.
 */
final class ReportedFacts {

    /**
     * Rows per statement: far below PostgreSQL's 65,535 bind parameters (six a row), large enough
     * that what the bus hands over at once is one statement.
     */
    static final int ROWS_PER_STATEMENT = 1000;

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private ReportedFacts() {
    }

    /**
     * Upserts every node with its latest facts of {@code reported}, in one statement per
     * {@value #ROWS_PER_STATEMENT} nodes; the caller runs it in one transaction. A node's stored
     * facts newer than the reported ones stay.
     *
     * @param reported not empty
     */
    static void record(DSLContext tx, Collection<Facts> reported) {
        List<Facts> latest = new ArrayList<>(latestPerNode(reported).values());
        for (int from = 0; from < latest.size(); from += ROWS_PER_STATEMENT) {
            InsertValuesStep6<?, String, String, String, String, JSON, OffsetDateTime> insert = tx.insertInto(NODES,
                    NODES.NAME, NODES.ADDRESS, NODES.SYSTEM, NODES.APPLIED_REVISION, NODES.PROCESSES,
                    NODES.LAST_SEEN_AT);
            for (Facts facts : latest.subList(from, Math.min(latest.size(), from + ROWS_PER_STATEMENT))) {
                insert = insert.values(facts.node().name(), facts.node().address(), facts.node().system(),
                        facts.revision(), JSON.valueOf(processes(facts.processes())),
                        facts.at().atOffset(ZoneOffset.UTC));
            }
            insert.onConflict(NODES.NAME).doUpdate()
                    .set(NODES.ADDRESS, excluded(NODES.ADDRESS))
                    .set(NODES.SYSTEM, excluded(NODES.SYSTEM))
                    .set(NODES.APPLIED_REVISION, excluded(NODES.APPLIED_REVISION))
                    .set(NODES.PROCESSES, excluded(NODES.PROCESSES))
                    .set(NODES.LAST_SEEN_AT, excluded(NODES.LAST_SEEN_AT))
                    .set(NODES.REPORTED_AT, currentOffsetDateTime())
                    .where(NODES.LAST_SEEN_AT.isNull().or(NODES.LAST_SEEN_AT.le(excluded(NODES.LAST_SEEN_AT))))
                    .execute();
        }
    }

    /**
     * Moves each named node's {@code last_seen_at} forward to its time in {@code seen} (to the microsecond, what the
     * column keeps), in one statement over two arrays; a node never heard from ({@code last_seen_at} null), one
     * absent, and one whose stored time is as late are left alone. The caller runs it in one transaction.
     *
     * @param seen not empty
     * @return how many nodes' rows it changed
     */
    static int seen(DSLContext tx, Map<String, Instant> seen) {
        String[] names = new String[seen.size()];
        OffsetDateTime[] times = new OffsetDateTime[seen.size()];
        int i = 0;
        for (Map.Entry<String, Instant> one : seen.entrySet()) {
            names[i] = one.getKey();
            times[i++] = one.getValue().truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
        }
        return tx.execute("UPDATE nodes SET last_seen_at = s.at FROM unnest({0}::text[], {1}::timestamptz[]) "
                + "AS s(name, at) WHERE nodes.name = s.name AND nodes.last_seen_at < s.at", DSL.val(names),
                DSL.val(times));
    }

    /**
     * @return every heard-from node's facts, by node name
     * @throws StoreException when stored facts cannot be read
     */
    static Map<String, Facts> read(DSLContext db) {
        Map<String, Facts> facts = new HashMap<>();
        select(db, NODES.LAST_SEEN_AT.isNotNull()).forEach(row -> facts.put(row.value1(), facts(row)));
        return Map.copyOf(facts);
    }

    /**
     * @return the node's facts, if it was heard from
     * @throws StoreException when its stored facts cannot be read
     */
    static Optional<Facts> read(DSLContext db, String node) {
        return select(db, NODES.NAME.eq(node).and(NODES.LAST_SEEN_AT.isNotNull())).fetchOptional()
                .map(ReportedFacts::facts);
    }

    /**
     * Reads neither the processes nor the node: for 10,000 nodes of five processes each, parsing
     * the processes is most of what reading every node's facts costs.
     *
     * @return every heard-from node's revision and last seen time, by node name
     */
    static Map<String, Sighting> sightings(DSLContext db) {
        // Unordered: the map handed back has no order, so sorting 10,000 rows for it would be wasted.
        Map<String, Sighting> sightings = new HashMap<>();
        db.select(NODES.NAME, NODES.APPLIED_REVISION, NODES.LAST_SEEN_AT)
                .from(NODES)
                .where(NODES.LAST_SEEN_AT.isNotNull())
                .forEach(row -> sightings.put(row.value1(), new Sighting(row.value2(), row.value3().toInstant())));
        return Map.copyOf(sightings);
    }

    /**
     * @return {@link #sightings(DSLContext)} of the nodes named after {@code after} up to and including
     *     {@code last}: a range of the nodes' key, as a page of nodes is read
     */
    static Map<String, Sighting> sightings(DSLContext db, String after, String last) {
        Map<String, Sighting> sightings = new HashMap<>();
        db.select(NODES.NAME, NODES.APPLIED_REVISION, NODES.LAST_SEEN_AT)
                .from(NODES)
                .where(NODES.NAME.gt(after), NODES.NAME.le(last), NODES.LAST_SEEN_AT.isNotNull())
                .forEach(row -> sightings.put(row.value1(), new Sighting(row.value2(), row.value3().toInstant())));
        return Map.copyOf(sightings);
    }

    private static ResultQuery<Record6<String, String, String, String, JSON, OffsetDateTime>> select(
            DSLContext db, Condition where) {
        return db.select(NODES.NAME, NODES.ADDRESS, NODES.SYSTEM, NODES.APPLIED_REVISION, NODES.PROCESSES,
                        NODES.LAST_SEEN_AT)
                .from(NODES)
                .where(where)
                .orderBy(NODES.NAME);
    }

    /**
     * One statement cannot update a row twice (PostgreSQL refuses "ON CONFLICT DO UPDATE command
     * cannot affect row a second time"), so several facts of one node are reduced to the one the
     * inventory keeps: the latest, and of equal times the later in the collection.
     */
    private static Map<String, Facts> latestPerNode(Collection<Facts> reported) {
        Map<String, Facts> latest = new LinkedHashMap<>();
        for (Facts facts : reported) {
            latest.merge(facts.node().name(), facts, (kept, later) -> later.at().isBefore(kept.at()) ? kept : later);
        }
        return latest;
    }

    private static String processes(List<ProcessState> processes) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (ProcessState process : processes) {
            array.addObject()
                    .put("name", process.name())
                    .put("state", process.state().label())
                    .put("since", process.since().toString())
                    .put("checks", process.checks());
        }
        return MAPPER.writeValueAsString(array);
    }

    private static Facts facts(Record6<String, String, String, String, JSON, OffsetDateTime> row) {
        String node = row.value1();
        try {
            List<ProcessState> processes = new ArrayList<>();
            for (JsonNode process : MAPPER.readTree(row.value5().data())) {
                processes.add(new ProcessState(process.required("name").asString(),
                        ProcessState.State.of(process.required("state").asString()),
                        Instant.parse(process.required("since").asString()), process.required("checks").asInt()));
            }
            return new Facts(new Node(node, row.value2(), row.value3()), row.value4(), processes,
                    row.value6().toInstant());
        } catch (DatabindException | IllegalArgumentException | DateTimeParseException e) {
            throw new StoreException("the facts of node " + node + ", as the inventory database holds them, cannot be "
                    + "read (" + e.getMessage() + "); they are replaced at the node's next report", e);
        }
    }
}
