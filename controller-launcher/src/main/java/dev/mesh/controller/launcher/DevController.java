package dev.mesh.controller.launcher;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpDispatcher;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.EmbeddedStore;
import dev.mesh.controller.store.PgInventory;
import dev.mesh.controller.store.PgLicences;
import dev.mesh.controller.store.PgPlanLock;
import dev.mesh.controller.store.PgRequestRecords;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The development controller of {@code serve --dev} (DESIGN.md section 11): the embedded store
 * under a state directory, this machine as node {@code local}, the plan lock acquired for the
 * whole run, and the verbs over loopback HTTP with the bearer token of {@code <state>/token};
 * {@code status}'s snapshot is renewed every five seconds.
 * While it runs, {@code <state>/url} holds its endpoint, which the CLI client and
 * {@code mesh-controller mcp} read.
 *
 * <p>{@link #close()} stops it in order: no new requests, the lock released, the store stopped.
 */
final class DevController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DevController.class);

    /** The file, under the state directory, that holds the running controller's endpoint. */
    static final String URL_FILE = "url";

    /** How often {@code status}'s snapshot is renewed from the store (what changes without a verb). */
    private static final Duration STATUS_EVERY = Duration.ofSeconds(5);

    private final Path state;
    private final McpHttpServer server;
    private final long epoch;
    private final String loaded;
    /** What to close, the last opened first. */
    private final Deque<AutoCloseable> opened;

    private DevController(Path state, McpHttpServer server, long epoch, String loaded, Deque<AutoCloseable> opened) {
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
     * @return the running controller
     * @throws dev.mesh.controller.manifest.MeshException when a part cannot start (the store, the
     *     lock, the port), saying which and why
     */
    static DevController start(Path state, InetSocketAddress http, boolean allowRemote, Optional<MeshLoader> mesh) {
        Path directory = state.toAbsolutePath().normalize();
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        try {
            createPrivateDirectory(directory);
            EmbeddedStore store = open(opened, EmbeddedStore.start(directory));
            ConnectionPool inventoryPool = open(opened, ConnectionPool.open(store.endpoint(Database.INVENTORY), 8));
            ConnectionPool licencesPool = open(opened, ConnectionPool.open(store.endpoint(Database.LICENCES), 2));
            PgPlanLock lock = open(opened, PgPlanLock.of(store.endpoint(Database.INVENTORY), inventoryPool.dataSource(),
                    holder(), Duration.ofSeconds(10)));
            long epoch = lock.acquire();
            opened.push(lock::release);
            PgInventory inventory = PgInventory.fenced(inventoryPool.dataSource(), lock);
            inventory.report(LocalNode.detect());
            Verbs verbs = Verbs.of(inventory, new PgLicences(licencesPool.dataSource()), lock, new LoggedEvents(),
                    Layout.DEFAULT, Clock.systemUTC())
                    .withRequestRecords(PgRequestRecords.fenced(inventoryPool.dataSource(), lock));
            String loaded = mesh.map(loader -> MeshLoader.isEmpty(inventory)
                    ? "loaded " + loader.load(inventory, verbs)
                    : "the store holds a mesh already; --mesh was not loaded again").orElse("");
            BearerToken token = Files.exists(directory.resolve(BearerToken.FILE_NAME))
                    ? BearerToken.read(directory) : BearerToken.create(directory);
            ScheduledExecutorService refresher = open(opened, Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("mesh-controller-status").daemon().factory()));
            refresher.scheduleWithFixedDelay(() -> refresh(verbs), 0, STATUS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            McpHttpServer server = open(opened, McpHttpServer.start(
                    McpDispatcher.of(verbs, Identity.ANYONE, JarVersion.version()),
                    new McpHttpServer.Config(http, allowRemote, token, LocalNode.NAME,
                            McpHttpServer.Config.DEFAULT_MAX_CONCURRENT)));
            writeUrl(directory, server);
            LOG.info("controller started mode=dev state={} url={} epoch={}", directory, server.endpoint(), epoch);
            return new DevController(directory, server, epoch, loaded, opened);
        } catch (RuntimeException e) {
            closeAll(opened).forEach(e::addSuppressed);
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

    /** Stops serving, releases the plan lock, stops the store, and removes {@code <state>/url}. */
    @Override
    public void close() {
        List<Exception> failures = new ArrayList<>();
        try {
            Files.deleteIfExists(state.resolve(URL_FILE));
        } catch (IOException e) {
            failures.add(e);
        }
        failures.addAll(closeAll(opened));
        LOG.info("controller stopped mode=dev state={}", state);
        if (!failures.isEmpty()) {
            CommandException stopped = new CommandException("the controller stopped, but not cleanly: "
                    + failures.getFirst().getMessage(), failures.getFirst());
            failures.stream().skip(1).forEach(stopped::addSuppressed);
            throw stopped;
        }
    }

    /** Renews {@code status}; a failure is logged, and the next renewal comes all the same. */
    private static void refresh(Verbs verbs) {
        try {
            verbs.refresh();
        } catch (RuntimeException e) {
            LOG.warn("status refresh failed reason=\"{}\"", e.toString(), e);
        }
    }

    private static <T extends AutoCloseable> T open(Deque<AutoCloseable> opened, T resource) {
        opened.push(resource);
        return resource;
    }

    /**
     * Closes what was opened, the last first, going on past failures.
     *
     * @return the failures, in the order they happened
     */
    private static List<Exception> closeAll(Deque<AutoCloseable> opened) {
        List<Exception> failures = new ArrayList<>();
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        return failures;
    }

    private static String holder() {
        return "dev/" + ProcessHandle.current().pid();
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
