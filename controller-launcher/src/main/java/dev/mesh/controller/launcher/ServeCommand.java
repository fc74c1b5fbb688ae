package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.CommandException;
import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.cli.LocalNode;
import dev.mesh.controller.cli.MeshLoader;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.store.EmbeddedStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code mesh-controller serve --dev [--state DIR] [--http HOST:PORT] [--mesh FILE]}: runs the
 * development controller ({@link DevController}) until SIGTERM or SIGINT, after one ready line
 * with its endpoint. The mesh's own controller ({@code serve} without {@code --dev}) reads and
 * checks its whole environment first ({@link Config#forServe}: every problem at once, exit 2, before
 * anything connects), then runs {@link MeshController} until SIGTERM or SIGINT; with {@code --http}
 * it serves the verbs over loopback HTTP too.
 *
 * <p>Everything the command line decides is checked before the embedded store starts (which is
 * slow, and leaves a state directory behind): {@code --http} is a loopback address unless
 * {@code --allow-remote}, its port can be listened on, and the mesh file is valid.
 */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "Runs the controller. With --dev: an embedded PostgreSQL under the state directory, this "
                + "machine as node 'local', the verbs over MCP on loopback HTTP with the bearer token of "
                + "<state>/token; stops cleanly on SIGTERM or Ctrl-C, and a second start on the same state "
                + "directory continues where the first stopped.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped by SIGTERM or Ctrl-C after serving, cleanly (the planned release)",
            "1:the controller could not start (the line says why), the mesh file has problems, or it stopped "
                + "but not cleanly (the line says what)",
            "2:the command line or the environment is wrong"})
final class ServeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    private final Map<String, String> env;

    @Spec
    private CommandSpec spec;

    @Option(names = "--dev", description = "Run the development controller. Without it: the mesh's controller, "
            + "from the environment its manifest gives it (MESH_STORE_*, MESH_BROKER_*, MESH_BUS_NATS_FILE), over "
            + "the broker and the bus.")
    private boolean dev;

    @Option(names = "--state", paramLabel = "DIR", defaultValue = DEFAULT_STATE,
            description = "The state directory: the embedded store's data, the token, the endpoint "
                    + "(default: ${DEFAULT-VALUE}).")
    private Path state;

    @Option(names = "--http", paramLabel = "HOST:PORT",
            description = "Where to serve MCP over HTTP, POST /mcp, with the bearer token of the state directory; "
                    + "port 0 for any free port (--dev: default " + DEV_HTTP + "; the mesh's controller: no HTTP "
                    + "unless given, and HTTP callers are the principal '" + LocalNode.NAME + "', granted like any "
                    + "other).")
    private String http;

    @Option(names = "--allow-remote", description = "Allow --http on an address other than loopback: every "
            + "machine that reaches it and has the token may call the verbs.")
    private boolean allowRemote;

    @Option(names = "--mesh", paramLabel = "FILE",
            description = "A mesh file whose nodes, modules and assignments are loaded when the store is empty.")
    private Path mesh;

    @Option(names = "--handover", paramLabel = "NAME=VALUE", mapFallbackValue = "",
            description = "One of the handover's timings, over its MESH_HANDOVER_* variable (docs/cli.md lists "
                    + "them and the rules between them), e.g. --handover lease=3s. The mesh's controller only.")
    private Map<String, String> handover = new LinkedHashMap<>();

    /** A class of the development parts' embedded PostgreSQL, to find whether they are there. */
    private static final String EMBEDDED_SERVER = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

    /** The log formats of {@code --log-format}. */
    enum LogFormat { text, json }

    // Read by Main before anything logs (Main.logFormat); declared here so that picocli checks and documents it.
    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "The log's format on standard error: text (one line per event, 'event key=value ...'; "
                    + "the default, or MESH_LOG_FORMAT) or json (one JSON object per line). Valid values: "
                    + "${COMPLETION-CANDIDATES}.")
    private LogFormat logFormat;

    /** The state directory unless told otherwise. */
    static final String DEFAULT_STATE = ".mesh-dev";

    /** The standard streams of a run without picocli ({@link #direct}); empty when picocli runs it. */
    private Optional<Streams> direct = Optional.empty();

    private record Streams(PrintWriter out, PrintWriter err) {
    }

    /** Where {@code serve --dev} listens unless told otherwise. */
    static final String DEV_HTTP = "127.0.0.1:7300";

    ServeCommand(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    /**
     * Runs {@code serve} without picocli when it is the whole command line — as the host runs the mesh's
     * controller (its manifest's process) — and declines any other, which picocli then reads as always. The
     * command is the one picocli would run with every option at its default, and a failure is rendered by
     * {@link Failures} as picocli's handler renders it ({@code DirectCommandsTest} holds the two to the same lines
     * and exit code): it only skips loading picocli and building the command's model by reflection, a part of
     * the start worth skipping (docs/operations.md, "A short command's start", has the figures).
     *
     * @param args the whole command line
     * @param env the environment the command reads its configuration from
     * @param out where the ready line goes
     * @param err where warnings and a failure go
     * @return the exit code; empty when the command line is not {@code serve} alone
     */
    static OptionalInt direct(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        if (args.length != 1 || !args[0].equals("serve")) {
            return OptionalInt.empty();
        }
        ServeCommand serve = new ServeCommand(env);
        serve.state = Path.of(DEFAULT_STATE);
        serve.logFormat = LogFormat.text;
        serve.direct = Optional.of(new Streams(out, err));
        try {
            return OptionalInt.of(serve.call());
        } catch (Exception failure) {
            // Its exit code for input it refuses, as picocli's.
            return OptionalInt.of(Failures.of(failure, 2).printTo(err));
        }
    }

    private PrintWriter out() {
        return direct.map(Streams::out).orElseGet(() -> spec.commandLine().getOut());
    }

    private PrintWriter err() {
        return direct.map(Streams::err).orElseGet(() -> spec.commandLine().getErr());
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!dev) {
            return serveMesh();
        }
        if (!handover.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--handover sets the timings of the handover between "
                    + "controllers on the broker; --dev runs a controller alone, with none: leave --handover out");
        }
        requireDevelopmentParts();
        if (http == null) {
            http = DEV_HTTP;
        }
        InetSocketAddress address = listenable(" (the default)");
        Optional<MeshLoader> loader;
        try {
            loader = Optional.ofNullable(mesh).map(MeshLoader::read);
        } catch (ManifestException e) {
            throw new CommandException("the mesh file " + mesh + " has " + e.problems().size() + " problem"
                    + (e.problems().size() == 1 ? "" : "s") + "; nothing was started", e);
        }
        DevController controller = DevController.start(state, address, allowRemote, loader,
                EmbeddedStore.binaries(env, state));
        String loaded = controller.loaded();
        return serveUntilStopped(controller::close, loaded.isEmpty() ? List.of(controller.readyLine())
                : List.of(loaded, controller.readyLine()));
    }

    /**
     * Runs the mesh's controller: checks the whole environment first (every problem at once, exit 2,
     * before anything connects), then the --http address, then connects and serves until SIGTERM.
     */
    private int serveMesh() throws InterruptedException {
        Config.Serve config = Config.forServe(env, handover);
        PrintWriter err = err();
        config.warnings().forEach(warning -> err.println("mesh-controller: warning: " + warning));
        err.flush();
        Optional<McpHttpServer.Config> httpConfig = Optional.empty();
        if (http != null) {
            InetSocketAddress address = listenable("");
            BearerToken token = BearerToken.readOrCreate(state.toAbsolutePath().normalize());
            httpConfig = Optional.of(new McpHttpServer.Config(address, allowRemote, token, LocalNode.NAME,
                    McpHttpServer.Config.DEFAULT_MAX_CONCURRENT));
        }
        MeshController controller = MeshController.start(config, httpConfig);
        if (config.ready().isPresent()) {
            try {
                ReadyFile.write(config.ready().get(), controller.readyLine());
            } catch (CommandException e) {
                controller.close();
                throw e;
            }
        }
        return serveUntilStopped(controller::close, List.of(controller.readyLine()));
    }

    /**
     * Prints the lines, then serves until SIGTERM or SIGINT asks for the planned release ({@link Stop}),
     * closes the controller and returns 0. A close that fails (the controller did not stop cleanly)
     * throws instead, which {@link dev.mesh.controller.cli.Failures} turns into its line and exit 1.
     */
    private int serveUntilStopped(Runnable close, List<String> lines) throws InterruptedException {
        Stop stop = Stop.install(close, err());
        PrintWriter out = out();
        lines.forEach(out::println);
        out.flush();
        LOG.info("controller stopping signal={}", stop.await());
        stop.close();
        return 0;
    }

    /**
     * {@code --dev} runs an embedded PostgreSQL, whose server and unpacking come in the development parts
     * ({@code lib/dev}): the production archive leaves them out (docs/operations.md, "The bundle").
     */
    private static void requireDevelopmentParts() {
        try {
            Class.forName(EMBEDDED_SERVER, false, ServeCommand.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new CommandException("serve --dev needs the development parts (the embedded PostgreSQL), which the "
                    + "production bundle leaves out; unpack mesh-controller-dev.tar.gz (built beside "
                    + "mesh-controller.tar.gz) over it: tar -xzf mesh-controller-dev.tar.gz in the directory that "
                    + "holds mesh-controller/", e);
        }
    }

    /**
     * @param theDefault what the fix's loopback address is called, when it is the default
     * @return {@code --http}'s address, on loopback unless {@code --allow-remote}, and free to listen on
     */
    private InetSocketAddress listenable(String theDefault) {
        InetSocketAddress address = address(http);
        if (!allowRemote && !address.getAddress().isLoopbackAddress()) {
            throw new ParameterException(spec.commandLine(), "--http " + http + " is not a loopback address: every "
                    + "machine that reaches it could try the token; listen on 127.0.0.1" + theDefault + ", or add "
                    + "--allow-remote to serve other machines too");
        }
        checkListenable(address);
        return address;
    }

    /**
     * Binds the address and lets it go again, so that a port in use stops the start before the store
     * does. The HTTP server binds it again once the verbs are ready, to serve nothing before that;
     * another process may take the port in between, and then the start fails there, as before.
     */
    private void checkListenable(InetSocketAddress address) {
        if (address.getPort() == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
        } catch (IOException e) {
            throw new CommandException("--http " + http + ": cannot listen there (" + e.getMessage() + "); is another "
                    + "controller running on it? stop it, or choose another port with --http HOST:PORT (port 0 for "
                    + "any free one); nothing was started", e);
        }
    }

    private InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon > 0 ? hostPort.substring(0, colon) : "";
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (host.isEmpty() || port < 0 || port > 65_535) {
            throw new ParameterException(spec.commandLine(), "--http must be HOST:PORT with a port from 0 to 65535, "
                    + "such as 127.0.0.1:7300, not \"" + hostPort + "\"");
        }
        try {
            InetAddress resolved = InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1)
                    : host);
            return new InetSocketAddress(resolved, port);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--http names the host \"" + host + "\", which does not "
                    + "resolve; use an address such as 127.0.0.1");
        }
    }
}
