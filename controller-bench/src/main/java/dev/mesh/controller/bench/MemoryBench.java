package dev.mesh.controller.bench;

import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.EmbeddedStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The development controller's resident memory at rest (docs/benchmarks.md, "Memory (issue 14)"): the
 * bundle's {@code serve --dev} on a state directory holding a mesh, left alone for {@code REST} seconds
 * after its ready line (its {@code status} is renewed every 5 s meanwhile: the whole mesh composed and
 * planned), then its {@code VmRSS} (with its anonymous and file-backed parts: the runtime's and the
 * cache's mapped files count in the latter) and {@code VmHWM} (the peak) read from {@code /proc}. The embedded
 * PostgreSQL's processes are apart and not counted.
 *
 * <ul>
 * <li>{@code example}: the example mesh, loaded by {@code --mesh examples/mesh.json} at the first start;</li>
 * <li>{@code N} (a number): the synthetic mesh of N nodes of the composition benchmarks (50 modules, 5 to
 *     10 a node), written into the stopped controller's embedded store in batches, then started again.</li>
 * </ul>
 *
 * <pre>java -cp benchmarks.jar dev.mesh.controller.bench.MemoryBench BUNDLE/mesh-controller example|N [REST_S]</pre>
 */
public final class MemoryBench {

    private MemoryBench() {
    }

    /**
     * @param args the bundle's launcher, {@code example} or a node count, the rest in seconds (default 60)
     * @throws Exception when a start fails
     */
    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args[0]).toAbsolutePath();
        String mesh = args[1];
        int rest = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        Path state = Files.createTempDirectory("mesh-memory-bench").resolve("state");
        Path examples = launcher.getParent().resolve("../../../examples/mesh.json").normalize();
        if (mesh.equals("example")) {
            stopped(start(launcher, state, List.of("--mesh", examples.toString())));
        } else {
            stopped(start(launcher, state, List.of()));
            int nodes = Integer.parseInt(mesh);
            long loading = System.nanoTime();
            try (EmbeddedStore store = EmbeddedStore.start(state)) {
                BenchStore.load(store.endpoint(Database.INVENTORY).dataSource(), SyntheticMesh.of(nodes),
                        SyntheticMesh::document);
            }
            System.out.printf("loaded %d nodes in %.1f s%n", nodes, (System.nanoTime() - loading) / 1e9);
        }
        Process serve = start(launcher, state, List.of());
        Thread.sleep(Duration.ofSeconds(rest));
        System.out.printf("serve --dev (%s) at rest, %d s after ready: VmRSS %s (RssAnon %s, RssFile %s), VmHWM %s%n",
                mesh, rest, field(serve.pid(), "VmRSS"), field(serve.pid(), "RssAnon"), field(serve.pid(), "RssFile"),
                field(serve.pid(), "VmHWM"));
        stopped(serve);
    }

    /** Starts {@code serve --dev} on the state directory and waits for its ready line. */
    private static Process start(Path launcher, Path state, List<String> extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "serve", "--dev", "--state",
                state.toString(), "--http", "127.0.0.1:0"));
        command.addAll(extra);
        Process process = new ProcessBuilder(command).redirectError(state.resolveSibling("serve.err").toFile())
                .start();
        process.getOutputStream().close();
        long start = System.nanoTime();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("mesh-controller ready:")) {
                System.out.printf("ready in %.1f s: %s%n", (System.nanoTime() - start) / 1e9, line);
                Thread.ofVirtual().start(() -> drain(out));
                return process;
            }
        }
        throw new IllegalStateException("serve --dev ended without its ready line; see "
                + state.resolveSibling("serve.err"));
    }

    /** Reads the rest of standard output, so that the process never blocks on a full pipe, until it ends. */
    private static void drain(BufferedReader out) {
        try {
            out.lines().forEach(ignored -> { });
        } catch (UncheckedIOException e) {
            // The process was stopped while its output was read: nothing more to read.
        }
    }

    private static void stopped(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("serve --dev did not stop within 60 s of SIGTERM");
        }
    }

    /** @return a field of the process's {@code /proc/PID/status}, as it reads there ({@code 139832 kB}) */
    static String field(long pid, String name) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        throw new IllegalStateException("no " + name + " for process " + pid);
    }
}
