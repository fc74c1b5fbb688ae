package dev.mesh.controller.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One of the repository's scripts that make a test cluster on this machine — {@code bin/clusters/postgresql} (a
 * primary and its streaming standby), {@code bin/clusters/rabbitmq} (three nodes), {@code bin/clusters/nats}
 * (three servers) — run by a test to make, break and mend it. A call that fails fails the test with the command
 * and what the script printed, so that a developer can run the same line by hand.
 */
public final class ClusterScript {

    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final Path script;

    private ClusterScript(Path script) {
        this.script = script;
    }

    /**
     * @param name the script's name under {@code bin/clusters}
     * @return the script, found from the working directory (a module's, when Maven runs the test) upwards
     * @throws IllegalStateException when no directory above holds it
     */
    public static ClusterScript named(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("bin").resolve("clusters").resolve(name);
            if (Files.isExecutable(candidate)) {
                return new ClusterScript(candidate);
            }
        }
        throw new IllegalStateException("bin/clusters/" + name + " not found above " + Path.of("").toAbsolutePath()
                + "; run the tests from the repository (bin/dev test)");
    }

    /**
     * Runs the script and waits for it.
     *
     * @param arguments the subcommand and its arguments, e.g. {@code "kill", "a"}
     * @return what it printed on standard output, without the last line break
     * @throws IllegalStateException when it exits with another status than 0, or runs longer than 3 minutes
     */
    public String run(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(
                    new File("/dev/null"))).start();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " ran longer than " + TIMEOUT.toMinutes()
                        + " minutes; it printed: " + err.join());
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue()
                        + "; it printed: " + err.join().strip());
            }
            return out.join().strip();
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /**
     * Starts the script and does not wait for it: for a {@code down} at the end of a test class, which takes seconds
     * that no test needs to wait for (the scripts take one command that changes a cluster at a time, so a later
     * {@code up} waits for it). What it prints goes to a file in the temporary directory, named in the test's output.
     *
     * @param arguments the subcommand and its arguments
     */
    public void launch(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(script.toString());
        command.addAll(List.of(arguments));
        try {
            File log = File.createTempFile("mesh-cluster-" + script.getFileName() + "-", ".log");
            new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(log).start();
            System.out.println("started " + String.join(" ", command) + " in the background; its output: " + log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", command), e);
        }
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return script.toString();
    }
}
