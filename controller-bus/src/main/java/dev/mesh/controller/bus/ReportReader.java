package dev.mesh.controller.bus;

import dev.mesh.controller.core.Report;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Reads the body of one message of {@code mesh-controller.reports} (docs/design.md section 8, "Reports") into
 * core's {@link Report}, or says why it cannot be read. Unknown fields are ignored. The problem names the
 * field and what it must be, never the value found: the wire contract logs no message content.
 *
 * <p>Stateless; thread-safe.
 */
final class ReportReader {

    /** What became of one body. */
    sealed interface Read {
        /** @param report what the host or builder reported */
        record Readable(Report report) implements Read {
        }

        /** @param problem what is wrong with the body, e.g. {@code steps[1].status must be "done" or "failed"} */
        record Unreadable(String problem) implements Read {
        }
    }

    /**
     * @param body the message's body, UTF-8 JSON
     * @return the report, or why it cannot be read; never throws
     */
    Read read(byte[] body) {
        return switch (Bodies.read(body)) {
            case Bodies.Body.Unreadable unreadable -> new Read.Unreadable(unreadable.problem());
            case Bodies.Body.Json json -> readable(json.tree());
        };
    }

    private static Read readable(JsonNode tree) {
        try {
            return new Read.Readable(report(tree));
        } catch (Unreadable e) {
            return new Read.Unreadable(e.getMessage());
        }
    }

    private static Report report(JsonNode tree) {
        if (!tree.isObject()) {
            throw new Unreadable("a report is a JSON object, not " + type(tree));
        }
        String kind = text(tree, "kind");
        return switch (kind) {
            case "applied" -> new Report.Applied(text(tree, "node"), text(tree, "revision"), steps(tree), at(tree));
            case "failed" -> new Report.Failed(text(tree, "node"), text(tree, "revision"), steps(tree), at(tree));
            case "build" -> build(tree);
            default -> throw new Unreadable("kind must be \"applied\", \"failed\" or \"build\"");
        };
    }

    private static Report.Build build(JsonNode tree) {
        String build = text(tree, "build");
        if (!build.startsWith("build:")) {
            throw new Unreadable("build must be build:MODULE@VERSION/ARTIFACT");
        }
        boolean succeeded = switch (text(tree, "status")) {
            case "succeeded" -> true;
            case "failed" -> false;
            default -> throw new Unreadable("status must be \"succeeded\" or \"failed\"");
        };
        return new Report.Build(build, succeeded, detail(tree, "detail"), optional(tree, "sha256"),
                optional(tree, "location"), at(tree));
    }

    /** @return an optional string field: absent or {@code null} is {@code null} */
    private static String optional(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new Unreadable(field + " must be a string when present (it is " + type(value) + ")");
        }
        return value.stringValue();
    }

    private static List<Report.Step> steps(JsonNode tree) {
        JsonNode listed = tree.get("steps");
        if (listed == null || !listed.isArray()) {
            throw new Unreadable("steps must be an array (it is " + type(listed) + ")");
        }
        List<Report.Step> steps = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            JsonNode step = listed.get(i);
            String where = "steps[" + i + "]";
            if (!step.isObject()) {
                throw new Unreadable(where + " must be an object (it is " + type(step) + ")");
            }
            String id = text(step, where + ".", "id");
            boolean done = switch (text(step, where + ".", "status")) {
                case "done" -> true;
                case "failed" -> false;
                default -> throw new Unreadable(where + ".status must be \"done\" or \"failed\"");
            };
            steps.add(new Report.Step(id, done, detail(step, where + ".detail")));
        }
        return steps;
    }

    private static Instant at(JsonNode tree) {
        String at = text(tree, "at");
        try {
            return Instant.parse(at);
        } catch (DateTimeException e) {
            throw new Unreadable("at must be an RFC 3339 time in UTC, e.g. 2026-12-01T10:00:00Z");
        }
    }

    /** @return the optional {@code detail}: absent or {@code null} is {@code ""} */
    private static String detail(JsonNode object, String path) {
        JsonNode value = object.get("detail");
        if (value == null || value.isNull()) {
            return "";
        }
        if (!value.isString()) {
            throw new Unreadable(path + " must be a string when present (it is " + type(value) + ")");
        }
        return value.stringValue();
    }

    private static String text(JsonNode object, String field) {
        return text(object, "", field);
    }

    private static String text(JsonNode object, String prefix, String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isString()) {
            throw new Unreadable(prefix + field + " must be a non-empty string (it is " + type(value) + ")");
        }
        if (value.stringValue().isEmpty()) {
            throw new Unreadable(prefix + field + " must be a non-empty string (it is empty)");
        }
        return value.stringValue();
    }

    /** @return the JSON type of a value, e.g. {@code number}, or {@code missing} */
    private static String type(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "missing";
        }
        return value.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** A body that breaks the report's shape; caught in {@link #read}, never leaves the class. */
    private static final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unreadable(String problem) {
            super(problem, null, false, false);
        }
    }
}
