package dev.mesh.controller.bench;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.system.HandoverMesh;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bundle's starts and memory, each beside its floor in the same run (docs/benchmarks.md, "The bundle
 * (issue 14)"): processes of the assembled bundle, one at a time, nothing else of ours running.
 *
 * <ul>
 * <li><b>floor</b>: the bundle's own runtime running a hello world ({@link HelloWorld}, from a directory of
 *     its own), process start to exit;</li>
 * <li><b>validate</b>: {@code mesh-controller validate manifest.json}, through the launcher script, start to
 *     exit (target: ≤ 3 × the floor);</li>
 * <li><b>serve</b>: {@code mesh-controller serve} on a prepared store (the three databases migrated by
 *     {@code prepare}, a virtual host of the run's own, the local NATS), from the process's start to the
 *     answer of a {@code status} sent over the broker as it starts (target: ≤ 1 s); then, after
 *     {@code --rest} seconds with nothing to do, its resident memory ({@code VmRSS}), and SIGTERM.</li>
 * </ul>
 *
 * <pre>java -cp benchmarks.jar dev.mesh.controller.bench.StartBench BUNDLE/mesh-controller MANIFEST [RUNS] [REST_S]</pre>
 */
public final class StartBench {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StartBench() {
    }

    /**
     * @param args the bundle's launcher, a manifest to validate, runs per figure (default 10), the rest
     *     before the memory is read (default 20 s)
     * @throws Exception when a run fails; the figures so far are printed
     */
    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args[0]).toAbsolutePath();
        Path manifest = Path.of(args[1]).toAbsolutePath();
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int rest = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        Path java = launcher.resolveSibling("runtime/bin/java");
        Path dir = Files.createTempDirectory("mesh-start-bench");
        Path hello = Files.createDirectories(dir.resolve("hello/dev/mesh/controller/bench"));
        try (InputStream in = StartBench.class.getResourceAsStream("HelloWorld.class")) {
            Files.write(hello.resolve("HelloWorld.class"), in.readAllBytes());
        }
        // One of each first, not counted: the files are in the page cache for every figure alike.
        exit(List.of(java.toString(), "-cp", dir.resolve("hello").toString(), "dev.mesh.controller.bench.HelloWorld"));
        exit(List.of(launcher.toString(), "validate", manifest.toString()));
        List<Double> floor = new ArrayList<>();
        List<Double> validate = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            floor.add(exit(List.of(java.toString(), "-cp", dir.resolve("hello").toString(),
                    "dev.mesh.controller.bench.HelloWorld")));
            validate.add(exit(List.of(launcher.toString(), "validate", manifest.toString())));
        }
        report("floor: the runtime's hello world, start to exit", floor);
        report("validate manifest.json, start to exit", validate);
        System.out.printf("validate / floor (medians): %.2f%n", median(validate) / median(floor));

        try (HandoverMesh mesh = HandoverMesh.create(launcher, dir)) {
            List<Double> serve = new ArrayList<>();
            List<Double> floorBeside = new ArrayList<>();
            long rss = 0;
            for (int i = 0; i < runs; i++) {
                floorBeside.add(exit(List.of(java.toString(), "-cp", dir.resolve("hello").toString(),
                        "dev.mesh.controller.bench.HelloWorld")));
                boolean last = i == runs - 1;
                long[] figures = serve(mesh, last ? rest : 0);
                serve.add(figures[0] / 1e6);
                rss = last ? figures[1] : rss;
            }
            report("floor (beside serve): the runtime's hello world", floorBeside);
            report("serve: process start to the first status answered over the broker", serve);
            System.out.printf("serve at rest (%d s after its first answer), VmRSS: %.1f MiB%n", rest, rss / 1024.0);
        }
    }

    /** @return nanoseconds from the start to the first answer, and the VmRSS in KiB after {@code rest} seconds */
    private static long[] serve(HandoverMesh mesh, int rest) throws Exception {
        Path err = mesh.dir().resolve("serve-" + System.nanoTime() + ".err");
        ProcessBuilder builder = new ProcessBuilder(mesh.bundle().toString(), "serve")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        mesh.environment(builder);
        builder.environment().remove("JAVA_HOME");
        try (BrokerUpstream caller = BrokerUpstream.connect(mesh.loopback().broker(), Duration.ofSeconds(60))) {
            long start = System.nanoTime();
            Process process = builder.start();
            try {
                JsonNode answer = caller.exchange(JSON.valueToTree(Map.of("jsonrpc", "2.0", "id", 1, "method",
                        "tools/call", "params", Map.of("name", "status", "arguments", Map.of())))).orElseThrow(
                                () -> new IllegalStateException("no answer to status: " + read(err)));
                long answered = System.nanoTime() - start;
                if (answer.path("result").path("isError").asBoolean() || !answer.has("result")) {
                    throw new IllegalStateException("status failed: " + answer + "\n" + read(err));
                }
                Thread.sleep(Duration.ofSeconds(rest));
                return new long[] {answered, Long.parseLong(MemoryBench.field(process.pid(), "VmRSS")
                        .replaceAll("[^0-9]", ""))};
            } finally {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    /** Runs the command to its exit, output discarded; fails unless it exits 0. @return milliseconds */
    private static double exit(List<String> command) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(command + " failed");
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static void report(String what, List<Double> millis) {
        List<Double> sorted = millis.stream().sorted().toList();
        System.out.printf("%s: median %.0f ms, min %.0f ms, max %.0f ms (%d runs)%n", what, median(millis),
                sorted.getFirst(), sorted.getLast(), millis.size());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
