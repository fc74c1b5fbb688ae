package dev.mesh.controller.launcher;

import dev.mesh.controller.manifest.MeshException;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Entry point of the {@code mesh-controller} command.
 *
 * <p>This is the only place that turns exceptions into exit codes and user-facing text: a usage
 * error exits with {@code 2} after picocli's message and usage help; a failure of the command exits
 * with {@code 1} after one line on standard error; a controller that cannot be reached exits with
 * {@code 3} after every place tried. No stack trace ever reaches the user.
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
        System.exit(commandLine().execute(args));
    }

    /**
     * The whole command tree, wired with its failure handling. Output goes to picocli's default
     * writers; tests replace them with {@link CommandLine#setOut} and {@link CommandLine#setErr}.
     *
     * @return a new command line, not shared
     */
    static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /**
     * @param env the environment the commands read their configuration from
     * @return a new command line, not shared
     */
    static CommandLine commandLine(Map<String, String> env) {
        return new CommandLine(new MeshControllerCommand())
                .addSubcommand(new ValidateCommand())
                .addSubcommand(new ComposeCommand())
                .addSubcommand(new PlanCommand(env))
                .addSubcommand(new PrepareCommand(env))
                .addSubcommand(new ServeCommand())
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
                .addSubcommand(new McpCommand(env, System.in, System.out))
                .setExecutionExceptionHandler(Main::exitOnFailure);
    }

    /**
     * Reports a failure of a command as one line on standard error, a configuration problem as one
     * line per problem, or an unreachable controller as one line per place tried.
     *
     * @return the exit code: {@code 3} for an unreachable controller, the command's exit code of invalid
     *     input ({@code 2}, or {@code 1} for {@code plan}) for configuration, {@code 1} for anything else
     */
    static int exitOnFailure(Exception failure, CommandLine command, ParseResult parsed) {
        if (failure instanceof UnreachableException unreachable) {
            command.getErr().println("mesh-controller: no controller was reached; tried, in order:");
            unreachable.tried().forEach(line -> command.getErr().println("  " + line));
            command.getErr().flush();
            return 3;
        }
        if (failure instanceof ConfigException config) {
            config.problems().forEach(line -> command.getErr().println("mesh-controller: " + line));
            command.getErr().flush();
            // 2, but 1 for plan, whose 2 means "changes".
            return command.getCommandSpec().exitCodeOnInvalidInput();
        }
        String line = failure instanceof MeshException
                ? oneLine(failure.getMessage())
                : "unexpected failure: " + failure.getClass().getName()
                        + (failure.getMessage() == null ? "" : ": " + oneLine(failure.getMessage()))
                        + " (this is a bug in mesh-controller; please report it with the command you ran)";
        command.getErr().println("mesh-controller: " + line);
        command.getErr().flush();
        return 1;
    }

    private static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
