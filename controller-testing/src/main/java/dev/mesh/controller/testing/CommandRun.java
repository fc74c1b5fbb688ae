package dev.mesh.controller.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * One in-process run of a command line, with what it printed: the CLI module's commands and the
 * launcher's whole command line are tested through it, as a user runs them, without a process.
 *
 * @param exitCode what the command returned
 * @param out what it printed to standard output
 * @param err what it printed to standard error
 */
public record CommandRun(int exitCode, String out, String err) {

    /**
     * Runs {@code commandLine} with {@code args}, capturing both outputs.
     *
     * @param commandLine the command line, as its module builds it
     * @param args the arguments a user would type
     * @return what it printed, and how it exited
     */
    public static CommandRun of(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = commandLine
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new CommandRun(exitCode, out.toString(), err.toString());
    }

    /** @return standard output's lines */
    public List<String> lines() {
        return out.lines().toList();
    }
}
