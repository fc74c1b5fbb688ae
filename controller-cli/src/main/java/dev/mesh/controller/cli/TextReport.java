package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.Problem;
import java.io.PrintWriter;
import java.util.List;

/**
 * The text form of {@code validate}'s results: one line per problem
 * ({@code FILE:LINE:COLUMN: POINTER: MESSAGE (HINT)}), {@code FILE: valid} for a valid file, then a
 * summary line such as {@code 2 files, 1 invalid, 3 problems}.
 */
final class TextReport {

    private TextReport() {
    }

    static void write(List<FileResult> results, PrintWriter out) {
        for (FileResult result : results) {
            result.problems().forEach(out::println);
            if (result.valid()) {
                out.println(result.file() + ": valid");
            }
        }
        out.println(summary(results));
    }

    static String summary(List<FileResult> results) {
        long invalid = results.stream().filter(result -> !result.valid()).count();
        long problems = results.stream().map(FileResult::problems).mapToLong(List<Problem>::size).sum();
        return count(results.size(), "file") + ", " + invalid + " invalid, " + count(problems, "problem");
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
