package dev.mesh.controller.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
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
        List<FileResult> results = files.stream().map(FileResult::read).toList();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            JsonReport.write(results, out);
        } else {
            TextReport.write(results, out);
        }
        out.flush();
        return results.stream().allMatch(FileResult::valid) ? 0 : 1;
    }
}
