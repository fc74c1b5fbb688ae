package dev.mesh.controller.store;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import dev.mesh.controller.core.Secret;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.Map;
import java.nio.file.InvalidPathException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's embedded default (docs/design.md section 11, {@code serve --dev}): a PostgreSQL server of
 * this process's own, run from the binaries that a Maven artifact carries, with its data under a
 * state directory, so that a second start goes on where the first stopped. On start it creates the
 * {@code inventory}, {@code identity} and {@code licences} databases when they are missing and
 * migrates them.
 *
 * <p>Under the state directory, all owner-only: {@code postgres/} (the data),
 * {@code postgres-binaries/} (the unpacked server), {@code postgres.log} (the server's output) and
 * {@code password}, the superuser's password, generated on the first start. The server listens on
 * {@code 127.0.0.1} only, on a free port chosen at each start, with no Unix socket, and every
 * connection logs in with that password ({@code scram-sha-256}; no {@code trust} line): another
 * user of the machine can neither read the inventory nor run programs as the controller's user
 * through the superuser. A state directory of an earlier version (trust, no password) gets its
 * password on the first start of this one.
 *
 * <p>One controller runs on a state directory at a time: it holds {@code controller.lock} (a file
 * lock, with its pid) until {@link #close()}. The operating system frees the lock when the process
 * dies, also by {@code kill -9}, while its PostgreSQL goes on running; the next start finds the
 * lock free and that server's {@code postmaster.pid} alive, stops it ({@code pg_ctl stop -m fast})
 * and starts. A start while the lock is held is refused with the holder's pid.
 *
 * <p>As root, PostgreSQL refuses to run; the server is then run in a new user namespace
 * ({@code unshare -U}), where it is an unprivileged user, which needs {@code unshare} and user
 * namespaces allowed by the kernel. Thread-safe.
 */
public final class EmbeddedStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStore.class);
    private static final String USER = "postgres";
    /** Where {@link #start(Path)} unpacks the server: in the state directory, which holds all of it. */
    static final String BINARIES = "postgres-binaries";

    /** The variable naming the directory of what development controllers share: the unpacked PostgreSQL. */
    public static final String CACHE_VARIABLE = "MESH_CONTROLLER_CACHE";

    private final Path state;
    private final StateLock lock;
    private final EmbeddedPostgres server;
    private final Endpoint admin;
    private final List<MigrationReport> migrations;

    private EmbeddedStore(Path state, StateLock lock, EmbeddedPostgres server, Endpoint admin,
            List<MigrationReport> migrations) {
        this.state = state;
        this.lock = lock;
        this.server = server;
        this.admin = admin;
        this.migrations = List.copyOf(migrations);
    }

    /**
     * Starts the server on the data under {@code state} (creating it on first start), creates the
     * three databases that are missing, and migrates them. The state directory's lock is held
     * until {@link #close()}: a server left running by a controller that died (its lock is free)
     * is stopped first; a live controller on the same directory (its lock is held) is refused.
     *
     * @param state the state directory; created when missing
     * @return the running store
     * @throws StoreException when another controller runs on the directory (naming its pid), or
     *     the server cannot be started, or a database cannot be created or migrated; the message
     *     quotes the end of the server's output
     */
    public static EmbeddedStore start(Path state) {
        Path directory = Objects.requireNonNull(state, "state").toAbsolutePath();
        return start(directory, directory.resolve(BINARIES));
    }

    /**
     * Starts as {@link #start(Path)} does, with the server unpacked under {@code binaries}, which this user's
     * state directories may share: the first start unpacks it there (some seconds), the others find it (the
     * lock of {@link ServerArchive} keeps two starts from unpacking at once). The directory is
     * created when missing and kept owner-only, like the state directory.
     *
     * @param state the state directory; created when missing
     * @param binaries where the server is unpacked
     * @return the running store
     * @throws StoreException as {@link #start(Path)}, and when {@code binaries} belongs to another user
     */
    public static EmbeddedStore start(Path state, Path binaries) {
        Path directory = Objects.requireNonNull(state, "state").toAbsolutePath();
        Path serverDirectory = Objects.requireNonNull(binaries, "binaries").toAbsolutePath();
        Thread.ofVirtual().name("embedded-store-preload").start(EmbeddedStore::preload);
        StateDirectory files;
        StateLock lock;
        try {
            files = StateDirectory.open(directory, serverDirectory);
            lock = StateLock.take(files.lockFile());
        } catch (IOException e) {
            String where = serverDirectory.startsWith(directory) ? "the state directory " + directory
                    : "the state directory " + directory + " or the server's directory " + serverDirectory;
            throw new StoreException("could not prepare " + where + " of the embedded PostgreSQL: " + e.getMessage()
                    + "; check that this user owns it and may write there", e);
        }
        try {
            return start(files, lock);
        } catch (StoreException e) {
            try {
                lock.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private static EmbeddedStore start(StateDirectory files, StateLock lock) {
        long begun = System.nanoTime();
        Secret password;
        EmbeddedPostgres server;
        try {
            ServerArchive archive = ServerArchive.onClassPath();
            Path unpacked = archive.unpacked(files.binaries());
            stopOrphan(files, unpacked);
            boolean keepTemplate = false;
            if (!files.initialized()) {
                files.forgetPassword();
                // A server shared by state directories keeps its first initdb's data directory as a template.
                boolean shared = files.sharesBinaries();
                Optional<Path> template = shared ? DataTemplate.find(unpacked) : Optional.empty();
                if (template.isPresent()) {
                    DataTemplate.copy(template.get(), files.data());
                    LOG.debug("embedded store data directory copied template={} state={}", template.get(),
                            files.root());
                }
                keepTemplate = shared && template.isEmpty();
            }
            Optional<Secret> kept = files.password();
            password = kept.orElseGet(StateDirectory::generatePassword);
            server = server(files, archive, unpacked, password, kept.isEmpty(), keepTemplate).start();
        } catch (IOException | UncheckedIOException | IllegalStateException | ExceptionInInitializerError e) {
            throw new StoreException("could not start the embedded PostgreSQL under " + files.root() + ": "
                    + describe(e) + tail(files.log()), e);
        }
        long serving = System.nanoTime();
        Endpoint admin = admin(server, password);
        try {
            List<MigrationReport> reports = prepare(files.root(), admin);
            LOG.debug("embedded store ready serverMs={} schemasMs={}", (serving - begun) / 1_000_000,
                    (System.nanoTime() - serving) / 1_000_000);
            LOG.info("embedded store started state={} port={}", files.root(), server.getPort());
            return new EmbeddedStore(files.root(), lock, server, admin, reports);
        } catch (StoreException e) {
            try {
                server.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Loads jOOQ by rendering a query, on a thread of its own while the server starts (a process of
     * its own, mostly waited for): a cold JVM's first jOOQ query costs a second or more of class
     * loading, which otherwise came after the server was up, before the schemas could be checked.
     * Nothing is executed; whichever thread comes first waits for the other's class loading.
     */
    private static void preload() {
        DSL.using(SQLDialect.POSTGRES).select(field(name("version"), String.class))
                .from(table(name("flyway_schema_history"))).orderBy(field(name("installed_rank"))).getSQL();
    }

    /**
     * Stops the server a controller that died (killed, its lock freed by the system) left running
     * on the data directory: PostgreSQL would refuse to start beside it.
     */
    private static void stopOrphan(StateDirectory files, Path unpacked) throws IOException {
        OptionalLong pid = files.postmasterPid();
        Optional<ProcessHandle> orphan = pid.isEmpty() ? Optional.empty() : ProcessHandle.of(pid.getAsLong())
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(c -> c.endsWith("postgres")).orElse(true));
        if (orphan.isEmpty()) {
            return; // none, or a stale postmaster.pid, which the server replaces
        }
        LOG.info("embedded store stopping a server left running pid={} state={}", pid.getAsLong(), files.root());
        ServerBinaries.in(unpacked, files.log()).stop(files.data());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (orphan.get().isAlive()) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the server left running (pid " + pid.getAsLong() + ") did not stop within 30 s");
            }
            try {
                orphan.get().onExit().get(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the server left running to stop", e);
            } catch (ExecutionException | TimeoutException e) {
                // not yet ended: look again until the deadline
            }
        }
    }

    /**
     * The server, listening on 127.0.0.1 alone, with no Unix socket; before it starts, the
     * customizer writes the password-only {@code pg_hba.conf} and, on a first start (or the first
     * start of this version on an older state directory), sets the superuser's password.
     */
    private static EmbeddedPostgres.Builder server(StateDirectory files, ServerArchive archive, Path unpacked,
            Secret password, boolean setPassword, boolean keepTemplate) {
        return EmbeddedPostgres.builder()
                .setDataDirectory(files.data())
                .setCleanDataDirectory(false)
                // Stopped by close() alone: the library's own shutdown hook would stop the server while the
                // controller's hook still releases its plan lock on it (seen: "plan lock lost" at SIGTERM).
                .setRegisterShutdownHook(false)
                .setOverrideWorkingDirectory(files.binaries().toFile())
                // The server is unpacked already (ServerArchive): the library is given its identity, not its
                // 14 MB archive, which it would read whole at every start.
                .setPgBinaryResolver(archive.resolver())
                .setLocaleConfig("locale", "C")
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("unix_socket_directories", "")
                .setServerConfig("password_encryption", "scram-sha-256")
                // The library starts the server with -F (fsync off); a store that keeps state needs it on:
                // a later -c wins.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("max_connections", "50")
                // The library checks that the server answers by logging in as the superuser.
                .setConnectConfig("password", password.reveal())
                .setDataDirectoryCustomizer(data -> {
                    try {
                        files.closeBinaries();
                        if (keepTemplate) {
                            // Right after initdb, before this state directory's authentication and password.
                            DataTemplate.keep(files.data(), unpacked);
                        }
                        files.writeAuthentication();
                        if (setPassword) {
                            ServerBinaries.in(unpacked, files.log()).setSuperuserPassword(files.data(), password);
                            files.keepPassword(password);
                            LOG.info("embedded store password set state={}", files.root());
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(files.log().toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(files.log().toFile()));
    }

    /**
     * @return where that database is: {@code 127.0.0.1}, this start's port, role {@code postgres}
     *     with the password kept in {@code <state>/password}
     */
    public Endpoint endpoint(Database database) {
        return admin.withDatabase(database.label());
    }

    /** @return what this start's migrations did, per database (nothing when all were up to date) */
    public List<MigrationReport> migrations() {
        return migrations;
    }

    /** @return the state directory */
    public Path state() {
        return state;
    }

    /**
     * Stops the server (fast shutdown: connections are ended, the data is kept) and frees the state
     * directory's lock.
     *
     * @throws StoreException when it cannot be stopped
     */
    @Override
    public void close() {
        try {
            try {
                server.close();
            } finally {
                lock.close();
            }
            LOG.info("embedded store stopped state={}", state);
        } catch (IOException e) {
            throw new StoreException("could not stop the embedded PostgreSQL under " + state + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedStore[" + state + ", " + admin.address() + "]";
    }

    private static Endpoint admin(EmbeddedPostgres server, Secret password) {
        return new Endpoint("127.0.0.1", server.getPort(), "postgres", USER, password);
    }

    /**
     * Creates the databases the server lacks and migrates the three at once, each on its own
     * connection: on a restart each is one query of its migration history; on a first start the
     * migrations of the three overlap.
     */
    private static List<MigrationReport> prepare(Path state, Endpoint admin) {
        List<String> existing = existing(state, admin);
        List<Future<MigrationReport>> started = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Database database : Database.values()) {
                started.add(threads.submit(() -> {
                    if (!existing.contains(database.label())) {
                        create(state, admin, database);
                    }
                    return Migrations.of(database, admin.withDatabase(database.label()).dataSource()).migrate();
                }));
            }
        }
        List<MigrationReport> reports = new ArrayList<>();
        for (Future<MigrationReport> report : started) {
            reports.add(done(report));
        }
        return reports;
    }

    /** The outcome of a finished task: its report, or what it threw. */
    private static MigrationReport done(Future<MigrationReport> report) {
        try {
            return report.resultNow();
        } catch (IllegalStateException failed) {
            Throwable cause = report.exceptionNow();
            if (cause instanceof RuntimeException e) {
                throw e;
            }
            if (cause instanceof Error e) {
                throw e;
            }
            throw new StoreException("could not prepare the embedded store's databases: " + cause, cause);
        }
    }

    /** The store's databases that the server has, read in one query. */
    private static List<String> existing(Path state, Endpoint admin) {
        List<String> labels = java.util.Arrays.stream(Database.values()).map(Database::label).toList();
        try {
            DSLContext db = DSL.using(admin.dataSource(), SQLDialect.POSTGRES);
            return db.select(field(name("datname"), String.class)).from(table(name("pg_catalog", "pg_database")))
                    .where(field(name("datname"), String.class).in(labels)).fetch().getValues(0, String.class);
        } catch (DataAccessException e) {
            throw Failure.of(Database.INVENTORY, admin, "list the databases of the embedded PostgreSQL under " + state, e);
        }
    }

    private static void create(Path state, Endpoint admin, Database database) {
        try {
            DSL.using(admin.dataSource(), SQLDialect.POSTGRES).createDatabase(name(database.label())).execute();
            LOG.info("embedded store created database={}", database);
        } catch (DataAccessException e) {
            throw Failure.of(database, admin, "create the database in the embedded PostgreSQL under " + state, e);
        }
    }

    private static String describe(Throwable e) {
        Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    /** The last lines of the server's output, which say why initdb or the server failed. */
    private static String tail(Path log) {
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = lines.subList(Math.max(0, lines.size() - 5), lines.size());
            String hint = last.stream().anyMatch(line -> line.contains("cannot be run as root"))
                    ? "; PostgreSQL refuses to run as root, and `unshare -U` (a user namespace) was not available to run "
                    + "it unprivileged: allow user namespaces, or run the controller as another user" : "";
            return "; the server's output (" + log + ") ends with: " + String.join(" | ", last) + hint;
        } catch (IOException | UncheckedIOException e) {
            return "; its output could not be read from " + log + " (" + e.getMessage() + ")";
        }
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
    public static Path binaries(Map<String, String> env, Path state) {
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
}
