package dev.mesh.controller.launcher;

import dev.mesh.controller.testing.CommandRun;
import java.util.Map;

/** Runs the whole command line, as {@link Main} builds it, in-process, capturing what it prints. */
final class Cli {

    private Cli() {
    }

    static CommandRun run(String... args) {
        return run(System.getenv(), args);
    }

    /** Runs with {@code env} as the environment the commands read their configuration from. */
    static CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.of(Main.commandLine(env), args);
    }
}
