package dev.mesh.controller.cli;

import dev.mesh.controller.testing.CommandRun;
import java.io.InputStream;
import java.io.OutputStream;
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

    static CommandRun run(String... args) {
        return run(System.getenv(), args);
    }

    /** Runs with {@code env} as the environment the commands read their configuration from. */
    static CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.of(commandLine(env), args);
    }
}
