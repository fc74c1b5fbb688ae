package dev.mesh.controller.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
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
        return tree(commands(env, in, out, controllerCommands, upstreams));
    }

    /**
     * Builds the command line for one invocation: when {@code args} begins with a command's name, the
     * tree holds that command alone, since picocli reads every command's options by reflection when it is
     * added, which costs a short command most of its start (docs/operations.md); otherwise (an option such
     * as {@code --help} or {@code --version}, a name no command has, nothing) the whole tree, so that help
     * and "did you mean" see every command. What the invocation does and prints is the same either way.
     *
     * @param args the command line as the process got it
     * @param env the environment the client commands find the controller with
     * @param in where {@code mcp} reads its client's messages (standard input)
     * @param out where {@code mcp} writes its answers (standard output)
     * @param controllerCommands picocli command objects that prepare or run a controller
     * @param upstreams the transports besides HTTP that the environment may name to {@code mcp}
     * @return a new command line for executing {@code args}, not shared; not thread-safe
     * @throws picocli.CommandLine.InitializationException when a controller command is not a valid
     *     picocli command or takes a name already used
     */
    public static CommandLine forArguments(String[] args, Map<String, String> env, InputStream in, OutputStream out,
            List<?> controllerCommands, Upstreams upstreams) {
        List<Object> commands = commands(env, in, out, controllerCommands, upstreams);
        if (args.length > 0) {
            for (Object command : commands) {
                CommandLine.Command annotation = command.getClass().getAnnotation(CommandLine.Command.class);
                if (annotation != null && annotation.name().equals(args[0])) {
                    return tree(List.of(command));
                }
            }
        }
        return tree(commands);
    }

    /**
     * Runs the invocations that need no command line model: today {@code validate [--json] FILE…} in its plain
     * form, which editors and hooks run on every save and which picocli's model, built by reflection, would
     * slow several times over (docs/operations.md, "A short command's start"). What such a run prints and its
     * exit code are those of the same command line run by {@link #forArguments}; any other command line is
     * declined, to be run by it.
     *
     * @param args the command line as the process got it
     * @param out standard output
     * @param err standard error
     * @return the exit code of the run; empty when {@code args} is not such an invocation and nothing was done
     */
    public static OptionalInt runDirectly(String[] args, PrintWriter out, PrintWriter err) {
        return ValidateCommand.direct(args, out, err);
    }

    /** Every command, in the order help lists them. */
    private static List<Object> commands(Map<String, String> env, InputStream in, OutputStream out,
            List<?> controllerCommands, Upstreams upstreams) {
        Objects.requireNonNull(env, "env");
        List<Object> commands = new ArrayList<>(List.of(new ValidateCommand(), new ComposeCommand(),
                new PlanCommand(env)));
        commands.addAll(controllerCommands);
        commands.addAll(List.of(new ReadCommands.Status(env), new ReadCommands.Tools(env),
                new ReadCommands.Nodes(env), new ReadCommands.Node(env), new ReadCommands.Modules(env),
                new ReadCommands.Seats(env), new ReadCommands.Builds(env), new ChangeCommands.Assign(env),
                new ChangeCommands.Unassign(env), new ChangeCommands.Push(env), new ChangeCommands.Build(env),
                new McpCommand(env, in, out, upstreams)));
        return commands;
    }

    private static CommandLine tree(List<Object> commands) {
        CommandLine commandLine = new CommandLine(new MeshControllerCommand());
        commands.forEach(commandLine::addSubcommand);
        return commandLine.setExecutionExceptionHandler(Failures::print);
    }
}
