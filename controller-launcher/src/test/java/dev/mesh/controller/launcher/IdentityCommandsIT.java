package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code grant}, {@code revoke} and {@code principals} against the real PostgreSQL server
 * (127.0.0.1:5432 as {@code postgres}, or {@code MESH_TEST_PG_*}), on a fresh identity database
 * for each test, with {@code MESH_STORE_IDENTITY_FILE} and {@code _PORT} the only environment.
 */
class IdentityCommandsIT {

    private static final String VERBS = "tools, status, nodes, node, modules, seats, builds, plan, assign, unassign, "
            + "push, build";

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    @TempDir
    Path dir;

    private Map<String, String> env;

    @BeforeEach
    void migratedIdentityDatabase() throws IOException {
        env = environment(databases.migrated(Database.IDENTITY));
    }

    @Test
    void grantTwice_printsTheChangeOnce_thenAlready_andPrincipalsListsIt() {
        CommandRun first = Cli.run(env, "grant", "n1", "status", "assign");
        CommandRun second = Cli.run(env, "grant", "n1", "assign", "status", "status");
        CommandRun principals = Cli.run(env, "principals");

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.lines()).containsExactly("added principal n1", "granted n1 status", "granted n1 assign");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.lines()).containsExactly("already granted n1 assign", "already granted n1 status");
        assertThat(principals.exitCode()).as(principals.err()).isZero();
        assertThat(principals.lines()).containsExactly(
                "PRINCIPAL  STATE     VERBS",
                "n1         enabled   assign, status");
        assertThat(first.err() + second.err() + principals.err()).isEmpty();
    }

    @Test
    void revoke_removesTheVerbsNamed_thenWithoutVerbsEveryOne_idempotently() {
        Cli.run(env, "grant", "n1", "status", "assign", "push");
        Cli.run(env, "grant", "builder", "build");

        assertThat(Cli.run(env, "revoke", "n1", "push", "build").lines()).containsExactly("revoked n1 push",
                "not granted n1 build");
        assertThat(Cli.run(env, "revoke", "n1", "push").lines()).containsExactly("not granted n1 push");
        assertThat(Cli.run(env, "revoke", "n1").lines()).containsExactly("revoked n1 assign", "revoked n1 status");
        assertThat(Cli.run(env, "revoke", "n1").lines()).containsExactly("no grant to revoke from n1");
        assertThat(Cli.run(env, "revoke", "n2", "status").lines()).containsExactly("unknown principal n2; nothing to "
                + "revoke (did you mean \"n1\"?)");
        assertThat(Cli.run(env, "principals").lines()).containsExactly(
                "PRINCIPAL  STATE     VERBS",
                "builder    enabled   build",
                "n1         enabled   -");
    }

    @Test
    void principals_none_saysHowToAddOne() {
        CommandRun run = Cli.run(env, "principals");

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).containsExactly("No principals: grant a verb with mesh-controller grant PRINCIPAL VERB…");
    }

    @Test
    void grant_unknownVerbs_refusedBeforeTheEnvironment_withTheVerbsAndAHint() {
        CommandRun run = Cli.run(Map.of(), "grant", "n1", "stauts", "status", "frobnicate");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).startsWith(
                "\"stauts\" is not a verb (did you mean \"status\"?); the verbs are: " + VERBS,
                "\"frobnicate\" is not a verb; the verbs are: " + VERBS);
        assertThat(Cli.run(env, "principals").lines()).as("nothing was granted").hasSize(1);
    }

    @Test
    void commands_withoutTheIdentityEnvironment_exit2_namingBothVariables() {
        for (String[] command : new String[][] {{"grant", "n1", "status"}, {"revoke", "n1"}, {"principals"}}) {
            CommandRun run = Cli.run(Map.of("MESH_STORE_INVENTORY_PORT", "nonsense"), command);

            assertThat(run.exitCode()).as(command[0]).isEqualTo(2);
            assertThat(run.err().lines()).as(command[0]).containsExactly("mesh-controller: MESH_STORE_IDENTITY_PORT is "
                    + "not set; set it to the database server's host:port, e.g. 127.0.0.1:5432", "mesh-controller: "
                    + "MESH_STORE_IDENTITY_FILE is not set; set it to the path of a JSON file {\"user\", \"password\", "
                    + "\"database\"} readable by this process");
        }
    }

    @Test
    void commands_onADatabaseNotPrepared_refuse_sayingToRunPrepare() throws IOException {
        Map<String, String> unprepared = environment(databases.empty(Database.IDENTITY));

        for (String[] command : new String[][] {{"grant", "n1", "status"}, {"revoke", "n1"}, {"principals"}}) {
            CommandRun run = Cli.run(unprepared, command);

            assertThat(run.exitCode()).as(command[0]).isEqualTo(1);
            assertThat(run.out()).isEmpty();
            assertThat(run.err().lines()).as(command[0]).containsExactly("mesh-controller: the identity database is "
                    + "empty and this controller needs version 2 (missing: 1, 2); run `mesh-controller prepare` to "
                    + "migrate it");
        }
    }

    /** The credentials file of that database, and its address: the identity environment alone. */
    private Map<String, String> environment(Endpoint identity) throws IOException {
        Path file = dir.resolve("identity.json");
        String password = identity.password().isEmpty() ? "unused-under-trust-9c41e7" : identity.password().reveal();
        Files.writeString(file, "{\"user\": \"" + identity.user() + "\", \"password\": \"" + password
                + "\", \"database\": \"" + identity.database() + "\"}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return Map.of("MESH_STORE_IDENTITY_FILE", file.toString(), "MESH_STORE_IDENTITY_PORT",
                (identity.host().contains(":") ? "[" + identity.host() + "]" : identity.host()) + ":" + identity.port());
    }
}
