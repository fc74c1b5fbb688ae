package dev.mesh.controller.simhost;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes a lab host runs for real ({@link RealRun}), as a host of the wire contract must:
 * the archive the declaration's artifact names is got from its {@code location} and refused when its
 * SHA-256 is not the one pinned; it is unpacked into a directory of its own per version; the
 * preparation runs first; a restart with {@code overlap} starts the new process beside the old one,
 * waits until it is ready and then stops the old one, any other restart stops the old one first; a
 * process that {@code replaces} a container stops that container once it has stayed ready across two
 * checks; a stop is SIGTERM, then a wait for the exit (SIGKILL only past the stop timeout).
 *
 * <p>Each process and each preparation runs in a session of its own ({@code setsid}, which execs it in
 * place: its pid is the one signalled), as a service manager gives each service a group of its own: a
 * Ctrl-C at the lab's terminal reaches the lab, which stops them in order, not every process at once;
 * and where the kernel groups by session (Linux's autogroup), the cores are shared between processes,
 * not threads, so that a new JVM starting its many threads beside the active controller slows it less.
 *
 * <p>What a new version costs before it serves runs in the background, as a host's background work
 * should: the archive's digest and unpacking (in processes of their own, not in the host's), its
 * preparation, and the new process until it is ready, each with a low CPU weight (its session's
 * autogroup at nice {@value #BACKGROUND_NICE}), raised to the normal weight once the process is ready.
 * With two cores, a version that serves and a version that starts beside it, the one that serves keeps
 * its share (docs/upgrade.md, "What a host does").
 *
 * <p>A process is told where to say it is ready: {@code MESH_READY_FILE}, a file it writes when it
 * serves (the controller's {@code serve} does once it consumes its queues). One restarted with overlap
 * must write it; any other is also ready once it has stayed alive for a check interval.
 *
 * <p>{@link #apply} runs on one thread at a time (the host's applier); {@link #states} and the
 * accessors may be called from any thread.
 */
final class RealProcesses implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RealProcesses.class);
    private static final Duration POLL = Duration.ofMillis(20);
    /** What starts a command in a session of its own, or nothing where the system has no setsid. */
    private static final List<String> OWN_SESSION = ownSession();
    /** The autogroup nice of a session in the background: a CPU weight of about a tenth of a normal one. */
    static final int BACKGROUND_NICE = 10;
    /** Run by sh in the new session before it execs the command: the session's CPU weight lowered. */
    private static final String IN_BACKGROUND = "echo " + BACKGROUND_NICE + " > /proc/self/autogroup 2>/dev/null; "
            + "exec \"$0\" \"$@\"";
    /**
     * Digests and unpacks the archive on standard input in one read: tee hands every byte to tar and, through a
     * named pipe, to sha256sum, and goes on feeding the digest when tar stops reading ({@code -p}), so that the
     * digest is the whole archive's whatever tar thought of it. Exits with tar's status, 3 when the digest
     * failed. $1 the named pipe, $2 the digest's file, $3 the directory, $4 tar's compression option or nothing.
     */
    private static final String UNPACK = """
            mkfifo "$1" || exit 3
            sha256sum < "$1" > "$2" & digest=$!
            tee -p "$1" | tar -x $4 -f - -C "$3"
            unpacked=$?
            wait "$digest" || unpacked=3
            rm -f "$1"
            exit "$unpacked"
            """;

    /** One process this host started, and when it became ready (null until then). */
    private static final class Running {
        private final Wire.Process declared;
        private final Process process;
        private final Path ready;
        private final Path log;
        private final Instant started;
        private volatile Instant readyAt;

        private Running(Wire.Process declared, Process process, Path ready, Path log, Instant started) {
            this.declared = declared;
            this.process = process;
            this.ready = ready;
            this.log = log;
            this.started = started;
        }
    }

    /**
     * How a process this host stopped ended.
     *
     * @param name the process name
     * @param version the version of its artifact
     * @param exitCode its exit code ({@code 143} and the like when a signal ended it)
     * @param killed whether it had to be killed after the stop timeout
     * @param signalledNanos when SIGTERM was sent, {@link System#nanoTime()}
     */
    record Exit(String name, String version, int exitCode, boolean killed, long signalledNanos) {
    }

    /** Why a process could not be applied: the step's detail. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        private Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final RealRun settings;
    private final Duration checkInterval;
    private final Clock clock = Clock.systemUTC();
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /** Every process started, by pid, the new one beside an old one too; those that exited go at the next start. */
    private final Map<Long, Running> started = new ConcurrentHashMap<>();
    private final Map<String, Process> containers = new ConcurrentHashMap<>();
    private final List<Exit> exits = new CopyOnWriteArrayList<>();
    private final AtomicLong starts = new AtomicLong();
    private final Map<String, Map<String, Long>> timings = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    RealProcesses(RealRun settings, Duration checkInterval) {
        this.settings = settings;
        this.checkInterval = checkInterval;
    }

    /** Makes a process the lab started stand for the container of that name, which a process may replace. */
    void adopt(String container, Process process) {
        containers.put(container, process);
    }

    /** @return how the processes this host stopped ended, in order */
    List<Exit> exits() {
        return List.copyOf(exits);
    }

    /** @return the process id of each running process, by process name */
    Map<String, Long> pids() {
        Map<String, Long> pids = new java.util.TreeMap<>();
        running.forEach((name, one) -> pids.put(name, one.process.pid()));
        return pids;
    }

    /**
     * @return the version each process this host started and that is alive runs, by pid: also a new one started
     *     beside an old one, from its start, before {@link #versions} names it (once the old one exited)
     */
    Map<Long, String> liveVersions() {
        Map<Long, String> live = new java.util.TreeMap<>();
        started.forEach((pid, one) -> {
            if (one.process.isAlive()) {
                live.put(pid, one.declared.artifact().version());
            }
        });
        return live;
    }

    /** @return where the time of each process's last start went, by process name, phases in order, ms */
    Map<String, Map<String, Long>> timings() {
        return Map.copyOf(timings);
    }

    /** @return the version each running process runs, by process name */
    Map<String, String> versions() {
        Map<String, String> versions = new java.util.TreeMap<>();
        running.forEach((name, one) -> versions.put(name, one.declared.artifact().version()));
        return versions;
    }

    /**
     * Applies the real processes of a declaration: each one the same as it runs is left alone, each
     * other one is started or restarted, and each one running that is no longer declared is stopped.
     *
     * @param node the host's node, for the steps' ids
     * @param declared the declaration's processes of the real modules
     * @return one step per declared process: done, or failed with why (the process it would have
     *     replaced keeps running)
     */
    List<Wire.Step> apply(String node, List<Wire.Process> declared) {
        List<Wire.Step> steps = new ArrayList<>();
        for (Wire.Process process : declared) {
            String id = node + "/process:" + process.name();
            try {
                steps.add(new Wire.Step(id, "done", applyOne(process)));
            } catch (Refused e) {
                LOG.warn("real process not applied node={} process={} version={} reason={}", node, process.name(),
                        process.artifact().version(), e.getMessage());
                steps.add(new Wire.Step(id, "failed", e.getMessage()));
            }
        }
        for (String name : List.copyOf(running.keySet())) {
            if (declared.stream().noneMatch(p -> p.name().equals(name))) {
                stop(running.remove(name));
            }
        }
        return steps;
    }

    private String applyOne(Wire.Process process) throws Refused {
        Running now = running.get(process.name());
        if (now != null && now.declared.equals(process) && now.process.isAlive()) {
            return "unchanged";
        }
        Map<String, Long> phases = new java.util.LinkedHashMap<>();
        long at = System.nanoTime();
        Path directory = unpacked(process, phases);
        at = System.nanoTime();
        if (process.prepare() != null) {
            prepare(process, directory);
            at = phase(phases, "prepare", at);
        }
        boolean old = now != null && now.process.isAlive();
        if (old && !process.overlap()) {
            stop(now);
            at = phase(phases, "old stopped", at);
        }
        Running next = start(process, directory);
        awaitReady(next);
        at = phase(phases, "ready", at);
        String detail = "version " + process.artifact().version() + " ready";
        if (old && process.overlap()) {
            stop(now);
            phase(phases, "old stopped", at);
            detail += "; version " + now.declared.artifact().version() + " stopped after it";
        }
        timings.put(process.name(), Map.copyOf(phases));
        running.put(process.name(), next);
        for (String container : process.replaces()) {
            Process replaced = containers.get(container);
            if (replaced != null && replaced.isAlive()) {
                awaitChecks(next, 2);
                stopContainer(container, replaced);
                detail += "; container " + container + " stopped";
            }
        }
        return detail;
    }

    /** Records how long a phase took, from {@code since}; returns now. */
    private static long phase(Map<String, Long> phases, String name, long since) {
        long now = System.nanoTime();
        phases.put(name, TimeUnit.NANOSECONDS.toMillis(now - since));
        return now;
    }

    /**
     * The directory the artifact's archive is unpacked in: unless it is there, the archive is got and unpacked in
     * one read (tar and sha256sum are handed the same bytes as they arrive), into a directory that becomes the
     * version's only once the digest is the one pinned; nothing of an archive refused is kept, and nothing of it
     * runs before the check.
     */
    private Path unpacked(Wire.Process process, Map<String, Long> phases) throws Refused {
        Wire.Artifact artifact = process.artifact();
        if (artifact.sha256() == null || artifact.location() == null) {
            throw new Refused("the declaration pins no archive for process " + process.name() + " (no sha256 or "
                    + "location): a host runs only an archive whose digest its declaration pins");
        }
        Path versions = settings.home().resolve("versions").resolve(artifact.module());
        Path directory = versions.resolve(artifact.version() + "-" + artifact.sha256().substring(0, 12));
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(versions);
                Path partial = versions.resolve(directory.getFileName() + ".partial");
                Trees.delete(partial);
                Files.createDirectories(partial);
                long at = System.nanoTime();
                try {
                    fetchInto(artifact, partial, versions.resolve(directory.getFileName() + ".unpack.log"));
                } catch (Refused | IOException e) {
                    Trees.delete(partial);
                    throw e;
                }
                Files.move(partial, directory, StandardCopyOption.ATOMIC_MOVE);
                phase(phases, "fetch and unpack", at);
            }
            try (Stream<Path> entries = Files.list(directory)) {
                List<Path> all = entries.toList();
                return all.size() == 1 && Files.isDirectory(all.getFirst()) ? all.getFirst() : directory;
            }
        } catch (IOException e) {
            throw new Refused("the archive of process " + process.name() + " could not be unpacked into " + directory
                    + ": " + e.getMessage());
        }
    }

    /**
     * Gets the archive and unpacks it into {@code partial} as it arrives, refusing it when its SHA-256 is not the
     * one pinned or tar fails. The digest and the unpacking run in a session of their own in the background
     * ({@link #UNPACK}); the host only hands them the archive: a local file as their standard input, anything
     * else copied to it as it arrives.
     */
    private void fetchInto(Wire.Artifact artifact, Path partial, Path log) throws Refused, IOException {
        URI location = URI.create(artifact.location());
        String what = "unpacking the archive at " + location;
        Path digest = partial.resolveSibling(partial.getFileName() + ".sha256");
        Path pipe = partial.resolveSibling(partial.getFileName() + ".pipe");
        Files.deleteIfExists(digest);
        Files.deleteIfExists(pipe);
        try (InputStream in = new BufferedInputStream(open(location), 1 << 16)) {
            ProcessBuilder unpack = builder(List.of("/bin/sh", "-c", UNPACK, "unpack", pipe.toString(),
                    digest.toString(), partial.toString(), compression(in, location)), null, Map.of(), log, true);
            boolean local = "file".equals(location.getScheme());
            Process unpacking = unpack.redirectInput(local ? ProcessBuilder.Redirect.from(Path.of(location).toFile())
                    : ProcessBuilder.Redirect.PIPE).start();
            try {
                if (!local) {
                    try (OutputStream out = unpacking.getOutputStream()) {
                        in.transferTo(out);
                    }
                }
                if (!unpacking.waitFor(settings.prepareTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new Refused(what + " did not end within " + settings.prepareTimeout().toSeconds() + " s");
                }
            } finally {
                unpacking.destroyForcibly();
            }
            String found = Files.exists(digest) ? Files.readString(digest, StandardCharsets.US_ASCII).strip()
                    .split(" ", 2)[0] : "";
            if (unpacking.exitValue() == 3 || found.isEmpty()) {
                throw new Refused(what + ": its SHA-256 could not be computed" + lastLine(log));
            }
            if (!found.equals(artifact.sha256())) {
                throw new Refused("the archive at " + location + " has sha256 " + found + ", and the declaration pins "
                        + artifact.sha256() + ": refused, nothing of it runs");
            }
            if (unpacking.exitValue() != 0) {
                throw new Refused(what + ": tar exited with " + unpacking.exitValue() + lastLine(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused(what + " was interrupted");
        } finally {
            Files.deleteIfExists(digest);
            Files.deleteIfExists(pipe);
        }
    }

    /**
     * How the archive is compressed, from its first bytes (read ahead, not consumed): {@code -z} for gzip,
     * {@code --zstd} for Zstandard, and none for a plain tar. The name of its location is not trusted
     * for it: the digest, not the name, says what the archive is.
     */
    private static String compression(InputStream in, URI location) throws IOException {
        in.mark(4);
        byte[] magic = in.readNBytes(4);
        in.reset();
        if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
            return "-z";
        }
        if (magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5 && (magic[2] & 0xff) == 0x2f
                && (magic[3] & 0xff) == 0xfd) {
            return "--zstd";
        }
        LOG.debug("archive neither gzip nor zstd, unpacked as a plain tar location={}", location);
        return "--no-auto-compress";
    }

    private InputStream open(URI location) throws Refused, IOException {
        switch (location.getScheme() == null ? "" : location.getScheme()) {
            case "file" -> {
                return Files.newInputStream(Path.of(location));
            }
            case "http", "https" -> {
                try {
                    HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(location).GET().build(),
                            HttpResponse.BodyHandlers.ofInputStream());
                    if (response.statusCode() != 200) {
                        response.body().close();
                        throw new Refused("getting the archive at " + location + " answered " + response.statusCode());
                    }
                    return response.body();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Refused("interrupted while getting the archive at " + location);
                }
            }
            default -> throw new Refused("the archive's location " + location + " is neither file: nor http(s):");
        }
    }

    private void prepare(Wire.Process process, Path directory) throws Refused {
        Wire.Preparation prepare = process.prepare();
        Path log = logFile(process, "prepare");
        run(command(prepare.user(), prepare.run(), process.name()), directory, prepare.env(), settings.prepareTimeout(),
                log, "the preparation of process " + process.name() + " (" + String.join(" ", prepare.run()) + ")");
    }

    private Running start(Wire.Process process, Path directory) throws Refused {
        Path ready = settings.home().resolve("ready").resolve(process.name() + "-" + starts.incrementAndGet());
        Path log = logFile(process, "run");
        try {
            Files.createDirectories(ready.getParent());
            Accounts.grant(process.user(), ready.getParent());
            Files.deleteIfExists(ready);
            ProcessBuilder builder = builder(command(process.user(), process.run(), process.name()), directory,
                    process.env(), log, true);
            builder.environment().put("MESH_READY_FILE", ready.toString());
            Process launched = builder.start();
            LOG.info("real process started process={} version={} pid={} directory={}", process.name(),
                    process.artifact().version(), launched.pid(), directory);
            Running one = new Running(process, launched, ready, log, clock.instant());
            started.values().removeIf(earlier -> !earlier.process.isAlive());
            started.put(launched.pid(), one);
            return one;
        } catch (IOException e) {
            throw new Refused("process " + process.name() + " could not be started in " + directory + ": "
                    + e.getMessage());
        }
    }

    /** Waits until the process is ready; kills it and refuses when it exits first or takes too long. */
    private void awaitReady(Running next) throws Refused {
        long deadline = System.nanoTime() + settings.readyTimeout().toNanos();
        while (true) {
            if (Files.exists(next.ready) || !next.declared.overlap() && next.process.isAlive()
                    && Duration.between(next.started, clock.instant()).compareTo(checkInterval) >= 0) {
                next.readyAt = clock.instant();
                foreground(next);
                return;
            }
            if (!next.process.isAlive()) {
                throw new Refused("version " + next.declared.artifact().version() + " of process "
                        + next.declared.name() + " exited with " + next.process.exitValue() + " before it was ready"
                        + lastLine(next.log));
            }
            if (System.nanoTime() > deadline) {
                stop(next);
                throw new Refused("version " + next.declared.artifact().version() + " of process "
                        + next.declared.name() + " was not ready within " + settings.readyTimeout().toSeconds()
                        + " s, and was stopped" + lastLine(next.log));
            }
            pause();
        }
    }

    /** Gives a process that is ready the normal CPU weight (see {@link #BACKGROUND_NICE}). */
    private static void foreground(Running one) {
        if (OWN_SESSION.isEmpty()) {
            return;
        }
        try {
            Files.writeString(Path.of("/proc", Long.toString(one.process.pid()), "autogroup"), "0");
        } catch (IOException e) {
            LOG.debug("process left at its start's CPU weight process={} reason=\"{}\"", one.declared.name(),
                    e.toString());
        }
    }

    private void awaitChecks(Running one, int checks) {
        Instant due = one.readyAt.plus(checkInterval.multipliedBy(checks));
        while (clock.instant().isBefore(due) && one.process.isAlive()) {
            pause();
        }
    }

    /** Stops a process with SIGTERM and waits for its exit; kills it past the stop timeout. */
    private void stop(Running one) {
        if (one == null) {
            return;
        }
        Exit exit = terminate(one.process, one.declared.name(), one.declared.artifact().version());
        LOG.info("real process stopped process={} version={} exitCode={} killed={}", exit.name(), exit.version(),
                exit.exitCode(), exit.killed());
    }

    private void stopContainer(String name, Process container) {
        Exit exit = terminate(container, name, "container");
        containers.remove(name);
        LOG.info("replaced container stopped container={} exitCode={} killed={}", name, exit.exitCode(), exit.killed());
    }

    private Exit terminate(Process process, String name, String version) {
        boolean killed = false;
        long signalled = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(settings.stopTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                killed = true;
                process.waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Exit exit = new Exit(name, version, process.isAlive() ? -1 : process.exitValue(), killed, signalled);
        exits.add(exit);
        return exit;
    }

    /**
     * @return the real processes' states for the host's facts: {@code starting} until ready, then
     *     {@code running} with a check per check interval since; {@code stopped} or {@code failed} once exited
     */
    List<HostProcess> states(Instant now) {
        List<HostProcess> states = new ArrayList<>();
        for (Running one : running.values()) {
            Instant ready = one.readyAt;
            String state = !one.process.isAlive() ? (one.process.exitValue() == 0 ? "stopped" : "failed")
                    : ready == null ? "starting" : "running";
            int checks = state.equals("running")
                    ? (int) Math.min(Integer.MAX_VALUE, Duration.between(ready, now).toNanos() / checkInterval.toNanos())
                    : 0;
            states.add(new HostProcess(one.declared.name(), state, ready == null ? one.started : ready, checks));
        }
        return states;
    }

    /** @return whether a process of that name runs for real here */
    boolean has(String name) {
        return running.containsKey(name);
    }

    /** Stops every process it started and every container it adopted. */
    @Override
    public void close() {
        running.values().forEach(this::stop);
        running.clear();
        containers.forEach(this::stopContainer);
    }

    private List<String> command(String user, List<String> run, String process) throws Refused {
        if (run.isEmpty()) {
            throw new Refused("process " + process + " declares nothing to run");
        }
        try {
            return Accounts.as(user, run, process);
        } catch (IllegalArgumentException e) {
            throw new Refused(e.getMessage());
        }
    }

    /**
     * A command in a session of its own, its output appended to {@code log}, with nothing of the lab's
     * environment but {@code PATH} and {@code LANG}.
     *
     * @param background whether the session starts with a low CPU weight ({@link #BACKGROUND_NICE})
     */
    private ProcessBuilder builder(List<String> command, Path directory, Map<String, String> env, Path log,
            boolean background) {
        List<String> inSession = new ArrayList<>(OWN_SESSION);
        if (background && !OWN_SESSION.isEmpty()) {
            inSession.addAll(List.of("/bin/sh", "-c", IN_BACKGROUND));
        }
        inSession.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(inSession);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Map<String, String> environment = builder.environment();
        environment.clear();
        environment.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin"));
        environment.put("LANG", "C.UTF-8");
        environment.putAll(env);
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return builder;
    }

    /**
     * @return {@code setsid} (util-linux) from the usual places: it makes a session and execs the command
     *     without a fork, since a child of this JVM leads no process group; nothing where it is missing
     */
    private static List<String> ownSession() {
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return List.of(candidate);
            }
        }
        LOG.warn("real processes share the lab's session reason=\"no setsid in /usr/bin or /bin\"");
        return List.of();
    }

    /** Runs a command to its end; refuses when it fails or takes too long. */
    private void run(List<String> command, Path directory, Map<String, String> env, Duration timeout, Path log,
            String what) throws Refused {
        try {
            Files.createDirectories(log.getParent());
            Process process = builder(command, directory, env, log, true).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new Refused(what + " did not end within " + timeout.toSeconds() + " s" + lastLine(log));
            }
            if (process.exitValue() != 0) {
                throw new Refused(what + " exited with " + process.exitValue() + lastLine(log));
            }
        } catch (IOException e) {
            throw new Refused(what + " could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused(what + " was interrupted");
        }
    }

    private Path logFile(Wire.Process process, String what) {
        Path logs = settings.home().resolve("logs");
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new SimulationException("the lab host cannot create " + logs + ": " + e.getMessage(), e);
        }
        return logs.resolve(process.name() + "-" + process.artifact().version() + "-" + what + "-"
                + starts.incrementAndGet() + ".log");
    }

    /** @return {@code ": LAST LINE"} of a log, for a step's detail; empty when there is none */
    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                    .toList();
            return lines.isEmpty() ? "" : ": " + lines.getLast().strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
