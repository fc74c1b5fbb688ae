package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab host's real processes, with real processes and real signals: a small shell program as the
 * artifact, packed into archives of two versions. Each instance appends what it does to one journal
 * ({@code start 2}, {@code ready 2}, {@code stop 1} …), so the order of a restart is read off it.
 */
class RealProcessesIT {

    private static final Duration CHECK = Duration.ofMillis(100);
    private static final String PROGRAM = """
            #!/bin/sh
            version=$(cat "$(dirname "$0")/VERSION")
            set -- "$1" $(cat /proc/$$/stat)
            echo "session $version ${1:-run} pid=$2 sid=$7 nice=$(sed 's/.* nice //' /proc/$$/autogroup)" >> "$JOURNAL"
            if [ "$1" = prepare ]; then
              echo "prepare $version" >> "$JOURNAL"
              exit "${PREPARE_EXIT:-0}"
            fi
            echo "start $version" >> "$JOURNAL"
            trap 'echo "stop $version" >> "$JOURNAL"; exit 0' TERM
            if [ -n "$FAIL_AT_START" ]; then echo "cannot start: $FAIL_AT_START"; exit 3; fi
            sleep 0.3
            echo "ready $version" >> "$JOURNAL"
            echo ready > "$MESH_READY_FILE"
            while true; do sleep 0.05; done
            """;

    @TempDir
    Path lab;
    private Path journal;
    private RealProcesses real;

    @BeforeEach
    void open() {
        journal = lab.resolve("journal");
        real = new RealProcesses(new RealRun(Set.of("app"), lab.resolve("home"), Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofSeconds(10)), CHECK);
    }

    @AfterEach
    void close() {
        real.close();
    }

    /** An archive of the program at {@code version}, as a build would make it: {@code app/run}, {@code app/VERSION}. */
    private Archive archive(String version) throws IOException, InterruptedException {
        return archive(version, "--gzip", ".tar.gz");
    }

    /** The same, compressed by tar's {@code compression} option, e.g. {@code --zstd}. */
    private Archive archive(String version, String compression, String suffix) throws IOException, InterruptedException {
        Path tree = Files.createDirectories(lab.resolve("tree-" + version).resolve("app"));
        Path program = tree.resolve("run");
        Files.writeString(program, PROGRAM);
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(tree.resolve("VERSION"), version);
        Path archive = lab.resolve("app-" + version + suffix);
        Process tar = new ProcessBuilder("tar", compression, "-cf", archive.toString(), "-C", tree.getParent().toString(),
                "app")
                .inheritIO().start();
        assertThat(tar.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        return new Archive(Archive.sha256(archive), archive.toUri().toString());
    }

    private Wire.Process process(String version, Archive archive, boolean overlap, Map<String, String> env,
            List<String> replaces) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("JOURNAL", journal.toString());
        return new Wire.Process("app", "app", new Wire.Artifact("app", version, "app", archive.sha256(),
                archive.location()), List.of("./run"), all, "", overlap, replaces,
                new Wire.Preparation(List.of("./run", "prepare"), "", all));
    }

    private List<String> journal() throws IOException {
        return Files.exists(journal) ? Files.readAllLines(journal, StandardCharsets.UTF_8) : List.of();
    }

    private Wire.Step apply(Wire.Process process) {
        List<Wire.Step> steps = real.apply("n1", List.of(process));
        assertThat(steps).hasSize(1);
        return steps.getFirst();
    }

    @Test
    void overlap_startsTheNewBesideTheOld_andStopsTheOldOnceTheNewIsReady() throws Exception {
        assertThat(apply(process("1", archive("1"), true, Map.of(), List.of())).status()).isEqualTo("done");

        Wire.Step step = apply(process("2", archive("2"), true, Map.of(), List.of()));

        assertThat(step.status()).as(step.detail()).isEqualTo("done");
        assertThat(step.detail()).isEqualTo("version 2 ready; version 1 stopped after it");
        List<String> lines = journal();
        assertThat(lines).containsSubsequence("prepare 2", "start 2", "ready 2", "stop 1");
        assertThat(lines.indexOf("ready 2")).as("no moment without one ready").isLessThan(lines.indexOf("stop 1"));
        assertThat(real.exits()).singleElement().satisfies(exit -> assertThat(exit).isEqualTo(
                new RealProcesses.Exit("app", "1", 0, false, exit.signalledNanos())));
        assertThat(real.versions()).containsExactly(Map.entry("app", "2"));
        assertThat(lab.resolve("home/versions/app")).isDirectoryContaining(path -> path.getFileName().toString()
                .startsWith("1-")).isDirectoryContaining(path -> path.getFileName().toString().startsWith("2-"));
    }

    /** setsid makes the session and execs in place: the pid the host signals is the program's own. */
    @Test
    void theProgramAndItsPreparation_runEachInASessionOfTheirOwn() throws Exception {
        apply(process("1", archive("1"), true, Map.of(), List.of()));
        apply(process("2", archive("2"), true, Map.of(), List.of()));

        List<String> sessions = journal().stream().filter(line -> line.startsWith("session ")).toList();
        assertThat(sessions).hasSize(4).allSatisfy(line -> {
            String[] words = line.split(" ");
            assertThat(words[4]).as(line).isEqualTo(words[3].replace("pid=", "sid="));
        });
        String labSession = Files.readString(Path.of("/proc/self/stat")).split(" ")[5];
        assertThat(sessions).noneMatch(line -> line.contains(" sid=" + labSession + " "));
        assertThat(journal()).as("SIGTERM reached the program itself").contains("stop 1");
    }

    /**
     * A new version's preparation and start run with a low CPU weight (their session's autogroup at nice 10), so
     * that the version that serves keeps its share while the new one starts; once ready, the process gets the
     * normal weight, and the lab's own session is never touched.
     */
    @Test
    void aNewVersion_preparesAndStartsInTheBackground_andGetsTheNormalWeightOnceReady() throws Exception {
        Path own = Path.of("/proc/self/autogroup");
        assertThat(own).as("this test needs Linux's autogroup (CONFIG_SCHED_AUTOGROUP)").exists();
        // Empty when the lab runs in no session of its own (the kernel's default group, as under a CI runner).
        String ownBefore = Files.readString(own);

        assertThat(apply(process("1", archive("1"), true, Map.of(), List.of())).status()).isEqualTo("done");

        List<String> sessions = journal().stream().filter(line -> line.startsWith("session 1 ")).toList();
        assertThat(sessions).as("the preparation, then the process, each at its start").hasSize(2)
                .allSatisfy(line -> assertThat(line).endsWith(" nice=" + RealProcesses.BACKGROUND_NICE));
        String pid = sessions.getLast().split(" ")[3].substring("pid=".length());
        assertThat(Files.readString(Path.of("/proc", pid, "autogroup"))).as("the process, ready").endsWith(" nice 0\n");
        assertThat(Files.readString(own)).as("the lab's own session, untouched").isEqualTo(ownBefore)
                .doesNotContain(" nice " + RealProcesses.BACKGROUND_NICE);
    }

    @Test
    void withoutOverlap_theOldStopsBeforeTheNewStarts() throws Exception {
        apply(process("1", archive("1"), false, Map.of(), List.of()));

        Wire.Step step = apply(process("2", archive("2"), false, Map.of(), List.of()));

        assertThat(step.status()).as(step.detail()).isEqualTo("done");
        // Done once the new one is started: its own first line may come a moment later.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(journal())
                .as("prepared while the old one runs").containsSubsequence("start 1", "prepare 2", "stop 1", "start 2"));
        assertThat(journal().indexOf("stop 1")).isLessThan(journal().indexOf("start 2"));
    }

    /** The bundle's archive for hosts is Zstandard-compressed; a plain tar is unpacked too. */
    @Test
    void zstandardAndPlainArchives_areUnpackedToo() throws Exception {
        assertThat(apply(process("1", archive("1", "--zstd", ".tar.zst"), true, Map.of(), List.of())).status())
                .isEqualTo("done");
        assertThat(apply(process("2", archive("2", "--no-auto-compress", ".tar"), true, Map.of(), List.of())).status())
                .isEqualTo("done");

        assertThat(journal()).containsSubsequence("start 1", "ready 1", "start 2", "ready 2", "stop 1");
        assertThat(real.versions()).containsExactly(Map.entry("app", "2"));
    }

    @Test
    void anArchiveWhoseDigestDiffers_isRefused_andTheOldKeepsRunning() throws Exception {
        apply(process("1", archive("1"), true, Map.of(), List.of()));
        Archive two = archive("2");
        Archive forged = new Archive(Archive.sha256("something else".getBytes(StandardCharsets.UTF_8)), two.location());

        Wire.Step step = apply(process("2", forged, true, Map.of(), List.of()));

        assertThat(step.status()).isEqualTo("failed");
        assertThat(step.detail()).isEqualTo("the archive at " + two.location() + " has sha256 " + two.sha256()
                + ", and the declaration pins " + forged.sha256() + ": refused, nothing of it runs");
        assertThat(journal()).doesNotContain("prepare 2", "start 2", "stop 1");
        assertThat(real.versions()).containsExactly(Map.entry("app", "1"));
        try (Stream<Path> unpacked = Files.list(lab.resolve("home/versions/app"))) {
            assertThat(unpacked.map(path -> path.getFileName().toString()))
                    .as("the refused archive was unpacked as it arrived: nothing of it is left")
                    .filteredOn(name -> !name.endsWith(".log")).singleElement().asString().startsWith("1-");
        }
        assertThat(real.states(java.time.Instant.now())).singleElement()
                .satisfies(state -> assertThat(state.state()).isEqualTo("running"));
    }

    @Test
    void aNewVersionThatCannotStart_isFailed_andTheOldKeepsRunning() throws Exception {
        apply(process("1", archive("1"), true, Map.of(), List.of()));

        Wire.Step step = apply(process("2", archive("2"), true, Map.of("FAIL_AT_START", "a bad environment"),
                List.of()));

        assertThat(step.status()).isEqualTo("failed");
        assertThat(step.detail()).isEqualTo("version 2 of process app exited with 3 before it was ready: cannot start: "
                + "a bad environment");
        assertThat(journal()).contains("start 2").doesNotContain("stop 1");
        assertThat(real.exits()).isEmpty();
        assertThat(real.versions()).containsExactly(Map.entry("app", "1"));
    }

    @Test
    void aPreparationThatFails_startsNothing() throws Exception {
        apply(process("1", archive("1"), true, Map.of(), List.of()));

        Wire.Step step = apply(process("2", archive("2"), true, Map.of("PREPARE_EXIT", "4"), List.of()));

        assertThat(step.status()).isEqualTo("failed");
        assertThat(step.detail()).startsWith("the preparation of process app (./run prepare) exited with 4");
        assertThat(journal()).contains("prepare 2").doesNotContain("start 2", "stop 1");
    }

    @Test
    void aProcessThatReplacesAContainer_stopsItOnceReadyAcrossTwoChecks() throws Exception {
        Process container = new ProcessBuilder("sleep", "600").start();
        real.adopt("server", container);

        Wire.Step step = apply(process("1", archive("1"), true, Map.of(), List.of("server")));

        assertThat(step.detail()).isEqualTo("version 1 ready; container server stopped");
        assertThat(container.isAlive()).isFalse();
        assertThat(real.exits()).extracting(RealProcesses.Exit::name).containsExactly("server");
        assertThat(real.states(java.time.Instant.now())).singleElement()
                .satisfies(state -> assertThat(state.checks()).isGreaterThanOrEqualTo(2));
    }

    @Test
    void theSameDeclarationAgain_isUnchanged_andAProcessNoLongerDeclaredIsStopped() throws Exception {
        Wire.Process one = process("1", archive("1"), true, Map.of(), List.of());
        apply(one);

        assertThat(apply(one).detail()).isEqualTo("unchanged");
        assertThat(real.apply("n1", new ArrayList<>())).isEmpty();

        assertThat(journal()).containsSubsequence("start 1", "stop 1");
        assertThat(real.versions()).isEmpty();
    }
}
