package dev.mesh.controller.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** Runs this module's command line in-process (no {@code serve}, no {@code prepare}), capturing what it prints. */
final class Cli {

    private Cli() {
    }

    /** The command line as the launcher gets it, without the launcher's commands; {@code mcp} reads nothing. */
    static CommandLine commandLine(Map<String, String> env) {
        return MeshCommands.commandLine(env, InputStream.nullInputStream(), OutputStream.nullOutputStream(), List.of());
    }

    static Run run(String... args) {
        return run(System.getenv(), args);
    }

    /** Runs with {@code env} as the environment the commands read their configuration from. */
    static Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = commandLine(env)
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    /** What one run printed, and how it exited. */
    record Run(int exitCode, String out, String err) {

        List<String> lines() {
            return out.lines().toList();
        }
    }
}
