package dev.mesh.controller.cli;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The text of parts that several verbs' results share: a plan's summary, a problem. */
final class VerbText {

    private VerbText() {
    }

    /**
     * A plan's counts by action, grouped as {@code PlanText}'s summary line groups them, without the
     * groups that are zero: {@code 3 to create, 1 to change}, or {@code no changes}.
     *
     * @param counts the plan's {@code summary}: action to count
     * @return the summary
     */
    static String summary(JsonNode counts) {
        int[] groups = {
            count(counts, "create") + count(counts, "start") + count(counts, "prepare"),
            count(counts, "update"),
            count(counts, "restart"),
            count(counts, "stop") + count(counts, "remove"),
            count(counts, "build")};
        String[] names = {"to create", "to change", "to restart", "to remove", "to build"};
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < groups.length; i++) {
            if (groups[i] > 0) {
                parts.add(groups[i] + " " + names[i]);
            }
        }
        return parts.isEmpty() ? "no changes" : String.join(", ", parts);
    }

    private static int count(JsonNode counts, String action) {
        return counts.path(action).asInt(0);
    }

    /**
     * @param problem a problem as a verb answers it
     * @return it as the offline commands print one: {@code [warning: ]FILE:LINE:COLUMN: POINTER: MESSAGE (HINT)}
     */
    static String problem(JsonNode problem) {
        JsonNode location = problem.path("location");
        String pointer = location.path("pointer").asString("");
        String hint = problem.path("hint").asString("");
        return (problem.path("severity").asString("").equalsIgnoreCase("warning") ? "warning: " : "")
                + location.path("file").asString("") + ":" + location.path("line").asInt(0) + ":"
                + location.path("column").asInt(0) + ": " + (pointer.isEmpty() ? "(root)" : pointer) + ": "
                + problem.path("message").asString("") + (hint.isEmpty() ? "" : " (" + hint + ")");
    }

    /** @return {@code 1 problem}, {@code 2 problems} */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
