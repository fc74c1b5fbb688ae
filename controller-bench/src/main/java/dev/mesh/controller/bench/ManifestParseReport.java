package dev.mesh.controller.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JMH JSON result of {@link ManifestParseBenchmark} ({@code -rf json -rff FILE}) and
 * prints both scores, their errors and the ratio {@code parseAndValidate / readTree} as a Markdown
 * table, with the target (ratio at most {@value #TARGET}) met or not met.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.mesh.controller.bench.ManifestParseReport FILE}.
 */
public final class ManifestParseReport {

    static final double TARGET = 2.0;

    private ManifestParseReport() {
    }

    /**
     * @param args the JMH JSON result file
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ManifestParseReport JMH_RESULT.json  (run JMH with -rf json -rff JMH_RESULT.json)");
            System.exit(2);
        }
        try {
            JsonNode results = JsonMapper.builder().build().readTree(Path.of(args[0]).toFile());
            Score floor = score(results, "readTree", args[0]);
            Score parser = score(results, "parseAndValidate", args[0]);
            print(floor, parser, System.out);
        } catch (JacksonException | IllegalArgumentException e) {
            String reason = e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage();
            System.err.println("ManifestParseReport: cannot read " + args[0] + ": " + reason
                    + " (run JMH with -rf json -rff " + args[0] + " first)");
            System.exit(1);
        }
    }

    private static Score score(JsonNode results, String method, String file) {
        String suffix = "." + ManifestParseBenchmark.class.getSimpleName() + "." + method;
        for (JsonNode result : results) {
            if (result.path("benchmark").asString().endsWith(suffix)) {
                JsonNode metric = result.path("primaryMetric");
                return new Score(method, number(metric.path("score")), number(metric.path("scoreError")),
                        metric.path("scoreUnit").asString());
            }
        }
        throw new IllegalArgumentException(file + " holds no result of " + suffix.substring(1)
                + "; run both benchmarks of ManifestParseBenchmark with -rf json -rff " + file);
    }

    // JMH writes "NaN" as a string when an error cannot be computed (fewer than two iterations).
    private static double number(JsonNode node) {
        return node.isNumber() ? node.asDouble() : Double.NaN;
    }

    private static void print(Score floor, Score parser, PrintStream out) {
        double ratio = parser.score / floor.score;
        // The ratio's interval: the extreme ends of the two scores' 99.9 % intervals, paired.
        double low = (parser.score - parser.error) / (floor.score + floor.error);
        double high = floor.score - floor.error <= 0
                ? Double.POSITIVE_INFINITY
                : (parser.score + parser.error) / (floor.score - floor.error);
        out.println("| benchmark | score (" + floor.unit + ", one op = the whole batch) | error (99.9 %) |");
        out.println("|---|---:|---:|");
        out.println(row(floor));
        out.println(row(parser));
        out.println();
        out.println(String.format(Locale.ROOT, "ratio parseAndValidate / readTree = %.2f (interval %.2f–%.2f);"
                + " target ≤ %.1f: %s", ratio, low, high, TARGET, verdict(ratio, low, high)));
    }

    private static String row(Score score) {
        return String.format(Locale.ROOT, "| %s | %.3f | ± %.3f |", score.method, score.score, score.error);
    }

    private record Score(String method, double score, double error, String unit) {
    }

    /** Met or not by the point ratio, and whether the run's noise could flip it. */
    private static String verdict(double ratio, double low, double high) {
        String point = ratio <= TARGET ? "met" : "not met";
        return low <= TARGET && TARGET < high ? point + " (the interval spans the target: repeat the run)" : point;
    }
}
