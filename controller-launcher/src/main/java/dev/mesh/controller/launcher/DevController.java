package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.CommandException;
import dev.mesh.controller.cli.ControllerAddress;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.cli.LocalNode;
import dev.mesh.controller.cli.MeshLoader;
import dev.mesh.controller.core.Closer;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.handover.ControllerLifecycle;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.handover.Instance;
import dev.mesh.controller.handover.KeepActive;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.mcp.PrometheusMetrics;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.EmbeddedStore;
import dev.mesh.controller.store.StorePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
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
 *
 * @param state the state directory
 * @param server the verbs over HTTP
 * @param epoch the plan lock's epoch it took at the start
 * @param loaded what {@code --mesh} did, or {@code ""} without it
 * @param opened what it opened, to close
 */
record DevController(Path state, McpHttpServer server, long epoch, String loaded, Closer opened)
        implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DevController.class);

    /**
     * Starts the controller. Everything opened before a failure is closed again.
     *
     * @param state the state directory; created (mode 0700) when missing
     * @param http where to serve the verbs
     * @param allowRemote whether {@code http} may be an address other than loopback
     * @param mesh a mesh to load into an empty store, already read and checked
     * @param binaries where the embedded PostgreSQL is unpacked ({@link EmbeddedStore#binaries})
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
            String instance = Instance.id();
            StorePorts ports = opened.open(StorePorts.open(store.endpoint(Database.INVENTORY),
                    store.endpoint(Database.LICENCES), instance));
            ControllerLifecycle lifecycle = opened.open(ControllerLifecycle.standby(ports.lock(), instance,
                    Clock.systemUTC()));
            LoggedEvents events = new LoggedEvents();
            // Alone on its store, it takes the plan lock now, and again whenever it finds the lock lost.
            KeepActive keeper = opened.open(KeepActive.start(lifecycle, events,
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
            PrometheusMetrics metrics = new PrometheusMetrics(lifecycle);
            Assembly assembly = opened.open(Assembly.of(new Verbs.Ports(ports.inventory(), ports.licences(),
                    lifecycle, events, ports.requests(), Layout.DEFAULT, Clock.systemUTC())
                    .withCalls(metrics), Identity.ANYONE, JarVersion.version()));
            String loaded = mesh.map(loader -> MeshLoader.isEmpty(ports.inventory())
                    ? "loaded " + loader.load(ports.inventory(), assembly.verbs())
                    : "the store holds a mesh already; --mesh was not loaded again").orElse("");
            BearerToken token = BearerToken.readOrCreate(directory);
            assembly.renewStatus(Assembly.STATUS_EVERY);
            McpHttpServer server = assembly.serveHttp(new McpHttpServer.Config(http, allowRemote, token,
                    LocalNode.NAME, McpHttpServer.Config.DEFAULT_MAX_CONCURRENT), metrics.exposition());
            ControllerAddress.writeUrl(directory, server.endpoint());
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

    /**
     * Removes {@code <state>/url}, stops serving, releases the plan lock and stops the store, going on
     * past failures.
     *
     * @throws CommandException when something did not stop cleanly, after everything was tried
     */
    @Override
    public void close() {
        List<Exception> failures = new ArrayList<>();
        Path url = state.resolve(ControllerAddress.URL_FILE);
        try {
            Files.deleteIfExists(url);
        } catch (IOException e) {
            failures.add(new CommandException("cannot remove " + url + " (" + e + "); clients still find it there: "
                    + "remove it by hand", e));
        }
        failures.addAll(opened.closeAll());
        LOG.info("controller stopped mode=dev state={}", state);
        Closer.throwIfAny(failures, (first, cause) -> new CommandException("the controller stopped, but not cleanly: "
                + first, cause));
    }

    private static void createPrivateDirectory(Path directory) {
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
}
