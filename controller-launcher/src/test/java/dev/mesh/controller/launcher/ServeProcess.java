package dev.mesh.controller.launcher;

import dev.mesh.controller.testing.CommandRun;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The assembled bundle's {@code mesh-controller} run as a process of its own, as a user runs it
 * (the way {@link BundleIT} does): {@code serve --dev}, or the mesh's {@code serve} with an
 * environment of its own, started until its ready line, then stopped with SIGTERM
 * ({@link Process#destroy()}); or any command run to its exit. Standard output is read line by line
 * as it comes; standard error goes to a file, quoted in every failure message.
 */
final class ServeProcess implements AutoCloseable {

    static final Path BUNDLE = Path.of(System.getProperty("bundle.directory", "target/mesh-controller"));
    static final Path LAUNCHER = BUNDLE.resolve("mesh-controller");
    /** The embedded PostgreSQL's first start (initdb of three databases) is slow on a loaded machine. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    /** How long a mesh controller started here may take to be active, or to know the active one. */
    private static final String SETTLED_WITHIN = "30s";
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private static final Pattern READY = Pattern.compile("mesh-controller ready: (?<endpoint>http://127\\.0\\.0\\.1:"
            + "\\d+/mcp) \\(dev, state (?<state>.+), epoch (?<epoch>\\d+)\\)");
    /** The mesh's controller's, as {@code MeshController.readyLine} prints it. */
    private static final Pattern READY_MESH = Pattern.compile("mesh-controller ready: (?<instance>[^ ]+:\\d+) "
            + "(?<role>active|standby|releasing) \\(epoch (?<epoch>\\d+)\\)(, verbs also on (?<endpoint>\\S+))?");

    final Path state;
    final Process process;
    final List<String> out = new CopyOnWriteArrayList<>();
    private final String what;
    private final Pattern readyLine;
    private final Path err;
    private final CompletableFuture<Matcher> ready = new CompletableFuture<>();
    private final long startedNanos = System.nanoTime();
    private long readyNanos;

    private ServeProcess(Path state, String what, Pattern readyLine, Process process, Path err) {
        this.state = state;
        this.what = what;
        this.readyLine = readyLine;
        this.process = process;
        this.err = err;
        Thread.ofVirtual().name("serve-stdout").start(this::readOut);
    }

    /**
     * Starts {@code mesh-controller serve --dev --state STATE --http 127.0.0.1:0 EXTRA…} and waits
     * for its ready line.
     *
     * @param logs a directory for the process's standard error
     */
    static ServeProcess start(Path state, Path logs, String... extra) {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "serve", "--dev", "--state",
                state.toString(), "--http", "127.0.0.1:0"));
        command.addAll(List.of(extra));
        Path err = logs.resolve("serve-" + System.nanoTime() + ".err");
        ServeProcess serve = new ServeProcess(state, "serve --dev on " + state, READY,
                launch(command, err, ProcessBuilder.Redirect.PIPE, Map.of()), err);
        serve.awaitReady();
        return serve;
    }

    /**
     * Starts the mesh's controller, {@code mesh-controller serve EXTRA…} without {@code --dev}, with
     * {@code env} as the whole of its {@code MESH_*} environment (none inherited), and waits for its
     * ready line, {@code mesh-controller ready: HOST:PID ROLE (epoch N)}. The tests read the role from that
     * line, so unless {@code env} says otherwise the start waits up to {@value #SETTLED_WITHIN} to be active or to
     * know the active one ({@code MESH_HANDOVER_READY_WAIT}): the default 1.5 s is a host's, and a loaded test
     * machine has taken longer to activate, so that the line said {@code standby} for the only controller. (A
     * standby beside an active one waits for its warm-up up to that long: a test that starts one gives 1.5 s.)
     *
     * @param env the environment its manifest gives it: {@code MESH_STORE_*}, {@code MESH_BROKER_*},
     *     {@code MESH_BUS_NATS_FILE}
     * @param logs a directory for the process's standard error
     */
    static ServeProcess startMesh(Map<String, String> env, Path logs, String... extra) {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString(), "serve"));
        command.addAll(List.of(extra));
        Path err = logs.resolve("serve-mesh-" + System.nanoTime() + ".err");
        Map<String, String> settled = new HashMap<>(env);
        settled.putIfAbsent("MESH_HANDOVER_READY_WAIT", SETTLED_WITHIN);
        ServeProcess serve = new ServeProcess(null, "serve (the mesh's controller)", READY_MESH,
                launch(command, err, ProcessBuilder.Redirect.PIPE, settled), err);
        serve.awaitReady();
        return serve;
    }

    /**
     * Starts the mesh's controller as a host does: {@code command} in {@code directory} (the unpacked bundle),
     * with exactly {@code env} (nothing inherited), and waits for its ready line.
     *
     * @param logs a directory for the process's standard error
     */
    static ServeProcess startHosted(List<String> command, Path directory, Map<String, String> env, Path logs) {
        Path err = logs.resolve("serve-hosted-" + System.nanoTime() + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        ServeProcess serve = new ServeProcess(null, "serve (hosted: " + String.join(" ", command) + ")", READY_MESH,
                process, err);
        serve.awaitReady();
        return serve;
    }

    /** Runs the launcher with these arguments to its exit. */
    static CommandRun run(Path logs, String... args) {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        Path out = logs.resolve("run-" + System.nanoTime() + ".out");
        Path err = logs.resolve("run-" + System.nanoTime() + ".err");
        Process process = launch(command, err, ProcessBuilder.Redirect.to(out.toFile()), Map.of());
        int exit = waitFor(process, READY_TIMEOUT, command);
        return new CommandRun(exit, read(out), read(err));
    }

    private static Process launch(List<String> command, Path err, ProcessBuilder.Redirect out,
            Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out)
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MESH_CONTROLLER_JAVA_OPTS");
        if (!env.isEmpty()) {
            builder.environment().keySet().removeIf(name -> name.startsWith("MESH_"));
            builder.environment().putAll(env);
        }
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command + "; is the bundle assembled (mvn package)?", e);
        }
    }

    private void readOut() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                out.add(line);
                Matcher matcher = readyLine.matcher(line);
                if (matcher.matches()) {
                    readyNanos = System.nanoTime();
                    ready.complete(matcher);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("standard output ended without the ready line"));
    }

    private void awaitReady() {
        try {
            ready.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            String why = e instanceof TimeoutException ? "did not print its ready line within "
                    + READY_TIMEOUT.toSeconds() + " s" : "ended its output without the ready line";
            String exit = process.isAlive() ? "still running" : "exit code " + process.exitValue();
            close();
            throw new AssertionError(what + " " + why + " (" + exit + ");\nstdout:\n"
                    + String.join("\n", out) + "\nstderr:\n" + err(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    /** @return the endpoint of the ready line */
    URI endpoint() {
        return URI.create(ready.join().group("endpoint"));
    }

    /** @return the state directory of the ready line, as the controller prints it */
    String printedState() {
        return ready.join().group("state");
    }

    /** @return the fencing epoch of the ready line */
    long epoch() {
        return Long.parseLong(ready.join().group("epoch"));
    }

    /** @return the mesh's controller's instance of its ready line, {@code HOST:PID} */
    String instance() {
        return ready.join().group("instance");
    }

    /** @return the mesh's controller's role of its ready line */
    String role() {
        return ready.join().group("role");
    }

    /** @return the time from starting the process to its ready line */
    Duration startToReady() {
        ready.join();
        return Duration.ofNanos(readyNanos - startedNanos);
    }

    /** @return what the process wrote to standard error so far */
    String err() {
        return read(err);
    }

    /** @return whether the process still runs */
    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends SIGTERM and waits for the exit.
     *
     * @return the exit code
     */
    int stop() {
        process.destroy();
        return waitFor(process, STOP_TIMEOUT, List.of(what));
    }

    /** Stops the process if it still runs: SIGTERM, then SIGKILL after the stop timeout. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /**
     * @param state a state directory
     * @return the live processes whose executable lies under it: the embedded PostgreSQL's server
     *     and its workers
     */
    static List<ProcessHandle> postgresOf(Path state) {
        String prefix = state.toAbsolutePath().normalize() + "/";
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.startsWith(prefix)).orElse(false)
                        || p.info().commandLine().map(c -> c.contains(" -D " + prefix)).orElse(false))
                .toList();
    }

    private static int waitFor(Process process, Duration timeout, List<String> command) {
        try {
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("did not exit within " + timeout.toSeconds() + " s: " + command);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new AssertionError("interrupted while waiting for " + command, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
