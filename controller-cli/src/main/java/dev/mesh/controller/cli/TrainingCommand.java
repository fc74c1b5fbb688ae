package dev.mesh.controller.cli;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.McpHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mesh-controller training --examples DIR [--workload cli|serve] [--classes FILE]}: the workload of
 * the build's training runs, from which the bundle's ahead-of-time class caches are made (the JVM records
 * the classes it loads and links, and the methods it profiles). Hidden from help: an operator runs it only
 * to make a cache anew (docs/operations.md). Offline, and it changes nothing outside a temporary directory.
 *
 * <p>What it runs is what a start spends its time on. {@code cli}, for every command but {@code serve}: the
 * command line, the offline commands over the examples (every manifest validated, the mesh composed and
 * planned, as text and JSON), and an in-memory controller loaded with the example mesh and called over
 * loopback HTTP by the CLI client (every read verb). {@code serve}: the same controller, the configuration
 * of {@code serve} read from files like a mesh's, and the classes a mesh's {@code serve} loads — its store,
 * broker and bus libraries, which cannot run offline — loaded by name from {@code --classes} (recorded from a
 * real {@code serve}; {@code src/build/serve-classes}), so that they are in the cache, parsed and verified.
 * Everything it prints goes nowhere; it fails only when an example does not pass, so that a broken workload
 * cannot make a cache of half a start.
 */
@Command(name = "training", hidden = true, description = "The build's training run for the ahead-of-time cache.")
public final class TrainingCommand implements Callable<Integer> {

    /** Which start a cache is made for. */
    enum Workload { cli, serve }

    /** Each read the client makes, and how often: enough for the JIT to profile the verbs' path. */
    private static final int ROUNDS = 20;

    @Option(names = "--examples", paramLabel = "DIR", required = true,
            description = "The examples: DIR/mesh.json and the manifests of DIR/modules/*.json.")
    private Path examples;

    @Option(names = "--workload", paramLabel = "cli|serve", defaultValue = "cli",
            description = "cli: every command but serve; serve: the mesh's controller.")
    private Workload workload;

    @Option(names = "--classes", paramLabel = "FILE",
            description = "serve: the classes to load by name, one a line (# for comments).")
    private Path classes;

    private final BiFunction<String[], Map<String, String>, CommandLine> commandLine;
    private final Consumer<Map<String, String>> serveConfiguration;

    /**
     * @param commandLine the launcher's command line for one invocation, its input and output nowhere
     * @param serveConfiguration reads and checks {@code serve}'s configuration from an environment, as a
     *     mesh's {@code serve} does; throws when it is wrong
     */
    public TrainingCommand(BiFunction<String[], Map<String, String>, CommandLine> commandLine,
            Consumer<Map<String, String>> serveConfiguration) {
        this.commandLine = Objects.requireNonNull(commandLine, "commandLine");
        this.serveConfiguration = Objects.requireNonNull(serveConfiguration, "serveConfiguration");
    }

    @Override
    public Integer call() throws IOException {
        Path mesh = examples.resolve("mesh.json");
        List<String> manifests;
        try (Stream<Path> files = Files.list(examples.resolve("modules"))) {
            manifests = files.filter(file -> file.toString().endsWith(".json")).map(Path::toString).sorted().toList();
        }
        if (workload == Workload.cli) {
            offline(mesh, manifests);
        }
        Path scratch = Files.createTempDirectory("mesh-controller-training");
        try {
            online(mesh, scratch);
            if (workload == Workload.serve) {
                configuration(scratch);
                if (classes != null) {
                    load(classes);
                }
            }
        } finally {
            delete(scratch);
        }
        return 0;
    }

    /**
     * Loads each class named in the file, without initialising it: what cannot be loaded here (a class gone
     * since the list was recorded) is skipped, as it would be missing from the cache and loaded from its jar.
     */
    private static void load(Path list) throws IOException {
        ClassLoader loader = TrainingCommand.class.getClassLoader();
        for (String line : Files.readAllLines(list)) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // Not in this build: nothing to cache.
            }
        }
    }

    private void offline(Path mesh, List<String> manifests) {
        List<String> validate = new ArrayList<>(List.of("validate"));
        validate.addAll(manifests);
        run(Map.of(), validate);
        validate.add(1, "--json");
        run(Map.of(), validate);
        for (int i = 0; i < 3; i++) {
            run(Map.of(), List.of("compose", "--mesh", mesh.toString()));
            run(Map.of(), List.of("compose", "--mesh", mesh.toString(), "--json"));
            run(Map.of(), List.of("plan", "--mesh", mesh.toString()), 2);
            run(Map.of(), List.of("plan", "--mesh", mesh.toString(), "--json"), 2);
        }
    }

    /** An in-memory controller with the example mesh, served over loopback HTTP and called by the CLI. */
    private void online(Path mesh, Path scratch) {
        Clock clock = Clock.systemUTC();
        MemoryInventory inventory = new MemoryInventory();
        Lifecycle lifecycle = LocalLifecycle.active(LocalPlanLock.create(), "training:1", clock);
        try (Assembly assembly = Assembly.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, clock), Identity.ANYONE, JarVersion.version())) {
            MeshLoader.read(mesh).load(inventory, assembly.verbs());
            assembly.verbs().refresh();
            BearerToken token = BearerToken.create(scratch);
            McpHttpServer server = assembly.serveHttp(McpHttpServer.Config.loopback(0, token, LocalNode.NAME));
            Map<String, String> env = Map.of("MESH_CONTROLLER_URL", server.endpoint().toString(),
                    "MESH_CONTROLLER_TOKEN_FILE", scratch.resolve(BearerToken.FILE_NAME).toString());
            for (int i = 0; i < ROUNDS; i++) {
                run(env, List.of("status"));
                run(env, List.of("status", "--json"));
                run(env, List.of("nodes"));
                run(env, List.of("modules"));
                run(env, List.of("seats"));
                run(env, List.of("builds"));
                run(env, List.of("tools"));
                run(env, List.of("plan"), 2);
                run(env, List.of("plan", "--json"), 2);
            }
        }
    }

    /** {@code serve}'s configuration read from files as a mesh gives them; nothing is connected to. */
    private void configuration(Path scratch) throws IOException {
        String closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = "127.0.0.1:" + socket.getLocalPort();
        }
        Map<String, String> env = new HashMap<>();
        for (String database : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            env.put("MESH_STORE_" + database + "_FILE", write(scratch, database + ".json",
                    "{\"user\": \"training\", \"password\": \"training\", \"database\": \"" + database.toLowerCase()
                            + "\"}"));
            env.put("MESH_STORE_" + database + "_PORT", closed);
        }
        env.put("MESH_BROKER_ADDRESS_FILE", write(scratch, "broker.json",
                "{\"user\": \"training\", \"password\": \"training\", \"vhost\": \"/\"}"));
        env.put("MESH_BROKER_ADDRESS_PORT", closed);
        env.put("MESH_BUS_NATS_FILE", write(scratch, "nats.json", "{\"url\": \"nats://" + closed + "\"}"));
        serveConfiguration.accept(env);
    }

    private static String write(Path dir, String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }

    private void run(Map<String, String> env, List<String> args) {
        run(env, args, 0);
    }

    /** Runs one command of the whole command line, its output discarded; fails unless it exits as expected. */
    private void run(Map<String, String> env, List<String> args, int expected) {
        CommandLine commandLine = this.commandLine.apply(args.toArray(String[]::new), env);
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(OutputStream.nullOutputStream()));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args.toArray(String[]::new));
        if (code != expected && code != 0) {
            throw new IllegalStateException("training: mesh-controller " + String.join(" ", args) + " exited " + code
                    + ": " + err);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
