package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.GenesisCommand;
import dev.mesh.controller.cli.MeshCommands;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Entry point of the {@code mesh-controller} command: the command line of {@code controller-cli}
 * with {@code genesis} (its default archive beside the bundle directory the launcher script names) and
 * the commands that need the store added — {@code prepare}, {@code serve}, {@code grant},
 * {@code revoke} and {@code principals} — and the process's environment given to it; {@code mcp} forwards
 * over the broker when the environment names one ({@link BrokerUpstreams}). Every failure becomes text and an exit code in one place,
 * {@link Failures}: no stack trace ever reaches the user.
 */
public final class Main {

    /** The system property the launcher script sets to its bundle directory. */
    static final String BUNDLE_PROPERTY = "mesh.controller.bundle";

    private Main() {
    }

    /**
     * Runs the command and exits the JVM with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(commandLine(System.getenv(), System.in, System.out, bundleDirectory()).execute(args));
    }

    /**
     * The bundle directory the launcher script runs from, as it passes it ({@code -Dmesh.controller.bundle});
     * {@code genesis} takes the archive beside it. Empty when Java was started otherwise (from the build's
     * classes, say).
     */
    private static Optional<Path> bundleDirectory() {
        return Optional.ofNullable(System.getProperty(BUNDLE_PROPERTY)).filter(s -> !s.isBlank()).map(Path::of);
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
        return commandLine(env, in, out, Optional.empty());
    }

    /**
     * The whole command tree, with {@code mcp} on the streams given and {@code genesis} taking its default
     * archive beside {@code bundle}.
     *
     * @param env the environment the commands read their configuration from
     * @param in where {@code mcp} reads its client's messages
     * @param out where {@code mcp} writes its answers
     * @param bundle the bundle directory this command runs from; empty when not run from a bundle
     * @return a new command line, not shared
     */
    static CommandLine commandLine(Map<String, String> env, InputStream in, OutputStream out, Optional<Path> bundle) {
        return MeshCommands.commandLine(env, in, out, List.of(new GenesisCommand(bundle), new PrepareCommand(env),
                new ServeCommand(env),
                new IdentityCommands.Grant(env), new IdentityCommands.Revoke(env),
                new IdentityCommands.Principals(env)), new BrokerUpstreams());
    }
}
