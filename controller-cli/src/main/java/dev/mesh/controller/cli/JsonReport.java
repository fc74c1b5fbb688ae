package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Problem;
import java.io.PrintWriter;
import java.util.List;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON form of {@code validate}'s results, one document on one line:
 * <pre>{@code
 * {"files":[{"file":…,"valid":…,"problems":[{"code","severity","message","hint"?,
 *            "file","pointer","line","column","related"?:[{"file","pointer","line","column"}]}]}]}
 * }</pre>
 * {@code hint} is left out when there is none and {@code related} when it is empty; {@code severity}
 * is lower-case. Characters outside ASCII are written as {@code \}{@code uXXXX} escapes.
 */
final class JsonReport {

    /** Non-ASCII is escaped so that the document stays valid JSON whatever the console's encoding. */
    static final JsonMapper MAPPER = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private JsonReport() {
    }

    static void write(List<FileResult> results, PrintWriter out) {
        ObjectNode document = MAPPER.createObjectNode();
        var files = document.putArray("files");
        for (FileResult result : results) {
            ObjectNode file = files.addObject()
                    .put("file", result.file())
                    .put("valid", result.valid());
            var problems = file.putArray("problems");
            result.problems().forEach(problem -> problem(problem, problems.addObject()));
        }
        out.println(MAPPER.writeValueAsString(document));
    }

    /** Writes {@code problem} into {@code node}, in the form every command's JSON output shares. */
    static void problem(Problem problem, ObjectNode node) {
        node.put("code", problem.code())
                .put("severity", problem.severity().label())
                .put("message", problem.message());
        if (problem.hint() != null) {
            node.put("hint", problem.hint());
        }
        location(problem.location(), node);
        if (!problem.related().isEmpty()) {
            var related = node.putArray("related");
            problem.related().forEach(location -> location(location, related.addObject()));
        }
    }

    static void location(Location location, ObjectNode node) {
        node.put("file", location.file())
                .put("pointer", location.pointer())
                .put("line", location.line())
                .put("column", location.column());
    }
}
