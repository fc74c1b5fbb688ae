package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Node;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One controller per state directory: a controller killed with {@code kill -9} leaves its
 * PostgreSQL running, and the next start stops it and starts at once; a live controller on the same
 * directory is refused, by its pid. The first controller runs in a process of its own
 * ({@link EmbeddedStoreHolder}).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmbeddedStoreLockIT {

    /**
     * The server unpacked once for the class, and its first {@code initdb} kept as the template the later
     * starts copy: what this class tests is the state directory's lock, not the unpacking.
     */
    @TempDir
    static Path binaries;

    @TempDir
    Path state;

    private final List<Process> holders = new ArrayList<>();

    @AfterEach
    void stopHolders() throws InterruptedException {
        for (Process holder : holders) {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void start_afterTheControllerWasKilled_stopsTheServerItLeft_andStartsTheFirstTime() throws Exception {
        Process holder = holder();
        long orphan = postmasterPid();
        assertThat(ProcessHandle.of(orphan)).as("the holder's server runs").get().matches(ProcessHandle::isAlive);

        holder.destroyForcibly(); // SIGKILL on Linux: no shutdown hook runs, the server stays
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(orphan)).as("the server outlived its controller").get()
                .matches(ProcessHandle::isAlive);

        try (EmbeddedStore store = EmbeddedStore.start(state, binaries)) {
            assertThat(ProcessHandle.of(orphan).filter(ProcessHandle::isAlive)).as("the orphan was stopped").isEmpty();
            assertThat(new PgInventory(store.endpoint(Database.INVENTORY).dataSource()).nodes())
                    .containsExactly(new Node("alpha", "10.0.0.1", "debian-12"));
        }
    }

    @Test
    void start_whileAnotherControllerRunsOnTheDirectory_isRefused_namingItsPid() throws Exception {
        Process holder = holder();

        assertThatThrownBy(() -> EmbeddedStore.start(state, binaries))
                .isInstanceOf(StoreException.class)
                .hasMessage("another controller is running (pid " + holder.pid() + ") on the state directory "
                        + state.toAbsolutePath() + "; stop it first, or give this one another state directory (--state)");
        assertThat(holder.isAlive()).isTrue();

        holder.getOutputStream().close(); // the holder closes its store and ends
        assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
        try (EmbeddedStore store = EmbeddedStore.start(state, binaries)) {
            assertThat(new PgInventory(store.endpoint(Database.INVENTORY).dataSource()).nodes()).hasSize(1);
        }
    }

    @Test
    void start_twiceInOneProcess_isRefused_andTheLockIsOwnerOnly() throws IOException {
        try (EmbeddedStore store = EmbeddedStore.start(state, binaries)) {
            assertThatThrownBy(() -> EmbeddedStore.start(state, binaries))
                    .isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("another controller is running (pid " + ProcessHandle.current().pid() + ")");
            assertThat(Files.readString(state.resolve("controller.lock")))
                    .isEqualTo(ProcessHandle.current().pid() + "\n");
            assertThat(PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(state.resolve("controller.lock")))).isEqualTo("rw-------");
            assertThat(new PgInventory(store.endpoint(Database.INVENTORY).dataSource()).nodes()).isEmpty();
        }
    }

    /** Starts a controller on the state directory in another JVM and waits until its store is open. */
    private Process holder() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                EmbeddedStoreHolder.class.getName(), state.toString(), binaries.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        holders.add(holder);
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("ready")) {
            // what the holder prints before it is ready is of no interest
        }
        assertThat(line).as("the holder started its store (see its output above)").isEqualTo("ready");
        return holder;
    }

    private long postmasterPid() throws IOException {
        return Long.parseLong(Files.readAllLines(state.resolve("postgres").resolve("postmaster.pid")).get(0).strip());
    }
}
