package dev.mesh.controller.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mesh-controller validate [--json] FILE…}: checks manifest files against every rule. */
@Command(name = "validate",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = {
            "Checks module manifests and reports every problem with its file, line, column and JSON pointer.",
            "A file that cannot be read or is not JSON is reported as a problem of that file."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every file is valid",
            "1:at least one file has a problem",
            "2:the command line is wrong"})
final class ValidateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "Print one JSON document instead of text.")
    private boolean json;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Manifest files to check.")
    private List<Path> files;

    @Override
    public Integer call() {
        return check(files, json, spec.commandLine().getOut());
    }

    /**
     * What {@code validate} does once its command line is read: every file checked, the report printed.
     *
     * @param files the manifest files, as the user named them
     * @param json {@code true} for one JSON document, {@code false} for text
     * @param out where the report goes; flushed
     * @return the exit code: {@code 0} when every file is valid, else {@code 1}
     */
    private static int check(List<Path> files, boolean json, PrintWriter out) {
        List<FileResult> results = files.stream().map(FileResult::read).toList();
        if (json) {
            JsonReport.write(results, out);
        } else {
            TextReport.write(results, out);
        }
        out.flush();
        return results.stream().allMatch(FileResult::valid) ? 0 : 1;
    }

    /**
     * Runs {@code validate [--json] FILE…} without picocli when the command line is in that plain form — the
     * files and at most one {@code --json}, nothing else — and declines anything more, which picocli then reads
     * as always: help and version options, {@code --}, {@code @files}, an unknown or repeated option, a
     * missing file name, a name that is not a path. What it prints and its exit code are those of picocli's
     * run of the same command line ({@code MeshCommandsTest} holds the two to that); it only skips building
     * the command's model by reflection, most of a short command's start (docs/operations.md, "A short
     * command's start").
     *
     * @param args the whole command line, the command's name first
     * @param out where the report goes
     * @param err where a failure goes, as {@link Failures} renders it
     * @return the exit code; empty when the command line is not {@code validate}'s plain form
     */
    static OptionalInt direct(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length < 2 || !args[0].equals("validate")) {
            return OptionalInt.empty();
        }
        boolean json = false;
        List<Path> files = new ArrayList<>(args.length - 1);
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--json") && !json) {
                json = true;
            } else if (arg.isEmpty() || arg.startsWith("-") || arg.startsWith("@")) {
                return OptionalInt.empty();
            } else {
                try {
                    files.add(Path.of(arg));
                } catch (InvalidPathException notAPath) {
                    return OptionalInt.empty();
                }
            }
        }
        if (files.isEmpty()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(check(files, json, out));
        } catch (RuntimeException failure) {
            return OptionalInt.of(Failures.of(failure, 2).printTo(err));
        }
    }
}
