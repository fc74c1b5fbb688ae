package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.CommandException;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.cli.MeshLoader;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.handover.KeepActive;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.EmbeddedStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The development controller of {@code serve --dev} (docs/design.md section 11): what is particular to
 * it — the state directory, the embedded store under it, this machine as node {@code local}, the
 * bearer token of {@code <state>/token} and the endpoint in {@code <state>/url} — around the one
 * {@link Assembly} of a controller, on {@link StorePorts} of the embedded store. It is the
 * always-active case of the life cycle: active from the start until it stops.
 * While it runs, {@code <state>/url} holds its endpoint, which the CLI client and
 * {@code mesh-controller mcp} read.
 *
 * <p>{@link #close()} stops it in order: no new requests, the lock released, the store stopped.
 */
final class DevController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DevController.class);

    /** The file, under the state directory, that holds the running controller's endpoint. */
    static final String URL_FILE = "url";

    /** The variable naming the directory of what development controllers share: the unpacked PostgreSQL. */
    static final String CACHE_VARIABLE = "MESH_CONTROLLER_CACHE";

    private final Path state;
    private final McpHttpServer server;
    private final long epoch;
    private final String loaded;
    private final Closer opened;

    private DevController(Path state, McpHttpServer server, long epoch, String loaded, Closer opened) {
        this.state = state;
        this.server = server;
        this.epoch = epoch;
        this.loaded = loaded;
        this.opened = opened;
    }

    /**
     * Starts the controller. Everything opened before a failure is closed again.
     *
     * @param state the state directory; created (mode 0700) when missing
     * @param http where to serve the verbs
     * @param allowRemote whether {@code http} may be an address other than loopback
     * @param mesh a mesh to load into an empty store, already read and checked
     * @param binaries where the embedded PostgreSQL is unpacked ({@link #binaries})
     * @return the running controller
     * @throws dev.mesh.controller.manifest.MeshException when a part cannot start (the store, the
     *     lock, the port), saying which and why
     */
    static DevController start(Path state, InetSocketAddress http, boolean allowRemote, Optional<MeshLoader> mesh,
            Path binaries) {
        Path directory = state.toAbsolutePath().normalize();
        Closer opened = new Closer();
        try {
            createPrivateDirectory(directory);
            EmbeddedStore store = opened.open(EmbeddedStore.start(directory, binaries));
            StorePorts ports = StorePorts.open(store.endpoint(Database.INVENTORY), store.endpoint(Database.LICENCES),
                    Instance.id(), Clock.systemUTC(), opened);
            LoggedEvents events = new LoggedEvents();
            // Alone on its store, it takes the plan lock now, and again whenever it finds the lock lost.
            KeepActive keeper = opened.open(KeepActive.start(ports.lifecycle(), events,
                    HandoverSettings.DEFAULTS.keepActiveEvery(),
                    new KeepActive.Listener() {
                        @Override
                        public void activated(Lifecycle.Status status) {
                            LOG.info("controller active again instance={} epoch={}", status.instance(),
                                    status.epoch());
                        }

                        @Override
                        public void refused(String why) {
                            LOG.warn("controller cannot become active again reason=\"{}\"", why);
                        }
                    }));
            long epoch = keeper.status().epoch();
            ports.inventory().report(LocalNode.detect());
            PrometheusMetrics metrics = new PrometheusMetrics(ports.lifecycle());
            Assembly assembly = opened.open(Assembly.of(new Verbs.Ports(ports.inventory(), ports.licences(),
                    ports.lifecycle(), events, ports.requests(), Layout.DEFAULT, Clock.systemUTC())
                    .withCalls(metrics), Identity.ANYONE, JarVersion.version()));
            String loaded = mesh.map(loader -> MeshLoader.isEmpty(ports.inventory())
                    ? "loaded " + loader.load(ports.inventory(), assembly.verbs())
                    : "the store holds a mesh already; --mesh was not loaded again").orElse("");
            BearerToken token = Files.exists(directory.resolve(BearerToken.FILE_NAME))
                    ? BearerToken.read(directory) : BearerToken.create(directory);
            assembly.renewStatus(Assembly.STATUS_EVERY);
            McpHttpServer server = assembly.serveHttp(new McpHttpServer.Config(http, allowRemote, token,
                    LocalNode.NAME, McpHttpServer.Config.DEFAULT_MAX_CONCURRENT), metrics.exposition());
            writeUrl(directory, server);
            LOG.info("controller started mode=dev state={} url={} epoch={}", directory, server.endpoint(), epoch);
            return new DevController(directory, server, epoch, loaded, opened);
        } catch (RuntimeException e) {
            opened.closeAll().forEach(e::addSuppressed);
            throw e;
        }
    }

    /** @return the line that says the controller is ready, with its endpoint */
    String readyLine() {
        return "mesh-controller ready: " + server.endpoint() + " (dev, state " + state + ", epoch " + epoch + ")";
    }

    /** @return what {@code --mesh} did, or {@code ""} without it */
    String loaded() {
        return loaded;
    }

    /**
     * Removes {@code <state>/url}, stops serving, releases the plan lock and stops the store, going on
     * past failures.
     *
     * @throws CommandException when something did not stop cleanly, after everything was tried
     */
    @Override
    public void close() {
        List<Exception> failures = new ArrayList<>();
        Path url = state.resolve(URL_FILE);
        try {
            Files.deleteIfExists(url);
        } catch (IOException e) {
            failures.add(new CommandException("cannot remove " + url + " (" + e + "); clients still find it there: "
                    + "remove it by hand", e));
        }
        failures.addAll(opened.closeAll());
        LOG.info("controller stopped mode=dev state={}", state);
        Closer.throwIfAny(failures);
    }

    /**
     * Where development controllers unpack the embedded PostgreSQL, shared by this user's state directories, so
     * that only the first start unpacks it (some seconds of a fresh start; docs/store.md): {@code
     * $MESH_CONTROLLER_CACHE/postgres}, else {@code $XDG_CACHE_HOME/mesh-controller/postgres}, else {@code
     * $HOME/.cache/mesh-controller/postgres}; with none of them set (to an absolute path), the state directory's
     * {@code postgres-binaries}, as before there was a cache.
     *
     * @param env the environment
     * @param state the state directory
     * @return the directory
     */
    static Path binaries(Map<String, String> env, Path state) {
        return absolute(env.get(CACHE_VARIABLE))
                .or(() -> absolute(env.get("XDG_CACHE_HOME")).map(cache -> cache.resolve("mesh-controller")))
                .or(() -> absolute(env.get("HOME")).map(home -> home.resolve(".cache").resolve("mesh-controller")))
                .map(cache -> cache.resolve("postgres"))
                .orElseGet(() -> state.toAbsolutePath().normalize().resolve("postgres-binaries"));
    }

    /** @return the value as a path, when it is an absolute one (the XDG rule: a relative one is ignored) */
    private static Optional<Path> absolute(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(value);
            return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    static void createPrivateDirectory(Path directory) {
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            throw new CommandException("cannot create the state directory " + directory + ": " + e.getMessage()
                    + "; choose another with --state", e);
        }
    }

    /** Writes the endpoint to {@code <state>/url} through a temporary file, so a reader never sees half of it. */
    private static void writeUrl(Path directory, McpHttpServer server) {
        Path file = directory.resolve(URL_FILE);
        Path temporary = directory.resolve(URL_FILE + ".new");
        try {
            Files.writeString(temporary, server.endpoint() + "\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new CommandException("cannot write " + file + ", where clients find the controller: "
                    + e.getMessage(), e);
        }
    }
}
