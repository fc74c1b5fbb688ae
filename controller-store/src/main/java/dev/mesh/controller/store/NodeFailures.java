package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.NODE_FAILURES;
import static org.jooq.impl.DSL.excluded;

import dev.mesh.controller.core.Report;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.JSON;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The queries of the {@code node_failures} table (each node's standing failure, as its host
 * reported it) for {@link PgInventory}, which runs them, unfenced — a report is what happened — and
 * turns their failures into the store's. Stateless, so thread-safe.
 */
final class NodeFailures {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private NodeFailures() {
    }

    /** Records the failure, replacing the node's one before. */
    static int record(DSLContext db, Report.Failed report) {
        return db.insertInto(NODE_FAILURES)
                .set(NODE_FAILURES.NODE, report.node())
                .set(NODE_FAILURES.REVISION, report.revision())
                .set(NODE_FAILURES.STEPS, JSON.valueOf(steps(report.steps())))
                .set(NODE_FAILURES.REPORTED_AT, report.at().atOffset(ZoneOffset.UTC))
                .onConflict(NODE_FAILURES.NODE).doUpdate()
                .set(NODE_FAILURES.REVISION, excluded(NODE_FAILURES.REVISION))
                .set(NODE_FAILURES.STEPS, excluded(NODE_FAILURES.STEPS))
                .set(NODE_FAILURES.REPORTED_AT, excluded(NODE_FAILURES.REPORTED_AT))
                .execute();
    }

    /** Ends the node's failure, if it has one: it acknowledged a revision. */
    static int clear(DSLContext tx, String node) {
        return tx.deleteFrom(NODE_FAILURES).where(NODE_FAILURES.NODE.eq(node)).execute();
    }

    /**
     * @return each node's standing failure, by node name
     * @throws StoreException when stored steps cannot be read
     */
    static Map<String, Report.Failed> read(DSLContext db) {
        Map<String, Report.Failed> failures = new HashMap<>();
        db.selectFrom(NODE_FAILURES).forEach(row -> failures.put(row.getNode(), new Report.Failed(row.getNode(),
                row.getRevision(), steps(row.getNode(), row.getSteps()), row.getReportedAt().toInstant())));
        return Map.copyOf(failures);
    }

    private static String steps(List<Report.Step> steps) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Report.Step step : steps) {
            array.addObject().put("id", step.id()).put("done", step.done()).put("detail", step.detail());
        }
        return MAPPER.writeValueAsString(array);
    }

    private static List<Report.Step> steps(String node, JSON json) {
        try {
            List<Report.Step> steps = new ArrayList<>();
            for (JsonNode step : MAPPER.readTree(json.data())) {
                steps.add(new Report.Step(step.required("id").asString(), step.required("done").asBoolean(),
                        step.required("detail").asString()));
            }
            return steps;
        } catch (DatabindException | IllegalArgumentException e) {
            throw new StoreException("the failure node " + node + " reported, as the inventory database holds it, "
                    + "cannot be read (" + e.getMessage() + "); it is replaced at the node's next failure report, and "
                    + "ends when the node applies its revision", e);
        }
    }
}
