package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Problem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON form of {@code validate}'s results, one document on one line:
 * <pre>{@code
 * {"files":[{"file":…,"valid":…,"problems":[{"code","severity","message","hint"?,
 *            "file","pointer","line","column","related"?:[{"file","pointer","line","column"}]}]}]}
 * }</pre>
 * {@code hint} is left out when there is none and {@code related} when it is empty; {@code severity}
 * is lower-case. Characters outside ASCII are written as {@code \}{@code uXXXX} escapes.
 *
 * <p>A problem's form is written here once, with a streaming generator; the commands that build their
 * documents as trees ({@code compose}, {@code plan}) take it as a tree ({@link #problem(Problem)}), read with
 * {@link JsonOutput#MAPPER}.
 */
final class JsonReport {

    /**
     * What {@code validate --json} writes with: jackson-core's generator alone, never databind, whose set-up on
     * a mapper's first use is as long as the rest of {@code validate}'s start (and would be a third of its
     * cache: docs/operations.md, "A short command's start"). Non-ASCII is escaped, as {@link JsonOutput}'s.
     */
    private static final JsonFactory GENERATORS = JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    private JsonReport() {
    }

    static void write(List<FileResult> results, PrintWriter out) {
        out.println(json(g -> {
            g.writeStartObject();
            g.writeArrayPropertyStart("files");
            for (FileResult result : results) {
                g.writeStartObject();
                g.writeStringProperty("file", result.file());
                g.writeBooleanProperty("valid", result.valid());
                g.writeArrayPropertyStart("problems");
                result.problems().forEach(problem -> problem(problem, g));
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }));
    }

    /** @return {@code problem} in the form every command's JSON output shares, as a tree */
    static ObjectNode problem(Problem problem) {
        return (ObjectNode) JsonOutput.MAPPER.readTree(json(g -> problem(problem, g)));
    }

    /** @return {@code location} in the form every command's JSON output shares, as a tree */
    static ObjectNode location(Location location) {
        return (ObjectNode) JsonOutput.MAPPER.readTree(json(g -> {
            g.writeStartObject();
            locationFields(location, g);
            g.writeEndObject();
        }));
    }

    private static void problem(Problem problem, JsonGenerator g) {
        g.writeStartObject();
        g.writeStringProperty("code", problem.code());
        g.writeStringProperty("severity", problem.severity().label());
        g.writeStringProperty("message", problem.message());
        if (problem.hint() != null) {
            g.writeStringProperty("hint", problem.hint());
        }
        locationFields(problem.location(), g);
        if (!problem.related().isEmpty()) {
            g.writeArrayPropertyStart("related");
            for (Location location : problem.related()) {
                g.writeStartObject();
                locationFields(location, g);
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void locationFields(Location location, JsonGenerator g) {
        g.writeStringProperty("file", location.file());
        g.writeStringProperty("pointer", location.pointer());
        g.writeNumberProperty("line", location.line());
        g.writeNumberProperty("column", location.column());
    }

    /** The one JSON value {@code writer} writes, as text. */
    private static String json(Consumer<JsonGenerator> writer) {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = GENERATORS.createGenerator(ObjectWriteContext.empty(), text)) {
            writer.accept(g);
        }
        return text.toString();
    }
}
