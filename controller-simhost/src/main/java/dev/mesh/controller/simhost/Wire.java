package dev.mesh.controller.simhost;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** DESIGN.md section 8's bodies as a simulated host or builder reads and writes them. */
final class Wire {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Wire() {
    }

    /** What a host takes from a declaration: whose it is, which revision, the processes' names. */
    record Declaration(String node, String revision, List<String> processes) {
    }

    /** One step of a host's report. */
    record Step(String id, String status, String detail) {
    }

    /**
     * Reads a declaration's body; the revision is the {@code revision} header when there is one.
     *
     * @throws IllegalArgumentException saying what is wrong, when the body is not a declaration
     */
    static Declaration declaration(byte[] body, String revisionHeader) {
        JsonNode tree = tree(body);
        String node = text(tree, "node");
        String revision = revisionHeader != null ? revisionHeader : text(tree, "revision");
        JsonNode listed = tree.path("processes");
        if (!listed.isArray()) {
            throw new IllegalArgumentException("processes is not an array");
        }
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode process : listed) {
            if (!names.add(text(process, "name"))) {
                throw new IllegalArgumentException("process " + process.path("name").stringValue() + " is declared twice");
            }
        }
        return new Declaration(node, revision, List.copyOf(names));
    }

    /**
     * Reads a build order's id.
     *
     * @throws IllegalArgumentException saying what is wrong, when the body is not an order
     */
    static String order(byte[] body) {
        return text(tree(body), "build");
    }

    /** {@code {"node","address","system","revision","processes":[{"name","state","since","checks"}],"at"}} */
    static byte[] facts(HostSettings settings, String revision, List<HostProcess> processes, Instant at) {
        ObjectNode facts = MAPPER.createObjectNode();
        facts.put("node", settings.node());
        facts.put("address", settings.address());
        facts.put("system", settings.system());
        if (revision == null) {
            facts.putNull("revision");
        } else {
            facts.put("revision", revision);
        }
        ArrayNode list = facts.putArray("processes");
        for (HostProcess process : processes) {
            list.addObject().put("name", process.name()).put("state", process.state())
                    .put("since", time(process.since())).put("checks", process.checks());
        }
        facts.put("at", time(at));
        return MAPPER.writeValueAsBytes(facts);
    }

    /** {@code {"kind": "applied" | "failed","node","revision","steps":[{"id","status","detail"}],"at"}} */
    static byte[] hostReport(String kind, String node, String revision, List<Step> steps, Instant at) {
        ObjectNode report = MAPPER.createObjectNode();
        report.put("kind", kind);
        report.put("node", node);
        report.put("revision", revision);
        ArrayNode list = report.putArray("steps");
        for (Step step : steps) {
            list.addObject().put("id", step.id()).put("status", step.status()).put("detail", step.detail());
        }
        report.put("at", time(at));
        return MAPPER.writeValueAsBytes(report);
    }

    /**
     * {@code {"kind": "build","build","status": "succeeded" | "failed","detail","sha256","location","at"}};
     * the archive's digest and location only with a success ({@code archive} null otherwise).
     */
    static byte[] buildReport(String build, String status, String detail, Archive archive, Instant at) {
        ObjectNode report = MAPPER.createObjectNode();
        report.put("kind", "build");
        report.put("build", build);
        report.put("status", status);
        report.put("detail", detail);
        if (archive != null) {
            report.put("sha256", archive.sha256());
            report.put("location", archive.location());
        }
        report.put("at", time(at));
        return MAPPER.writeValueAsBytes(report);
    }

    /** RFC 3339 UTC, to the millisecond. */
    static String time(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    private static JsonNode tree(byte[] body) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the body is not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException("the body is not a JSON object");
        }
        return tree;
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.path(field);
        if (!value.isString() || value.stringValue().isEmpty()) {
            throw new IllegalArgumentException(field + " is missing, empty or not a string");
        }
        return value.stringValue();
    }

    static List<Step> steps(String node, List<String> processes, boolean fail) {
        List<Step> steps = new ArrayList<>();
        for (String process : processes) {
            boolean failed = fail && steps.isEmpty();
            steps.add(new Step(node + "/process:" + process, failed ? "failed" : "done",
                    failed ? "simulated failure" : ""));
        }
        if (fail && steps.isEmpty()) {
            steps.add(new Step(node + "/declaration", "failed", "simulated failure"));
        }
        return steps;
    }
}
