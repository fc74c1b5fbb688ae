package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.MeshCommands;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Entry point of the {@code mesh-controller} command: the command line of {@code controller-cli}
 * with the commands that need the store added — {@code prepare}, {@code serve}, {@code grant},
 * {@code revoke} and {@code principals} — and the process's environment given to it; {@code mcp} forwards
 * over the broker when the environment names one ({@link BrokerUpstreams}). Every failure becomes text and an exit code in one place,
 * {@link Failures}: no stack trace ever reaches the user.
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs the command and exits the JVM with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(forArguments(args, System.getenv(), System.in, System.out).execute(args));
    }

    /**
     * The whole command tree, wired with its failure handling. Output goes to picocli's default
     * writers; tests replace them with {@link CommandLine#setOut} and {@link CommandLine#setErr}.
     *
     * @param env the environment the commands read their configuration from
     * @return a new command line, not shared
     */
    static CommandLine commandLine(Map<String, String> env) {
        return commandLine(env, System.in, System.out);
    }

    /**
     * The whole command tree, with {@code mcp} on the streams given.
     *
     * @param env the environment the commands read their configuration from
     * @param in where {@code mcp} reads its client's messages
     * @param out where {@code mcp} writes its answers
     * @return a new command line, not shared
     */
    static CommandLine commandLine(Map<String, String> env, InputStream in, OutputStream out) {
        return MeshCommands.commandLine(env, in, out, controllerCommands(env), new BrokerUpstreams());
    }

    /**
     * The command line for one invocation ({@link MeshCommands#forArguments}): the command {@code args}
     * names alone, or the whole tree.
     *
     * @param args the command line
     * @param env the environment the commands read their configuration from
     * @param in where {@code mcp} reads its client's messages
     * @param out where {@code mcp} writes its answers
     * @return a new command line, not shared
     */
    static CommandLine forArguments(String[] args, Map<String, String> env, InputStream in, OutputStream out) {
        return MeshCommands.forArguments(args, env, in, out, controllerCommands(env), new BrokerUpstreams());
    }

    /** The commands that need the store, or make the bundle, added to controller-cli's. */
    private static List<Object> controllerCommands(Map<String, String> env) {
        return List.of(new PrepareCommand(env), new ServeCommand(env), new IdentityCommands.Grant(env),
                new IdentityCommands.Revoke(env), new IdentityCommands.Principals(env), new TrainingCommand());
    }
}
