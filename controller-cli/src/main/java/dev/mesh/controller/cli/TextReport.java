package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.Problem;
import java.io.PrintWriter;
import java.util.List;

/**
 * The text form of {@code validate}'s results: one line per problem
 * ({@code FILE:LINE:COLUMN: POINTER: MESSAGE (HINT)}, a warning's after {@code warning: }),
 * {@code FILE: valid} for a valid file (warnings or not), then a summary line such as
 * {@code 2 files, 1 invalid, 3 problems} ({@code , 4 problems (1 warning)} when some are warnings).
 */
final class TextReport {

    private TextReport() {
    }

    static void write(List<FileResult> results, PrintWriter out) {
        for (FileResult result : results) {
            result.problems().forEach(problem -> out.println((problem.isError() ? "" : "warning: ") + problem));
            if (result.valid()) {
                out.println(result.file() + ": valid");
            }
        }
        out.println(summary(results));
    }

    static String summary(List<FileResult> results) {
        long invalid = results.stream().filter(result -> !result.valid()).count();
        long problems = results.stream().map(FileResult::problems).mapToLong(List<Problem>::size).sum();
        long warnings = results.stream().flatMap(result -> result.problems().stream())
                .filter(problem -> !problem.isError()).count();
        return count(results.size(), "file") + ", " + invalid + " invalid, " + count(problems, "problem")
                + (warnings == 0 ? "" : " (" + count(warnings, "warning") + ")");
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
