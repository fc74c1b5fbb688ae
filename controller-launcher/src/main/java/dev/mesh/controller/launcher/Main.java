package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.GenesisCommand;
import dev.mesh.controller.cli.IdentityCommands;
import dev.mesh.controller.cli.MeshCommands;
import dev.mesh.controller.cli.PrepareCommand;
import dev.mesh.controller.cli.TrainingCommand;
import dev.mesh.controller.core.Grants;
import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BusException;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.MigrationReport;
import dev.mesh.controller.store.Migrations;
import dev.mesh.controller.store.PgIdentity;
import dev.mesh.controller.store.StoreException;
import java.io.BufferedWriter;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import javax.sql.DataSource;
import picocli.CommandLine;

/**
 * Entry point of the {@code mesh-controller} command: the command line of {@code controller-cli}
 * with the commands that need the store added — {@code prepare}, {@code serve}, {@code grant},
 * {@code revoke} and {@code principals} —, {@code genesis} given the bundle it runs from, and the process's environment given to it; {@code mcp} forwards
 * over the broker when the environment names one ({@link BrokerUpstreams}). Every failure becomes text and an exit code in one place,
 * {@link Failures}: no stack trace ever reaches the user. {@code validate}'s plain form, {@code serve} and
 * {@code prepare} alone run without picocli ({@link MeshCommands#runDirectly}, {@link ServeCommand#direct},
 * {@link PrepareCommand#direct}); every other command line goes to picocli.
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
        System.setProperty(LOG_FORMAT, logFormat(args, System.getenv(), System.err));
        PrintWriter out = writer(System.out);
        PrintWriter err = writer(System.err);
        OptionalInt direct = MeshCommands.runDirectly(args, out, err);
        if (direct.isEmpty()) {
            direct = ServeCommand.direct(args, System.getenv(), out, err);
        }
        if (direct.isEmpty()) {
            direct = PrepareCommand.direct(args, System.getenv(), Main::preparation, out, err);
        }
        if (direct.isPresent()) {
            System.exit(direct.getAsInt());
        }
        System.exit(forArguments(args, System.getenv(), System.in, System.out).execute(args));
    }

    /** A writer on a standard stream as picocli makes its own: the platform's charset, flushed at each line. */
    private static PrintWriter writer(OutputStream stream) {
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, Charset.defaultCharset())), true);
    }

    /**
     * The variable (and, set by {@link #main}, the system property) that {@link LogConfiguration} picks its
     * appender by.
     */
    static final String LOG_FORMAT = "MESH_LOG_FORMAT";

    /**
     * Which log format to set up before anything logs (Logback configures itself at the first logger): serve's
     * {@code --log-format} when given, else {@code MESH_LOG_FORMAT}, else text. Picocli checks the option's
     * value afterwards; a variable with another value is warned about, and text is used.
     *
     * @param args the command line
     * @param env the environment
     * @param err where a warning goes
     * @return {@code text} or {@code json}
     */
    static String logFormat(String[] args, Map<String, String> env, PrintStream err) {
        for (int i = 0; i < args.length; i++) {
            String value = args[i].startsWith("--log-format=") ? args[i].substring("--log-format=".length())
                    : args[i].equals("--log-format") && i + 1 < args.length ? args[i + 1] : null;
            if (value != null) {
                return value.equals("json") ? "json" : "text";
            }
        }
        String variable = env.getOrDefault(LOG_FORMAT, "text");
        if (!variable.equals("text") && !variable.equals("json")) {
            err.println("mesh-controller: warning: " + LOG_FORMAT + "=" + variable + " is neither text nor json; "
                    + "logging as text (set it to json for one JSON object per line)");
            return "text";
        }
        return variable;
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
        return MeshCommands.commandLine(env, in, out, controllerCommands(env, Optional.empty()), new BrokerUpstreams());
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
        return MeshCommands.forArguments(args, env, in, out, controllerCommands(env, bundleDirectory()),
                new BrokerUpstreams());
    }

    /**
     * The bundle directory the launcher script runs from, as it passes it ({@code -Dmesh.controller.bundle});
     * {@code genesis} takes the archive beside it. Empty when Java was started otherwise (from the build's
     * classes, say).
     */
    private static Optional<Path> bundleDirectory() {
        return Optional.ofNullable(System.getProperty(BUNDLE_PROPERTY)).filter(s -> !s.isBlank()).map(Path::of);
    }

    /** The commands that need the store, or make the bundle or a mesh, added to controller-cli's. */
    private static List<Object> controllerCommands(Map<String, String> env, Optional<Path> bundle) {
        return List.of(new GenesisCommand(bundle), new PrepareCommand(env, Main::preparation), new ServeCommand(env),
                new IdentityCommands.Grant(env, Main::grants), new IdentityCommands.Revoke(env, Main::grants),
                new IdentityCommands.Principals(env, Main::grants), new TrainingCommand(
                        (args, training) -> forArguments(args, training, InputStream.nullInputStream(),
                                OutputStream.nullOutputStream()), Config::forServe));
    }

    /**
     * What {@code prepare} works on, from {@code MESH_STORE_…} and {@code MESH_BROKER_…} ({@link Config#forPrepare}),
     * their warnings printed: each database's migration, then the broker's topology ({@link Topology#declare}).
     */
    static PrepareCommand.Parts preparation(Map<String, String> env, PrintWriter err) {
        Config.Prepare config = Config.forPrepare(env);
        config.warnings().forEach(warning -> err.println("mesh-controller: warning: " + warning));
        List<PrepareCommand.Part<PrepareCommand.Migrated>> databases = Arrays.stream(Database.values())
                .<PrepareCommand.Part<PrepareCommand.Migrated>>map(database -> () -> {
                    try {
                        MigrationReport report = Migrations.of(database, config.stores().endpoint(database)
                                .dataSource()).migrate();
                        return new PrepareCommand.Migrated(report.text(), report.changed());
                    } catch (StoreException e) {
                        throw new PrepareCommand.Refused(database.label(), List.of(Failures.line(e)));
                    }
                }).toList();
        return new PrepareCommand.Parts(databases, () -> {
            try (Broker broker = Broker.connect(config.broker().settings(config.certificate()),
                    "mesh-controller-prepare")) {
                Topology.Declared declared = Topology.declare(broker);
                return new PrepareCommand.Declared(declared.vhost(), declared.created(), declared.found());
            } catch (BusException e) {
                throw new PrepareCommand.Refused("broker", e.getMessage().lines().toList());
            }
        });
    }

    /**
     * Opens the identity store for {@code grant}, {@code revoke} and {@code principals}: {@code
     * MESH_STORE_IDENTITY_FILE} and {@code _PORT} ({@link Config#forIdentity}), their warnings printed, and the
     * schema checked to be this controller's before anything is read or written.
     */
    private static Grants grants(Map<String, String> env, PrintWriter err) {
        Config.IdentityStore config = Config.forIdentity(env);
        config.warnings().forEach(warning -> err.println("mesh-controller: warning: " + warning));
        DataSource source = config.identity().dataSource();
        Migrations.of(Database.IDENTITY, source).requireUpToDate();
        return new PgIdentity(source);
    }
}
