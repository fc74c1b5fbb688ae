package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import dev.mesh.controller.core.Secret;

import dev.mesh.controller.cli.ConfigException;
import dev.mesh.controller.cli.Failures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The store settings from the environment: every problem at once, one line each; never the password. */
class ConfigTest {

    private static final String PASSWORD = "hunter2-\u00e9-very-secret";

    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void validEnvironment() throws IOException {
        for (String role : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            Path file = dir.resolve(role.toLowerCase(java.util.Locale.ROOT) + ".json");
            Files.writeString(file, "{\"user\": \"mesh_" + role.toLowerCase(java.util.Locale.ROOT)
                    + "\", \"password\": \"" + PASSWORD + "\", \"database\": \"" + role.toLowerCase(java.util.Locale.ROOT)
                    + "\"}");
            env.put("MESH_STORE_" + role + "_FILE", file.toString());
            env.put("MESH_STORE_" + role + "_PORT", "127.0.0.1:5432");
        }
    }

    @Test
    void from_validEnvironment_readsEachDatabase() {
        Config config = Config.from(env);

        assertThat(config.inventory().host()).isEqualTo("127.0.0.1");
        assertThat(config.inventory().port()).isEqualTo(5432);
        assertThat(config.identity().user()).isEqualTo("mesh_identity");
        assertThat(config.licences().database()).isEqualTo("licences");
        assertThat(config.licences().password()).isEqualTo(Secret.of(PASSWORD));
    }

    @Test
    void toString_neverShowsThePassword() {
        Config config = Config.from(env);

        assertThat(config.toString()).doesNotContain(PASSWORD).contains("mesh_inventory");
    }

    @Test
    void from_ipv6AndHostNames_areAddresses() {
        env.put("MESH_STORE_INVENTORY_PORT", "[::1]:6543");
        env.put("MESH_STORE_IDENTITY_PORT", "db.mesh.internal:5432");

        Config config = Config.from(env);

        assertThat(config.inventory().host()).isEqualTo("::1");
        assertThat(config.inventory().port()).isEqualTo(6543);
        assertThat(config.identity().host()).isEqualTo("db.mesh.internal");
    }

    @Test
    void from_everyKindOfProblem_oneLineEach_namingVariableAndFix() throws IOException {
        env.remove("MESH_STORE_INVENTORY_PORT");
        env.put("MESH_STORE_IDENTITY_PORT", "localhost:99999");
        env.put("MESH_STORE_LICENCES_FILE", dir.resolve("absent.json").toString());
        Files.writeString(Path.of(env.get("MESH_STORE_INVENTORY_FILE")), "{\"user\": \"u\", \"password\": " + PASSWORD);

        List<String> problems = problems();

        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).startsWith("MESH_STORE_INVENTORY_PORT is not set").contains("127.0.0.1:5432");
        assertThat(problems.get(1)).startsWith("MESH_STORE_INVENTORY_FILE=").contains("not valid JSON at line 1");
        assertThat(problems.get(2)).startsWith("MESH_STORE_IDENTITY_PORT=localhost:99999 is not host:port");
        assertThat(problems.get(3)).startsWith("MESH_STORE_LICENCES_FILE=").contains("it does not exist");
        assertThat(String.join("\n", problems)).doesNotContain(PASSWORD).doesNotContain("hunter2");
    }

    @Test
    void from_credentialsOfTheWrongShape_namesEachField_withoutValues() throws IOException {
        Files.writeString(Path.of(env.get("MESH_STORE_IDENTITY_FILE")),
                "{\"user\": \"\", \"password\": 42, \"pasword\": \"" + PASSWORD + "\"}");

        List<String> problems = problems();

        assertThat(problems).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_STORE_IDENTITY_FILE=")
                .contains("unknown field \"pasword\"", "\"user\" must be a non-empty string",
                        "\"password\" must be a non-empty string", "\"database\" is missing")
                .doesNotContain(PASSWORD));
    }

    @Test
    void from_badAddresses_areProblems() {
        for (String bad : List.of("5432", ":5432", "host:", "host:0", "host:05432", "::1:5432", "a b:1")) {
            env.put("MESH_STORE_LICENCES_PORT", bad);

            assertThat(problems()).as(bad).singleElement()
                    .satisfies(line -> assertThat(line).startsWith("MESH_STORE_LICENCES_PORT=" + bad + " is not host:port"));
        }
    }

    @Test
    void from_credentialsReadableByOthers_warnsOncePerFile_namingItAndChmod() throws IOException {
        Path inventory = Path.of(env.get("MESH_STORE_INVENTORY_FILE"));
        Path licences = Path.of(env.get("MESH_STORE_LICENCES_FILE"));
        env.put("MESH_STORE_IDENTITY_FILE", inventory.toString());
        Files.setPosixFilePermissions(inventory, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(licences, PosixFilePermissions.fromString("rw-r-----"));

        Config config = Config.from(env);

        assertThat(config.warnings()).containsExactly(
                "MESH_STORE_INVENTORY_FILE=" + inventory + ": the credentials file has mode rw-r--r--, so other users "
                        + "of this machine may read its password; run chmod 600 " + inventory,
                "MESH_STORE_LICENCES_FILE=" + licences + ": the credentials file has mode rw-r-----, so other users "
                        + "of this machine may read its password; run chmod 600 " + licences);
        assertThat(String.join("\n", config.warnings())).doesNotContain(PASSWORD);
    }

    @Test
    void from_credentialsForTheOwnerOnly_noWarning() throws IOException {
        for (String role : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            Files.setPosixFilePermissions(Path.of(env.get("MESH_STORE_" + role + "_FILE")),
                    PosixFilePermissions.fromString("rw-------"));
        }

        assertThat(Config.from(env).warnings()).isEmpty();
    }

    @Test
    void main_configProblem_printsEachLine_exits2() {
        env.remove("MESH_STORE_INVENTORY_FILE");
        env.remove("MESH_STORE_LICENCES_PORT");
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(env).setErr(new PrintWriter(err));

        int exit = Failures.print(catchThrowableOfType(ConfigException.class, () -> Config.from(env)),
                commandLine, null);

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(2).allSatisfy(line -> assertThat(line).startsWith("mesh-controller: MESH_STORE_"));
    }

    private List<String> problems() {
        return catchThrowableOfType(ConfigException.class, () -> Config.from(env)).problems();
    }
}
