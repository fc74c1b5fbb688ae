package dev.mesh.controller.simhost;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The controller's bundles a lab builder hands out: the archive this build made
 * ({@code controller-launcher/target/mesh-controller.tar.zst}, or its {@code .tar.gz} where the build had no zstd:
 * {@link #built}), and the same raised to a new version, packed the same way —
 * its jars say that version ({@code Implementation-Version}, which the controller announces) and its
 * store carries one more inventory migration, an expand (a table of its own), as the next release
 * would. Its ahead-of-time class caches are trained again on the changed jars, as the build trains
 * them ({@code controller-launcher/src/build/bundle}: the bundle's own {@code training} command), since
 * a JVM uses a cache only with the jars it was made with.
 *
 * <p>Stateless.
 */
public final class LabBundles {

    private static final Pattern MIGRATION = Pattern.compile("V(\\d+)__.*\\.sql");

    private LabBundles() {
    }

    /**
     * @param target {@code controller-launcher/target} of a build
     * @return the bundle archive a host unpacks fastest there: the {@code .tar.zst}, else the {@code .tar.gz}
     */
    public static Path built(Path target) {
        Path zstd = target.resolve("mesh-controller.tar.zst");
        return Files.isRegularFile(zstd) ? zstd : target.resolve("mesh-controller.tar.gz");
    }

    /**
     * @param archive a bundle archive, as {@code src/build/bundle} makes it
     * @return it as a builder names it: its SHA-256 and its {@code file:} URI
     */
    public static Archive of(Path archive) {
        try {
            return new Archive(Archive.sha256(archive), archive.toUri().toString());
        } catch (IOException e) {
            throw new SimulationException("cannot read the bundle archive " + archive + ": " + e.getMessage()
                    + "; build it first (mvn -DskipTests package)", e);
        }
    }

    /**
     * Makes the bundle of {@code archive} raised to {@code version}, in {@code directory}.
     *
     * @param archive the bundle archive of this build
     * @param version the version its jars say, e.g. {@code 0.1.0-lab.2}; also names its migration
     * @param directory where the raised archive (and its unpacked tree) go
     * @param repository the project's checkout, whose {@code examples/} and
     *     {@code controller-launcher/src/build/serve-classes} the caches' training takes
     * @param trainCaches whether its ahead-of-time caches are trained again, as a release's are; without, the
     *     raised bundle has none (its JVMs start without one, a second or so slower), and raising it costs the
     *     unpacking and packing alone, not the training's runs of the controller (CI's upgrade test)
     * @return the raised archive, as a builder names it
     * @throws SimulationException when the archive cannot be unpacked, changed, trained or packed again
     */
    public static Archive raised(Path archive, String version, Path directory, Path repository, boolean trainCaches) {
        String tag = version.replaceAll("[^A-Za-z0-9]", "_").toLowerCase(java.util.Locale.ROOT);
        Path tree = directory.resolve("bundle-" + tag);
        try {
            Trees.delete(tree);
            Files.createDirectories(tree);
            // GNU tar finds the compression (gzip or zstd) from the archive's content.
            tar(List.of("tar", "-xf", archive.toString(), "-C", tree.toString()));
            Path lib = tree.resolve("mesh-controller/lib");
            List<String> trained = new ArrayList<>();
            try (Stream<Path> caches = Files.list(lib)) {
                for (Path cache : caches.filter(p -> p.toString().endsWith(".aot")).toList()) {
                    trained.add(cache.getFileName().toString().replace(".aot", ""));
                    Files.delete(cache);
                }
            }
            for (Path jar : jars(lib)) {
                String name = jar.getFileName().toString();
                if (name.startsWith("controller-")) {
                    rewrite(jar, version, name.startsWith("controller-store-") ? tag : null);
                }
            }
            for (String workload : trainCaches ? trained : List.<String>of()) {
                if (!workload.equals("validate")) {
                    train(tree.resolve("mesh-controller"), workload, repository, directory);
                }
            }
            boolean zstd = archive.getFileName().toString().endsWith(".tar.zst");
            Path raised = directory.resolve("mesh-controller-" + tag + (zstd ? ".tar.zst" : ".tar.gz"));
            tar(List.of("tar", zstd ? "--use-compress-program=zstd -q -6 -T0" : "--gzip", "-cf", raised.toString(),
                    "-C", tree.toString(), "mesh-controller"));
            return of(raised);
        } catch (IOException e) {
            throw new SimulationException("cannot raise the bundle " + archive + " to " + version + ": "
                    + e.getMessage(), e);
        }
    }

    /** Trains the bundle's cache for {@code workload} ({@code cli} or {@code serve}) as its build does. */
    private static void train(Path bundle, String workload, Path repository, Path directory) throws IOException {
        Path cache = bundle.resolve("lib/" + workload + ".aot");
        Path log = directory.resolve("training-" + workload + ".log");
        ProcessBuilder training = new ProcessBuilder(bundle.resolve("mesh-controller").toString(), "training",
                "--workload", workload, "--examples", repository.resolve("examples").toString(), "--classes",
                repository.resolve("controller-launcher/src/build/serve-classes").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        training.environment().remove("JAVA_HOME");
        training.environment().put("MESH_CONTROLLER_AOT", "off");
        training.environment().put("MESH_CONTROLLER_JAVA_OPTS", "-XX:AOTCacheOutput=" + cache + " -Xlog:aot=error");
        try {
            Process process = training.start();
            if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0 || !Files.exists(cache)) {
                process.destroyForcibly();
                throw new IOException("the " + workload + " training of the raised bundle failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while training the raised bundle", e);
        }
    }

    private static List<Path> jars(Path lib) throws IOException {
        try (Stream<Path> files = Files.list(lib)) {
            return files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** Writes the jar again with its manifest at {@code version}, and, for the store, one more migration. */
    private static void rewrite(Path jar, String version, String migrationTag) throws IOException {
        Path changed = jar.resolveSibling(jar.getFileName() + ".new");
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            Manifest manifest = in.getManifest() == null ? new Manifest() : in.getManifest();
            manifest.getMainAttributes().putIfAbsent(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(changed), manifest)) {
                List<String> migrations = null;
                for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                    byte[] bytes = in.readAllBytes();
                    if (migrationTag != null && entry.getName().equals("db/inventory.migrations")) {
                        migrations = new ArrayList<>(new String(bytes, StandardCharsets.UTF_8).lines()
                                .filter(line -> !line.isBlank()).toList());
                        continue;
                    }
                    put(out, entry.getName(), bytes);
                }
                if (migrationTag != null) {
                    if (migrations == null) {
                        throw new IOException(jar + " holds no db/inventory.migrations");
                    }
                    int next = migrations.stream().map(MIGRATION::matcher).filter(Matcher::matches)
                            .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElse(0) + 1;
                    String script = "V" + next + "__lab_" + migrationTag + ".sql";
                    put(out, "db/inventory/" + script, ("-- The lab's raised bundle: one expand, as the next release's.\n"
                            + "CREATE TABLE lab_" + migrationTag + " (id integer);\n").getBytes(StandardCharsets.UTF_8));
                    migrations.add(script);
                    put(out, "db/inventory.migrations", (String.join("\n", migrations) + "\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        Files.move(changed, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    private static void tar(List<String> command) throws IOException {
        Process tar = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream output = tar.getInputStream(); OutputStream sink = OutputStream.nullOutputStream()) {
            output.transferTo(sink);
            if (!tar.waitFor(120, TimeUnit.SECONDS) || tar.exitValue() != 0) {
                tar.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }
}
