package dev.mesh.controller.cli;

import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.MeshException;
import dev.mesh.controller.manifest.Problem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * The one place where a failure becomes what the user sees: the lines on standard error and the
 * exit code. No stack trace is ever part of it.
 *
 * <ul>
 *   <li>{@link UnreachableException}: exit {@code 3}, a header line and one line per place tried;
 *   <li>{@link ConfigException}: one line per problem, with the command's exit code for input it
 *       refuses ({@code 2}, but {@code 1} for {@code plan}, whose {@code 2} means "changes");
 *   <li>{@link ManifestException}: exit {@code 1}, one line per problem, each located as
 *       {@code validate} prints it;
 *   <li>{@link VerbException} (a verb error from the controller): exit {@code 1},
 *       {@code error (CODE): MESSAGE}, then {@code   at POINTER} when there is one;
 *   <li>another {@link MeshException}: exit {@code 1}, its message on one line — after the
 *       problems of its cause, as {@code validate} prints them, when the cause is a
 *       {@code ManifestException} (a file that stopped a command: the problems, then what that
 *       meant);
 *   <li>anything else: exit {@code 1}, "unexpected failure", its class and message, and a request
 *       to report the bug.
 * </ul>
 *
 * <p>Every line but the problems and a verb error's starts with {@code mesh-controller: }.
 * Stateless and thread-safe.
 */
public final class Failures {

    private static final String PREFIX = "mesh-controller: ";

    private Failures() {
    }

    /**
     * What the user sees of one failure.
     *
     * @param exitCode the process's exit code
     * @param lines the lines for standard error, in order; at least one
     */
    public record Report(int exitCode, List<String> lines) {

        /**
         * @throws IllegalArgumentException when there is no line
         */
        public Report {
            lines = List.copyOf(lines);
            if (lines.isEmpty()) {
                throw new IllegalArgumentException("a failure's report needs at least one line");
            }
        }

        /**
         * Prints the lines, as a command run without picocli does where picocli's handler would.
         *
         * @param err standard error
         * @return the exit code
         */
        public int printTo(PrintWriter err) {
            lines.forEach(err::println);
            err.flush();
            return exitCode;
        }
    }

    /**
     * Renders a failure.
     *
     * @param failure what went wrong, of any type
     * @param invalidInputExitCode the exit code of the command that failed for input it refuses
     *     ({@code 2}, or {@code 1} for {@code plan}); used for a {@link ConfigException}
     * @return the lines and the exit code
     */
    public static Report of(Throwable failure, int invalidInputExitCode) {
        return switch (failure) {
            case UnreachableException unreachable -> new Report(3, unreachable(unreachable));
            case ConfigException config -> new Report(invalidInputExitCode, prefixed(config.problems()));
            case ManifestException manifest -> new Report(1, prefixed(located(manifest)));
            case VerbException verb -> new Report(1, verb(verb));
            case MeshException mesh when mesh.getCause() instanceof ManifestException problems -> {
                List<String> lines = new ArrayList<>(located(problems));
                lines.add(PREFIX + line(mesh));
                yield new Report(1, lines);
            }
            default -> new Report(1, List.of(PREFIX + line(failure)));
        };
    }

    /**
     * Prints a command's failure on its standard error and gives its exit code: picocli's
     * {@link CommandLine.IExecutionExceptionHandler}, set on every command line of
     * {@link MeshCommands#commandLine}.
     *
     * @param failure what the command threw
     * @param commandLine the command that threw it, whose error writer and invalid-input exit code are used
     * @param parsed the parsed command line; not used, may be {@code null}
     * @return the exit code, as {@link #of} gives it
     */
    public static int print(Exception failure, CommandLine commandLine, ParseResult parsed) {
        Report report = of(failure, commandLine.getCommandSpec().exitCodeOnInvalidInput());
        PrintWriter err = commandLine.getErr();
        report.lines().forEach(err::println);
        err.flush();
        return report.exitCode();
    }

    /**
     * One failure as one line, without the {@code mesh-controller: } prefix: for a command that
     * reports a failure and goes on (such as {@code prepare}, one database after another).
     *
     * @param failure what went wrong
     * @return a {@link MeshException}'s message on one line; for anything else, "unexpected
     *     failure" with its class and message, asking for a bug report
     */
    public static String line(Throwable failure) {
        if (failure instanceof MeshException) {
            return failure.getMessage() == null ? failure.getClass().getSimpleName() : oneLine(failure.getMessage());
        }
        return "unexpected failure: " + failure.getClass().getName()
                + (failure.getMessage() == null ? "" : ": " + oneLine(failure.getMessage()))
                + " (this is a bug in mesh-controller; please report it with the command you ran)";
    }

    /** A verb's failure as the client commands print it. */
    static List<String> verb(VerbException e) {
        List<String> lines = new ArrayList<>();
        lines.add("error (" + e.code().label() + "): " + e.getMessage());
        if (!e.pointer().isEmpty()) {
            lines.add("  at " + e.pointer());
        }
        return lines;
    }

    private static List<String> unreachable(UnreachableException e) {
        List<String> lines = new ArrayList<>();
        lines.add(PREFIX + "no controller was reached; tried, in order:");
        e.tried().forEach(place -> lines.add("  " + place));
        return lines;
    }

    private static List<String> located(ManifestException e) {
        return e.problems().stream().map(Problem::toString).toList();
    }

    private static List<String> prefixed(List<String> lines) {
        return lines.stream().map(line -> PREFIX + line).toList();
    }

    /** Messages may span lines (a wrapped cause, a list); the user gets one. */
    private static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
