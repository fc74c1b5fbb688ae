package dev.mesh.controller.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/** Runs the whole command line, as {@link Main} builds it, in-process, capturing what it prints. */
final class Cli {

    private Cli() {
    }

    static Run run(String... args) {
        return run(System.getenv(), args);
    }

    /** Runs with {@code env} as the environment the commands read their configuration from. */
    static Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = Main.commandLine(env)
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
