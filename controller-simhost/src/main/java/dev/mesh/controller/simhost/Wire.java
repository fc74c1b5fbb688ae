package dev.mesh.controller.simhost;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** docs/design.md section 8's bodies as a simulated host or builder reads and writes them. */
final class Wire {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Wire() {
    }

    /**
     * What a host takes from a declaration: whose it is, which revision, the processes' names, and
     * each process as declared, for those it runs for real.
     */
    record Declaration(String node, String revision, List<String> processes, List<Process> declared) {
        Declaration {
            processes = List.copyOf(processes);
            declared = List.copyOf(declared);
        }

        Declaration(String node, String revision, List<String> processes) {
            this(node, revision, processes, List.of());
        }
    }

    /**
     * A declared process, as far as the declaration says it; a part it lacks is empty (or null for
     * the artifact's digest and location, and the preparation).
     */
    record Process(String module, String name, Artifact artifact, List<String> run, Map<String, String> env,
            String user, boolean overlap, List<String> replaces, Preparation prepare) {
        Process {
            run = List.copyOf(run);
            env = Map.copyOf(env);
            replaces = List.copyOf(replaces);
        }
    }

    /** The artifact a process runs: its module version, and the archive its build made (null until built). */
    record Artifact(String module, String version, String name, String sha256, String location) {
    }

    /** A process's run-once preparation. */
    record Preparation(List<String> run, String user, Map<String, String> env) {
        Preparation {
            run = List.copyOf(run);
            env = Map.copyOf(env);
        }
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
        List<Process> declared = new ArrayList<>();
        for (JsonNode process : listed) {
            if (!names.add(text(process, "name"))) {
                throw new IllegalArgumentException("process " + process.path("name").stringValue() + " is declared twice");
            }
            declared.add(process(process));
        }
        return new Declaration(node, revision, List.copyOf(names), declared);
    }

    private static Process process(JsonNode process) {
        JsonNode artifact = process.path("artifact");
        JsonNode prepare = process.path("prepare");
        return new Process(optional(process, "module"), text(process, "name"), new Artifact(optional(artifact, "module"),
                optional(artifact, "version"), optional(artifact, "name"), nullable(artifact, "sha256"),
                nullable(artifact, "location")), strings(process.path("run")), map(process.path("env")),
                optional(process, "user"), process.path("overlap").asBoolean(false), strings(process.path("replaces")),
                prepare.isObject() ? new Preparation(strings(prepare.path("run")), optional(prepare, "user"),
                        map(prepare.path("env"))) : null);
    }

    private static String optional(JsonNode object, String field) {
        JsonNode value = object.path(field);
        return value.isString() ? value.stringValue() : "";
    }

    private static String nullable(JsonNode object, String field) {
        JsonNode value = object.path(field);
        return value.isString() ? value.stringValue() : null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        for (JsonNode item : array) {
            if (item.isString()) {
                strings.add(item.stringValue());
            }
        }
        return strings;
    }

    private static Map<String, String> map(JsonNode object) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : object.properties()) {
            if (entry.getValue().isString()) {
                map.put(entry.getKey(), entry.getValue().stringValue());
            }
        }
        return map;
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
