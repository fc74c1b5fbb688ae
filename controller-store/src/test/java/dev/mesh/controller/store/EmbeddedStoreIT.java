package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Secret;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@link EmbeddedStore}: its own PostgreSQL under a state directory, as root too (this machine's CI runs as root). */
class EmbeddedStoreIT {

    @TempDir
    Path state;

    @Test
    void start_createsAndMigratesTheDatabases_andASecondStartGoesOnWhereTheFirstStopped() {
        try (EmbeddedStore store = EmbeddedStore.start(state)) {
            assertThat(store.migrations()).extracting(MigrationReport::text).containsExactly(
                    "inventory: migrated from empty to version 6 (applied 1 inventory, 2 node facts, 3 deliveries, "
                    + "4 handovers, 5 built artifacts, 6 schema floor)",
                    "identity: migrated from empty to version 2 (applied 1 identity, 2 schema floor)",
                    "licences: migrated from empty to version 2 (applied 1 licences, 2 schema floor)");
            assertThat(store.endpoint(Database.INVENTORY).toString())
                    .matches("Endpoint\\[postgresql://postgres@127\\.0\\.0\\.1:\\d+/inventory, password=\\*\\*\\*]");
            new PgInventory(store.endpoint(Database.INVENTORY).dataSource())
                    .report(new Node("alpha", "10.0.0.1", "debian-12"));
        }
        assertThat(state.resolve("postgres").resolve("PG_VERSION")).content().isEqualToIgnoringNewLines("15");

        try (EmbeddedStore again = EmbeddedStore.start(state)) {
            assertThat(again.migrations()).extracting(MigrationReport::text).containsExactly(
                    "inventory: already up to date at version 6",
                    "identity: already up to date at version 2",
                    "licences: already up to date at version 2");
            assertThat(new PgInventory(again.endpoint(Database.INVENTORY).dataSource()).nodes())
                    .containsExactly(new Node("alpha", "10.0.0.1", "debian-12"));
            for (Database database : Database.values()) {
                Migrations.of(database, again.endpoint(database).dataSource()).requireUpToDate();
            }
        }
        assertThat(Files.exists(state.resolve("postgres").resolve("postmaster.pid"))).as("stopped").isFalse();
    }

    /**
     * What one start makes of a new state directory, each read from the same running store: every start
     * costs an {@code initdb} and the server's unpacking (about ten seconds on a loaded CI machine).
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class OneStart {

        private Path state;
        private EmbeddedStore store;

        @BeforeAll
        void start(@TempDir Path directory) {
            state = directory;
            store = EmbeddedStore.start(state);
        }

        @AfterAll
        void stop() {
            store.close();
        }

        @Test
        void runsTheServerWithFsyncOn_thoughTheLibraryStartsItWithFsyncOff() {
            DSLContext db = DSL.using(store.endpoint(Database.INVENTORY).dataSource(), SQLDialect.POSTGRES);
            for (String setting : new String[] {"fsync", "synchronous_commit"}) {
                assertThat(db.fetchValue(DSL.function(DSL.name("current_setting"), String.class, DSL.inline(setting))))
                        .as(setting).isEqualTo("on");
            }
        }

        @Test
        void refusesEveryLoginWithoutThePassword_theSuperusersToo() throws IOException {
            Endpoint right = store.endpoint(Database.INVENTORY);
            assertThat(right.password().reveal()).isEqualTo(Files.readString(state.resolve("password")).strip())
                    .hasSize(32);

            refused(right.withPassword(Secret.NONE));
            refused(right.withPassword(Secret.of("not-the-password")));
            refused(right.withDatabase("postgres").withPassword(Secret.NONE));
            assertThat(new PgInventory(right.dataSource()).nodes()).isEmpty();
            assertThat(Files.readString(state.resolve("postgres").resolve("pg_hba.conf")))
                    .contains("host all all 127.0.0.1/32 scram-sha-256").doesNotContain("trust\n")
                    .doesNotContain(right.password().reveal());
            assertThat(Files.readString(state.resolve("postgres.log"))).doesNotContain(right.password().reveal());
        }

        @Test
        void makesTheStateDirectoryOwnerOnly() throws IOException {
            assertThat(store.state()).isEqualTo(state.toAbsolutePath());
            assertThat(mode(state)).isEqualTo("rwx------");
            assertThat(mode(state.resolve("postgres"))).isEqualTo("rwx------");
            assertThat(mode(state.resolve("postgres-binaries"))).isEqualTo("rwx------");
            assertThat(mode(state.resolve("postgres.log"))).isEqualTo("rw-------");
            assertThat(mode(state.resolve("password"))).isEqualTo("rw-------");
        }
    }

    @Test
    void start_onAStateDirectoryOfAnEarlierVersion_setsAPassword_andClosesItsFiles() throws IOException {
        // What versions before the password left: trust for the superuser, no password, open binaries.
        try (EmbeddedPostgres earlier = EmbeddedPostgres.builder().setDataDirectory(state.resolve("postgres"))
                .setCleanDataDirectory(false).setOverrideWorkingDirectory(state.resolve("postgres-binaries").toFile())
                .setServerConfig("listen_addresses", "127.0.0.1").setServerConfig("unix_socket_directories", "")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(state.resolve("postgres.log").toFile()))
                .start()) {
            assertThat(earlier.getPort()).isPositive();
        }
        Files.setPosixFilePermissions(state.resolve("postgres-binaries"), PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(state.resolve("postgres.log"), PosixFilePermissions.fromString("rw-rw-rw-"));

        try (EmbeddedStore store = EmbeddedStore.start(state)) {
            refused(store.endpoint(Database.INVENTORY).withPassword(Secret.NONE));
            assertThat(new PgInventory(store.endpoint(Database.INVENTORY).dataSource()).nodes()).isEmpty();
            assertThat(mode(state.resolve("postgres-binaries"))).isEqualTo("rwx------");
            assertThat(mode(state.resolve("postgres.log"))).isEqualTo("rw-------");
        }
        try (EmbeddedStore again = EmbeddedStore.start(state)) {
            assertThat(new PgInventory(again.endpoint(Database.INVENTORY).dataSource()).nodes()).isEmpty();
        }
    }

    private static void refused(Endpoint endpoint) {
        assertThatThrownBy(() -> new PgInventory(endpoint.dataSource()).nodes())
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("the server refused the login (authentication failed)")
                .hasMessageContaining("check the user and password in MESH_STORE_INVENTORY_FILE");
    }

    /**
     * Two state directories sharing where the server is unpacked: the first start unpacks it there (ServerArchive,
     * never the library: no lock file of its in the server's directory), the second finds it (nothing unpacked in
     * its state directory, the same {@code PG-<id>} directory, unchanged), and the shared directory is kept
     * owner-only. The first start's initdb is kept as a template beside the server, which the second copies
     * instead of running initdb; each has its own password all the same.
     */
    @Test
    void start_withSharedBinaries_unpacksTheServerOnce_forEveryStateDirectory() throws IOException {
        Path shared = state.resolve("cache/postgres");
        Path first = state.resolve("first");
        Path second = state.resolve("second");
        try (EmbeddedStore store = EmbeddedStore.start(first, shared)) {
            new PgInventory(store.endpoint(Database.INVENTORY).dataSource())
                    .report(new Node("alpha", "10.0.0.1", "debian-12"));
        }
        Path unpacked = shared.resolve(ServerArchive.onClassPath().directoryName());
        Path template = DataTemplate.of(unpacked);
        try (var entries = Files.list(shared)) {
            assertThat(entries).containsExactlyInAnyOrder(unpacked, template, shared.resolve(".unpack.lock"));
        }
        assertThat(unpacked.resolve("bin/postgres")).isExecutable();
        assertThat(unpacked.resolve("epg-lock")).as("the library never unpacked").doesNotExist();
        long unpackedAt = Files.getLastModifiedTime(unpacked.resolve("bin/postgres")).toMillis();

        try (EmbeddedStore store = EmbeddedStore.start(second, shared)) {
            assertThat(store.migrations()).extracting(MigrationReport::text)
                    .contains("inventory: migrated from empty to version 6 (applied 1 inventory, 2 node facts, "
                            + "3 deliveries, 4 handovers, 5 built artifacts, 6 schema floor)");
            assertThat(new PgInventory(store.endpoint(Database.INVENTORY).dataSource()).nodes()).isEmpty();
        }
        try (var entries = Files.list(shared)) {
            assertThat(entries).containsExactlyInAnyOrder(unpacked, template, shared.resolve(".unpack.lock"));
        }
        assertThat(unpacked.resolve("epg-lock")).as("the library never unpacked").doesNotExist();
        assertThat(template.resolve("PG_VERSION")).content().isEqualToIgnoringNewLines("15");
        assertThat(template.resolve("pg_hba.conf")).content()
                .as("the template is initdb's, before a state directory's authentication")
                .containsPattern("(?m)^(local|host).*trust$");
        String initdbSays = "The files belonging to this database system will be owned by";
        assertThat(first.resolve("postgres.log")).content().contains(initdbSays);
        assertThat(second.resolve("postgres.log")).content().doesNotContain(initdbSays);
        assertThat(second.resolve("postgres/pg_hba.conf")).content()
                .containsPattern("(?m)^host all all 127.0.0.1/32 scram-sha-256$")
                .doesNotContainPattern("(?m)^(local|host).*trust$");
        assertThat(second.resolve("password")).content().isNotEqualTo(Files.readString(first.resolve("password")));
        assertThat(Files.getLastModifiedTime(unpacked.resolve("bin/postgres")).toMillis()).isEqualTo(unpackedAt);
        assertThat(first.resolve(EmbeddedStore.BINARIES)).doesNotExist();
        assertThat(second.resolve(EmbeddedStore.BINARIES)).doesNotExist();
        assertThat(mode(shared)).isEqualTo("rwx------");
    }

    /** A shared directory of another user's is refused, naming it and its owner, before anything starts. */
    @Test
    void start_withSharedBinariesOfAnotherUser_isRefused() throws IOException {
        Path shared = Files.createDirectories(state.resolve("cache/postgres"));
        Files.setOwner(shared, shared.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));

        assertThatThrownBy(() -> EmbeddedStore.start(state.resolve("state"), shared))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(shared + " belongs to nobody, not to " + System.getProperty("user.name"))
                .hasMessageContaining("the server's directory " + shared);
        assertThat(state.resolve("state/postgres")).doesNotExist();
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
