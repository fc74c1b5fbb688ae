package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

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

    @TempDir
    Path dir;

    @Test
    void bundle_holdsExecutableLauncherAndJars() throws IOException {
        assertThat(Files.getPosixFilePermissions(LAUNCHER)).contains(
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        try (var jars = Files.list(BUNDLE.resolve("lib"))) {
            assertThat(jars.map(jar -> jar.getFileName().toString()))
                    .anyMatch(name -> name.startsWith("controller-launcher-"))
                    .anyMatch(name -> name.startsWith("controller-manifest-"))
                    .anyMatch(name -> name.startsWith("picocli-"))
                    .allMatch(name -> name.endsWith(".jar"));
        }
    }

    @Test
    void archive_holdsTheBundleUnderMeshControllerDirectory() throws IOException, InterruptedException {
        Path archive = BUNDLE.resolveSibling("mesh-controller.tar.gz");
        List<String> expected;
        try (var files = Files.walk(BUNDLE)) {
            expected = files.filter(Files::isRegularFile)
                    .map(file -> "mesh-controller/" + BUNDLE.relativize(file))
                    .sorted()
                    .toList();
        }

        Run run = run(List.of("tar", "-tzf", archive.toString()), System.getenv());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().lines().filter(entry -> !entry.endsWith("/")).sorted().toList()).isEqualTo(expected);
    }

    @Test
    void launcher_withJavaHome21_validatesFile_exits0() throws IOException, InterruptedException {
        Path file = validManifest();

        Run run = run(List.of(LAUNCHER.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(file + ": valid\n1 file, 0 invalid, 0 problems\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void launcher_genesis_copiesTheArchiveBesideTheBundleDirectory_withoutBundleOption() throws Exception {
        Path out = dir.resolve("genesis");
        Path archive = BUNDLE.toAbsolutePath().normalize().resolveSibling("mesh-controller.tar.gz");

        Run run = run(List.of(LAUNCHER.toString(), "genesis", "--mesh", "../examples/mesh.json", "--out",
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

        Run run = run(List.of(relative.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "PATH", pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
    }

    @Test
    void launcher_passesJavaOptsToJava() throws IOException, InterruptedException {
        Path file = validManifest();

        Run run = run(List.of(LAUNCHER.toString(), "validate", file.toString()),
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

        Run run = run(List.of(LAUNCHER.toString(), "validate", file.toString()),
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

        Run run = run(List.of(launcher.toString(), "validate", file.toString()),
                Map.of("JAVA_HOME", JAVA_17.toString(),
                        "PATH", JAVA_17.resolve("bin") + File.pathSeparator + pathWithoutJava()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
    }

    @Test
    void launcher_withNoJavaAtAll_saysWhatItTried_exits127() throws IOException, InterruptedException {
        Run run = run(List.of(LAUNCHER.toString(), "validate", validManifest().toString()),
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

        Run run = run(List.of(LAUNCHER.toString(), "validate", validManifest().toString()),
                Map.of("PATH", pathWithoutJava(), "MESH_CONTROLLER_JVM_DIRS", jvms.toString()));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("1 file, 0 invalid, 0 problems\n");
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

    private Run run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command))
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
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private record Run(int exitCode, String out, String err) {
    }
}
