package dev.mesh.controller.bench;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parse + validate of every example manifest ({@link Manifest#parse(byte[], String)}) against the
 * floor of Jackson's plain {@code readTree} of the same bytes, in the same run. One operation is
 * the whole batch of documents; the score is microseconds per batch.
 *
 * <p>The documents are read once, at setup. Which ones: the {@code examples} parameter
 * ({@code -p examples=PATHS}), else the {@code mesh.examples} system property, else
 * {@code examples/modules/*.json} and {@code manifest.json} of the repository root found by walking
 * up from the working directory. {@code PATHS} is a list of files and directories separated by
 * the platform's path separator; a directory stands for the {@code *.json} files directly in it.
 * Every document must be a valid manifest: setup fails on the first that is not.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(2)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 3)
public class ManifestParseBenchmark {

    /** Files and directories to load; empty for the {@code mesh.examples} property or the repository's examples. */
    @Param("")
    public String examples;

    private final ObjectMapper mapper = JsonMapper.builder().build();
    private String[] names;
    private byte[][] documents;

    /** Loads every document once and checks that each one parses. */
    @Setup(Level.Trial)
    public void load() {
        List<Path> files = Corpus.files(examples);
        names = new String[files.size()];
        documents = new byte[files.size()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = files.get(i).toString();
            documents[i] = read(files.get(i));
            try {
                Manifest.parse(documents[i], names[i]);
            } catch (ManifestException e) {
                throw new IllegalStateException("benchmark corpus holds an invalid manifest; fix it or leave it out"
                        + " with -p examples=PATHS: " + e.getMessage(), e);
            }
        }
    }

    /** The floor: Jackson builds a tree of each document and checks nothing. */
    @Benchmark
    public void readTree(Blackhole blackhole) {
        for (byte[] document : documents) {
            blackhole.consume(mapper.readTree(document));
        }
    }

    /** The parser: every document parsed and checked against every rule. */
    @Benchmark
    public void parseAndValidate(Blackhole blackhole) {
        for (int i = 0; i < documents.length; i++) {
            blackhole.consume(Manifest.parse(documents[i], names[i]));
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read benchmark document " + file, e);
        }
    }

    /** Finds the documents of the batch. */
    static final class Corpus {

        private Corpus() {
        }

        static List<Path> files(String paths) {
            String given = paths.isBlank() ? System.getProperty("mesh.examples", "") : paths;
            List<Path> roots = given.isBlank() ? repositoryExamples() : split(given);
            List<Path> files = new ArrayList<>();
            for (Path root : roots) {
                files.addAll(jsonFiles(root));
            }
            if (files.isEmpty()) {
                throw new IllegalStateException("no manifests to benchmark in " + roots
                        + "; give files or directories with -p examples=PATHS or -Dmesh.examples=PATHS");
            }
            return files;
        }

        private static List<Path> split(String given) {
            List<Path> roots = new ArrayList<>();
            for (String part : given.split(java.io.File.pathSeparator)) {
                if (!part.isBlank()) {
                    roots.add(Path.of(part.strip()).toAbsolutePath().normalize());
                }
            }
            return roots;
        }

        private static List<Path> repositoryExamples() {
            Path start = Path.of("").toAbsolutePath();
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path modules = dir.resolve("examples").resolve("modules");
                if (Files.isDirectory(modules)) {
                    Path manifest = dir.resolve("manifest.json");
                    return Files.isRegularFile(manifest) ? List.of(modules, manifest) : List.of(modules);
                }
            }
            throw new IllegalStateException("no examples/modules directory in " + start + " or above; run from the"
                    + " repository or give files or directories with -p examples=PATHS");
        }

        private static List<Path> jsonFiles(Path root) {
            if (Files.isRegularFile(root)) {
                return List.of(root);
            }
            if (!Files.isDirectory(root)) {
                throw new IllegalStateException("benchmark path " + root + " is neither a file nor a directory");
            }
            try (Stream<Path> children = Files.list(root)) {
                return children.filter(p -> p.getFileName().toString().endsWith(".json"))
                        .filter(Files::isRegularFile)
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list benchmark directory " + root, e);
            }
        }
    }
}
