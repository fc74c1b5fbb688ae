package dev.mesh.controller.system;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One mesh controller, {@code mesh-controller serve} from the bundle as a process of its own (so an
 * instance {@code host:pid} of its own), as the host launches it: the mesh's environment and nothing
 * else of ours, standard input {@code /dev/null}, standard error to a log file. Real signals reach it:
 * {@link #terminate()} SIGTERM, {@link #kill()} SIGKILL, {@link #freeze()} SIGSTOP, {@link #thaw()}
 * SIGCONT.
 */
final class ControllerProcess {

    /** The mesh's controller's ready line, as {@code MeshController.readyLine} prints it. */
    private static final Pattern READY = Pattern.compile("mesh-controller ready: (?<instance>[^ ]+:\\d+) "
            + "(?<role>active|standby|releasing) \\(epoch (?<epoch>\\d+)\\).*");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final String name;
    private final Process process;
    private final Path log;
    private final CompletableFuture<Matcher> ready = new CompletableFuture<>();

    private ControllerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread.ofVirtual().name(name + "-stdout").start(this::readOut);
    }

    /**
     * Starts a controller; does not wait for its ready line ({@link #awaitReady()} does), so that several
     * can be started at once.
     */
    static ControllerProcess launch(HandoverMesh mesh, String name) {
        Path log = mesh.dir().resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(List.of(mesh.bundle().toString(), "serve"))
                .redirectError(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        mesh.environment(builder);
        builder.environment().remove("MESH_CONTROLLER_JAVA_OPTS");
        try {
            return new ControllerProcess(name, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + mesh.bundle() + "; is the bundle assembled?", e);
        }
    }

    private void readOut() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                Matcher matcher = READY.matcher(line);
                if (matcher.matches()) {
                    ready.complete(matcher);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("standard output ended without the ready line"));
    }

    /** Waits for the ready line; fails with the log when it does not come. */
    ControllerProcess awaitReady() {
        try {
            ready.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return this;
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not become ready (" + e + "); its log:\n" + log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        }
    }

    String name() {
        return name;
    }

    /** @return its instance, {@code host:pid}, from the ready line */
    String instance() {
        return ready.join().group("instance");
    }

    /** @return the role its ready line said */
    String readyRole() {
        return ready.join().group("role");
    }

    long pid() {
        return process.pid();
    }

    /** @return the process, for a lab host to adopt as the container it stands for */
    Process process() {
        return process;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    void terminate() {
        signal("TERM");
    }

    void kill() {
        signal("KILL");
    }

    void freeze() {
        signal("STOP");
    }

    void thaw() {
        signal("CONT");
    }

    /**
     * Waits for the exit.
     *
     * @return the exit code, or -1 when it did not exit in time (then it is killed)
     */
    int awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return -1;
        }
    }

    /** Stops it, however it is: SIGCONT (a frozen process cannot stop), SIGTERM, then SIGKILL after 30 s. */
    void stop() {
        if (!process.isAlive()) {
            return;
        }
        thaw();
        terminate();
        awaitExit(Duration.ofSeconds(30));
    }

    /** @return what it wrote to standard error so far */
    String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                // The process may have exited meanwhile: only a live one that refuses is a problem.
                if (process.isAlive()) {
                    throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                            + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }

    @Override
    public String toString() {
        return name + (ready.isDone() && !ready.isCompletedExceptionally() ? " (" + instance() + ")" : "");
    }
}
