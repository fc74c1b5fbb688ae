package dev.mesh.controller.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine;

/**
 * The {@code mesh-controller} command line: the offline commands ({@code validate},
 * {@code compose}, {@code plan}), the client of a running controller ({@code status}, {@code tools},
 * {@code nodes}, {@code node}, {@code modules}, {@code seats}, {@code builds}, {@code assign},
 * {@code unassign}, {@code push}, {@code build}) and {@code mcp}, the stdio bridge — with
 * {@link Failures} as the handler of every failure.
 *
 * <p>The commands read no environment of their own: they read the map they are given. The
 * commands that need the store ({@code serve}, {@code prepare}) are not here; the launcher passes
 * them in.
 */
public final class MeshCommands {

    private MeshCommands() {
    }

    /**
     * Builds the command tree. Output goes to picocli's default writers; replace them with
     * {@link CommandLine#setOut} and {@link CommandLine#setErr}.
     *
     * @param env the environment the client commands find the controller with
     *     ({@code MESH_CONTROLLER_URL}, {@code MESH_CONTROLLER_STATE}, {@code MESH_CONTROLLER_TOKEN_FILE})
     * @param in where {@code mcp} reads its client's messages (standard input)
     * @param out where {@code mcp} writes its answers (standard output)
     * @param controllerCommands picocli command objects that prepare or run a controller, listed
     *     after {@code plan} and before the client commands
     * @return a new command line, not shared; not thread-safe, as picocli's are not
     * @throws picocli.CommandLine.InitializationException when a controller command is not a valid
     *     picocli command or takes a name already used
     */
    public static CommandLine commandLine(Map<String, String> env, InputStream in, OutputStream out,
            List<?> controllerCommands) {
        return commandLine(env, in, out, controllerCommands, Upstreams.HTTP_ONLY);
    }

    /**
     * Builds the command tree, with {@code mcp} asking {@code upstreams} first where to forward.
     *
     * @param env the environment the client commands find the controller with
     *     ({@code MESH_CONTROLLER_URL}, {@code MESH_CONTROLLER_STATE}, {@code MESH_CONTROLLER_TOKEN_FILE})
     * @param in where {@code mcp} reads its client's messages (standard input)
     * @param out where {@code mcp} writes its answers (standard output)
     * @param controllerCommands picocli command objects that prepare or run a controller, listed
     *     after {@code plan} and before the client commands
     * @param upstreams the transports besides HTTP that the environment may name to {@code mcp} (the
     *     launcher's: the broker)
     * @return a new command line, not shared; not thread-safe, as picocli's are not
     * @throws picocli.CommandLine.InitializationException when a controller command is not a valid
     *     picocli command or takes a name already used
     */
    public static CommandLine commandLine(Map<String, String> env, InputStream in, OutputStream out,
            List<?> controllerCommands, Upstreams upstreams) {
        Objects.requireNonNull(env, "env");
        CommandLine commandLine = new CommandLine(new MeshControllerCommand())
                .addSubcommand(new ValidateCommand())
                .addSubcommand(new ComposeCommand())
                .addSubcommand(new PlanCommand(env));
        controllerCommands.forEach(commandLine::addSubcommand);
        return commandLine
                .addSubcommand(new ReadCommands.Status(env))
                .addSubcommand(new ReadCommands.Tools(env))
                .addSubcommand(new ReadCommands.Nodes(env))
                .addSubcommand(new ReadCommands.Node(env))
                .addSubcommand(new ReadCommands.Modules(env))
                .addSubcommand(new ReadCommands.Seats(env))
                .addSubcommand(new ReadCommands.Builds(env))
                .addSubcommand(new ChangeCommands.Assign(env))
                .addSubcommand(new ChangeCommands.Unassign(env))
                .addSubcommand(new ChangeCommands.Push(env))
                .addSubcommand(new ChangeCommands.Build(env))
                .addSubcommand(new McpCommand(env, in, out, upstreams))
                .setExecutionExceptionHandler(Failures::print);
    }
}
