package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mesh.controller.bus.BrokerAddress;
import dev.mesh.controller.bus.BrokerManagement;
import dev.mesh.controller.bus.NatsAddress;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables;
import dev.mesh.controller.handover.HandoverSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The environment of each command: every problem at once, one line each naming the variable, the
 * file and the fix; never a password or a token.
 */
class ConfigTest {

    private static final String PASSWORD = "hunter2-\u00e9-very-secret";
    private static final String TOKEN = "tok-\u00e9-9f1c2e-secret";

    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void validEnvironment() throws IOException {
        for (String role : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            String name = role.toLowerCase(Locale.ROOT);
            env.put("MESH_STORE_" + role + "_FILE", write(name + ".json", "{\"user\": \"mesh_" + name
                    + "\", \"password\": \"" + PASSWORD + "\", \"database\": \"" + name + "\"}"));
            env.put("MESH_STORE_" + role + "_PORT", "127.0.0.1:5432");
        }
        env.put("MESH_BROKER_ADDRESS_FILE", write("broker.json", "{\"user\": \"mesh-controller\", \"password\": \""
                + PASSWORD + "\", \"vhost\": \"mesh\"}"));
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672");
        env.put("MESH_BROKER_MANAGEMENT_FILE", write("management.json", "{\"user\": \"monitor\", \"password\": \""
                + PASSWORD + "\"}"));
        env.put("MESH_BROKER_MANAGEMENT_PORT", "127.0.0.1:15672");
        env.put("MESH_BUS_NATS_FILE", write("nats.json", "{\"url\": \"nats://127.0.0.1:4222\", \"user\": \"ctl\", "
                + "\"password\": \"" + PASSWORD + "\"}"));
    }

    // --- the whole environment of serve ---

    @Test
    void forServe_validEnvironment_readsEverySetting() {
        Config.Serve config = Config.forServe(env);

        assertThat(config.stores().inventory().host()).isEqualTo("127.0.0.1");
        assertThat(config.stores().inventory().port()).isEqualTo(5432);
        assertThat(config.stores().identity().user()).isEqualTo("mesh_identity");
        assertThat(config.stores().licences().database()).isEqualTo("licences");
        assertThat(config.stores().licences().password()).isEqualTo(Secret.of(PASSWORD));
        assertThat(config.broker()).isEqualTo(new BrokerAddress("127.0.0.1", 5672, "mesh", "mesh-controller",
                Secret.of(PASSWORD)));
        assertThat(config.certificate()).isEmpty();
        assertThat(config.management()).contains(new BrokerManagement("127.0.0.1", 15672, "monitor",
                Secret.of(PASSWORD)));
        assertThat(config.nats()).isEqualTo(new NatsAddress("nats://127.0.0.1:4222", "ctl", Secret.of(PASSWORD),
                Secret.NONE));
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void forServe_aBrokerCluster_isEveryMemberInTheOrderGiven() {
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672, 127.0.0.2:5673,[::1]:5674");

        assertThat(Config.forServe(env).broker().addresses()).containsExactly(new Variables.Address("127.0.0.1", 5672),
                new Variables.Address("127.0.0.2", 5673), new Variables.Address("::1", 5674));
    }

    @Test
    void forServe_aBrokerList_withABadPart_orAMemberTwice_orAMemberOffLoopbackWithoutTls_isOneLineEach() {
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672,127.0.0.2:");
        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_ADDRESS_PORT=127.0.0.1:5672,127.0.0.2: has "
                + "\"127.0.0.2:\", which is not host:port; write host:port, or several separated by commas, e.g. "
                + "broker-1.mesh.internal:5671,broker-2.mesh.internal:5671 (port 1-65535)");

        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672,,127.0.0.2:5672");
        assertThat(problems(Config::forServe)).singleElement().asString()
                .startsWith("MESH_BROKER_ADDRESS_PORT=127.0.0.1:5672,,127.0.0.2:5672 has \"\", which is not host:port;");

        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672,127.0.0.1:5672");
        assertThat(problems(Config::forServe)).singleElement().asString()
                .startsWith("MESH_BROKER_ADDRESS_PORT=127.0.0.1:5672,127.0.0.1:5672 has \"127.0.0.1:5672\", which is "
                        + "named twice;");

        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672,broker-2.mesh.internal:5671");
        assertThat(problems(Config::forServe)).singleElement().asString().startsWith("MESH_BROKER_CERTIFICATE is not "
                + "set and MESH_BROKER_ADDRESS_PORT names broker-2.mesh.internal:5671, which is not loopback: plain AMQP "
                + "is allowed only on loopback");
    }

    @Test
    void forServe_genesisFile_optional_aMissingFileIsNoProblem_aDirectoryIs() throws IOException {
        assertThat(Config.forServe(env).genesis()).isEmpty();

        env.put("MESH_GENESIS_FILE", dir.resolve("state/genesis.json").toString());
        assertThat(Config.forServe(env).genesis()).contains(dir.resolve("state/genesis.json"));

        env.put("MESH_GENESIS_FILE", dir.toString());
        assertThat(problems(Config::forServe)).containsExactly("MESH_GENESIS_FILE=" + dir + ": it is a directory; give "
                + "the path of the inventory.json that mesh-controller genesis wrote, or unset MESH_GENESIS_FILE");
    }

    @Test
    void toString_neverShowsAPasswordOrToken() throws IOException {
        env.put("MESH_BUS_NATS_FILE", write("nats.json", "{\"url\": \"tls://nats.mesh.internal\", \"token\": \""
                + TOKEN + "\"}"));

        Config.Serve config = Config.forServe(env);

        assertThat(config.nats().token()).isEqualTo(Secret.of(TOKEN));
        assertThat(config.toString()).doesNotContain(PASSWORD).doesNotContain(TOKEN).contains("mesh_inventory",
                "mesh-controller", "monitor", "tls://nats.mesh.internal");
    }

    @Test
    void forServe_emptyEnvironment_namesEveryRequiredVariable_inOrder() {
        env.clear();

        assertThat(problems(Config::forServe)).extracting(line -> line.substring(0, line.indexOf(' '))).containsExactly(
                "MESH_STORE_INVENTORY_PORT", "MESH_STORE_INVENTORY_FILE", "MESH_STORE_IDENTITY_PORT",
                "MESH_STORE_IDENTITY_FILE", "MESH_STORE_LICENCES_PORT", "MESH_STORE_LICENCES_FILE",
                "MESH_BROKER_ADDRESS_PORT", "MESH_BROKER_ADDRESS_FILE", "MESH_BUS_NATS_FILE");
        assertThat(problems(Config::forServe)).last().isEqualTo("MESH_BUS_NATS_FILE is not set; set it to the path of a "
                + "JSON file {\"url\", \"user\"?, \"password\"?, \"token\"?, \"creds\"?} readable by this process");
    }

    @Test
    void forServe_aProblemInEverySetting_allAtOnce_oneLineEach_noSecret() throws IOException {
        env.remove("MESH_STORE_INVENTORY_PORT");
        env.put("MESH_STORE_IDENTITY_PORT", "localhost:99999");
        env.put("MESH_STORE_LICENCES_FILE", dir.resolve("absent.json").toString());
        write("inventory.json", "{\"user\": \"u\", \"password\": " + PASSWORD);
        env.put("MESH_BROKER_ADDRESS_PORT", "broker.mesh.internal:5671");
        write("broker.json", "{\"user\": \"mesh-controller\", \"password\": \"" + PASSWORD + "\"}");
        env.remove("MESH_BROKER_MANAGEMENT_PORT");
        write("nats.json", "{\"url\": \"nats://127.0.0.1:4222\", \"token\": \"" + TOKEN + "\", \"password\": \""
                + PASSWORD + "\"}");

        List<String> problems = problems(Config::forServe);

        assertThat(problems).hasSize(7);
        assertThat(problems.get(0)).startsWith("MESH_STORE_INVENTORY_PORT is not set").contains("127.0.0.1:5432");
        assertThat(problems.get(1)).startsWith("MESH_STORE_INVENTORY_FILE=").contains("not valid JSON at line 1");
        assertThat(problems.get(2)).startsWith("MESH_STORE_IDENTITY_PORT=localhost:99999 is not host:port");
        assertThat(problems.get(3)).startsWith("MESH_STORE_LICENCES_FILE=").contains("it does not exist");
        assertThat(problems.get(4)).startsWith("MESH_BROKER_ADDRESS_FILE=").contains("\"vhost\" is missing");
        assertThat(problems.get(5)).startsWith("MESH_BROKER_MANAGEMENT_PORT is not set, but MESH_BROKER_MANAGEMENT_FILE "
                + "is");
        assertThat(problems.get(6)).startsWith("MESH_BUS_NATS_FILE=").contains("\"password\" needs \"user\"",
                "\"token\" excludes \"user\" and \"password\"");
        assertThat(String.join("\n", problems)).doesNotContain(PASSWORD).doesNotContain("hunter2")
                .doesNotContain(TOKEN);
    }

    // --- the store ---

    @Test
    void from_ipv6AndHostNames_areAddresses() {
        env.put("MESH_STORE_INVENTORY_PORT", "[::1]:6543");
        env.put("MESH_STORE_IDENTITY_PORT", "db.mesh.internal:5432");

        Config.Serve config = Config.forServe(env);

        assertThat(config.stores().inventory().host()).isEqualTo("::1");
        assertThat(config.stores().inventory().port()).isEqualTo(6543);
        assertThat(config.stores().identity().host()).isEqualTo("db.mesh.internal");
    }

    @Test
    void from_aPrimaryAndItsStandby_isOneDatabaseOnBothServers() {
        env.put("MESH_STORE_INVENTORY_PORT", "db-1.mesh.internal:5432,db-2.mesh.internal:5432");

        Config.Serve config = Config.forServe(env);

        assertThat(config.stores().inventory().servers()).extracting(Variables.Address::text)
                .containsExactly("db-1.mesh.internal:5432", "db-2.mesh.internal:5432");
        assertThat(config.stores().inventory().address()).startsWith("postgresql://")
                .contains("@db-1.mesh.internal:5432,db-2.mesh.internal:5432/");
    }

    @Test
    void from_credentialsOfTheWrongShape_namesEachField_withoutValues() throws IOException {
        write("identity.json", "{\"user\": \"\", \"password\": 42, \"pasword\": \"" + PASSWORD + "\"}");

        assertThat(problems(Config::forServe)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_STORE_IDENTITY_FILE=")
                .contains("unknown field \"pasword\"", "\"user\" must be a non-empty string",
                        "\"password\" must be a non-empty string", "\"database\" is missing")
                .doesNotContain(PASSWORD));
    }

    @Test
    void from_badAddresses_areProblems() {
        for (String bad : List.of("5432", ":5432", "host:", "host:0", "host:05432", "host:65536", "host:x1",
                "::1:5432", "a b:1")) {
            env.put("MESH_STORE_LICENCES_PORT", bad);

            assertThat(problems(Config::forServe)).as(bad).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("MESH_STORE_LICENCES_PORT=" + bad + " is not host:port; write e.g. 127.0.0.1:5432, "
                            + "db.mesh.internal:5432 or [::1]:5432 (port 1-65535)"));
        }
    }

    @Test
    void from_credentialsReadableByOthers_warnsOncePerFile_namingItAndChmod() throws IOException {
        Path inventory = Path.of(env.get("MESH_STORE_INVENTORY_FILE"));
        Path licences = Path.of(env.get("MESH_STORE_LICENCES_FILE"));
        Path broker = Path.of(env.get("MESH_BROKER_ADDRESS_FILE"));
        env.put("MESH_STORE_IDENTITY_FILE", inventory.toString());
        Files.setPosixFilePermissions(inventory, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(licences, PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(broker, PosixFilePermissions.fromString("rw----r--"));

        Config.Serve config = Config.forServe(env);

        assertThat(config.warnings()).containsExactly(
                "MESH_STORE_INVENTORY_FILE=" + inventory + ": the credentials file has mode rw-r--r--, so other users "
                        + "of this machine may read its password; run chmod 600 " + inventory,
                "MESH_STORE_LICENCES_FILE=" + licences + ": the credentials file has mode rw-r-----, so other users "
                        + "of this machine may read its password; run chmod 600 " + licences,
                "MESH_BROKER_ADDRESS_FILE=" + broker + ": the credentials file has mode rw----r--, so other users "
                        + "of this machine may read its password; run chmod 600 " + broker);
        assertThat(String.join("\n", config.warnings())).doesNotContain(PASSWORD);
    }

    @Test
    void from_aNatsFileWithoutSecret_readableByOthers_noWarning() throws IOException {
        Path nats = Path.of(write("nats.json", "{\"url\": \"nats://127.0.0.1:4222\"}"));
        Files.setPosixFilePermissions(nats, PosixFilePermissions.fromString("rw-r--r--"));

        Config.Serve config = Config.forServe(env);

        assertThat(config.nats()).isEqualTo(new NatsAddress("nats://127.0.0.1:4222", "", Secret.NONE, Secret.NONE));
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void main_configProblem_printsEachLine_exits2() {
        env.remove("MESH_STORE_INVENTORY_FILE");
        env.remove("MESH_STORE_LICENCES_PORT");
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(env).setErr(new PrintWriter(err));

        int exit = Failures.print(catchThrowableOfType(ConfigException.class, () -> Config.forServe(env)),
                commandLine, null);

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(2).allSatisfy(line -> assertThat(line)
                .startsWith("mesh-controller: MESH_STORE_"));
    }

    // --- the broker's address ---

    @Test
    void broker_notSet_namesBothVariables() {
        env.remove("MESH_BROKER_ADDRESS_FILE");
        env.remove("MESH_BROKER_ADDRESS_PORT");

        assertThat(problems(Config::forServe)).containsExactly(
                "MESH_BROKER_ADDRESS_PORT is not set; set it to the broker's AMQP host:port, e.g. 127.0.0.1:5671",
                "MESH_BROKER_ADDRESS_FILE is not set; set it to the path of a JSON file {\"user\", \"password\", "
                        + "\"vhost\"} readable by this process");
    }

    @Test
    void broker_fileMissing_saysItDoesNotExist() {
        Path absent = dir.resolve("nowhere/broker.json");
        env.put("MESH_BROKER_ADDRESS_FILE", absent.toString());

        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_ADDRESS_FILE=" + absent + ": cannot read the "
                + "file (it does not exist); check the path and that this process may read it");
    }

    @Test
    void broker_fileNotJson_saysLineAndColumn_withoutContent() throws IOException {
        write("broker.json", "{\"user\": \"mesh-controller\",\n  \"password\": " + PASSWORD + "\n}");

        assertThat(problems(Config::forServe)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_BROKER_ADDRESS_FILE=" + env.get("MESH_BROKER_ADDRESS_FILE") + ": not valid JSON at "
                        + "line 2, column ")
                .endsWith("; write {\"user\": \"…\", \"password\": \"…\", \"vhost\": \"…\"}")
                .doesNotContain("hunter2"));
    }

    @Test
    void broker_fieldMissingOrOfTheWrongType_namesTheFields() throws IOException {
        write("broker.json", "{\"user\": 7, \"password\": \"" + PASSWORD + "\", \"vhost\": [\"mesh\"]}");

        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_ADDRESS_FILE="
                + env.get("MESH_BROKER_ADDRESS_FILE") + ": \"user\" must be a non-empty string, \"vhost\" must be a "
                + "non-empty string; write {\"user\": \"…\", \"password\": \"…\", \"vhost\": \"…\"}");

        write("broker.json", "[\"" + PASSWORD + "\"]");
        assertThat(problems(Config::forServe)).singleElement().satisfies(line -> assertThat(line)
                .contains(": it is not a JSON object; write").doesNotContain(PASSWORD));
    }

    @Test
    void broker_portMalformedOrOutOfRange_isAProblem() {
        for (String bad : List.of("broker", "127.0.0.1:", "127.0.0.1:amqp", "127.0.0.1:0", "127.0.0.1:65536",
                "127.0.0.1:-1")) {
            env.put("MESH_BROKER_ADDRESS_PORT", bad);

            assertThat(problems(Config::forServe)).as(bad).containsExactly("MESH_BROKER_ADDRESS_PORT=" + bad + " is not "
                    + "host:port; write e.g. 127.0.0.1:5671, broker.mesh.internal:5671 or [::1]:5671 (port 1-65535)");
        }
    }

    // --- the broker's certificate ---

    @Test
    void certificate_notSet_loopbackBroker_isPlainAmqp() {
        for (String loopback : List.of("127.0.0.1:5672", "127.8.9.10:5672", "[::1]:5672", "localhost:5672",
                "LocalHost:5672", "[0:0:0:0:0:0:0:1]:5672")) {
            env.put("MESH_BROKER_ADDRESS_PORT", loopback);

            assertThat(Config.forServe(env).certificate()).as(loopback).isEmpty();
        }
    }

    @Test
    void certificate_notSet_remoteBroker_isRefused_sayingToSetIt() {
        for (String remote : List.of("broker.mesh.internal:5671", "10.0.0.5:5671", "[fd00::5]:5671",
                "localhost.example.org:5671", "128.0.0.1:5671")) {
            env.put("MESH_BROKER_ADDRESS_PORT", remote);

            assertThat(problems(Config::forServe)).as(remote).containsExactly("MESH_BROKER_CERTIFICATE is not set and "
                    + "MESH_BROKER_ADDRESS_PORT=" + remote + " is not loopback: plain AMQP is allowed only on loopback "
                    + "(127.0.0.0/8, ::1, localhost); set MESH_BROKER_CERTIFICATE to the PEM file of the CA the "
                    + "broker's certificate chains to");
        }
    }

    @Test
    void certificate_aPemCa_isTaken_forARemoteBroker() throws IOException {
        Path ca = dir.resolve("ca.pem");
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/broker-ca.pem"))) {
            Files.copy(in, ca);
        }
        env.put("MESH_BROKER_CERTIFICATE", ca.toString());
        env.put("MESH_BROKER_ADDRESS_PORT", "broker.mesh.internal:5671");

        assertThat(Config.forServe(env).certificate()).contains(ca);
        assertThat(Config.forPrepare(env).certificate()).contains(ca);
    }

    @Test
    void certificate_missingEmptyOrNotACertificate_isAProblem() throws IOException {
        Path absent = dir.resolve("absent.pem");
        Path empty = Path.of(write("empty.pem", ""));
        Path key = Path.of(write("key.pem", "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n"
                + "-----END PRIVATE KEY-----\n"));
        Path text = Path.of(write("text.pem", "not a certificate at all"));
        env.put("MESH_BROKER_ADDRESS_PORT", "broker.mesh.internal:5671");

        env.put("MESH_BROKER_CERTIFICATE", absent.toString());
        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_CERTIFICATE=" + absent + ": cannot read the "
                + "file (it does not exist); check the path and that this process may read it");
        env.put("MESH_BROKER_CERTIFICATE", dir.toString());
        assertThat(problems(Config::forServe)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_BROKER_CERTIFICATE=" + dir + ": cannot read the file (it is a directory)"));
        for (Path bad : List.of(empty, key, text)) {
            env.put("MESH_BROKER_CERTIFICATE", bad.toString());

            assertThat(problems(Config::forServe)).as(bad.toString()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("MESH_BROKER_CERTIFICATE=" + bad + ": ")
                    .endsWith("give the PEM file of the CA the broker's certificate chains to (-----BEGIN "
                            + "CERTIFICATE----- …)"));
        }
    }

    // --- the broker's management API ---

    @Test
    void management_neitherVariable_isNone() {
        env.remove("MESH_BROKER_MANAGEMENT_FILE");
        env.remove("MESH_BROKER_MANAGEMENT_PORT");

        assertThat(Config.forServe(env).management()).isEmpty();
    }

    @Test
    void management_oneWithoutTheOther_isAProblem_namingBoth() {
        Map<String, String> full = Map.copyOf(env);
        env.remove("MESH_BROKER_MANAGEMENT_FILE");

        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_MANAGEMENT_FILE is not set, but "
                + "MESH_BROKER_MANAGEMENT_PORT is; set it to the path of a JSON file {\"user\", \"password\"} readable "
                + "by this process, or unset MESH_BROKER_MANAGEMENT_PORT to run without the management API");

        env.putAll(full);
        env.remove("MESH_BROKER_MANAGEMENT_PORT");
        assertThat(problems(Config::forServe)).containsExactly("MESH_BROKER_MANAGEMENT_PORT is not set, but "
                + "MESH_BROKER_MANAGEMENT_FILE is; set it to the broker's management API host:port, e.g. "
                + "127.0.0.1:15671, or unset MESH_BROKER_MANAGEMENT_FILE to run without the management API");
    }

    @Test
    void management_malformed_isAProblem() throws IOException {
        env.put("MESH_BROKER_MANAGEMENT_PORT", "127.0.0.1:156720");
        write("management.json", "{\"user\": \"monitor\", \"password\": \"" + PASSWORD + "\", \"vhost\": \"mesh\"}");

        assertThat(problems(Config::forServe)).containsExactly(
                "MESH_BROKER_MANAGEMENT_PORT=127.0.0.1:156720 is not host:port; write e.g. 127.0.0.1:15671, "
                        + "broker.mesh.internal:15671 or [::1]:15671 (port 1-65535)",
                "MESH_BROKER_MANAGEMENT_FILE=" + env.get("MESH_BROKER_MANAGEMENT_FILE") + ": unknown field \"vhost\"; "
                        + "write {\"user\": \"…\", \"password\": \"…\"}");
    }

    // --- NATS ---

    @Test
    void nats_tokenOrNoLogin_areTaken() throws IOException {
        write("nats.json", "{\"url\": \"tls://nats.mesh.internal:4222\", \"token\": \"" + TOKEN + "\"}");
        assertThat(Config.forServe(env).nats()).isEqualTo(new NatsAddress("tls://nats.mesh.internal:4222", "",
                Secret.NONE, Secret.of(TOKEN)));

        write("nats.json", "{\"url\": \"nats://nats-1.mesh.internal:4222, nats://nats-2.mesh.internal:4222\"}");
        assertThat(Config.forServe(env).nats()).as("a cluster's servers").isEqualTo(new NatsAddress(
                "nats://nats-1.mesh.internal:4222,nats://nats-2.mesh.internal:4222", "", Secret.NONE, Secret.NONE));

        write("nats.json", "{\"url\": \"nats://[::1]\"}");
        assertThat(Config.forServe(env).nats()).isEqualTo(new NatsAddress("nats://[::1]", "", Secret.NONE,
                Secret.NONE));
    }

    @Test
    void nats_badFiles_oneLineEach_withTheFix_neverTheSecret() throws IOException {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("{\"url\": \"http://127.0.0.1:4222\"}", "\"url\" is not nats://host:port or tls://host:port");
        cases.put("{\"url\": \"nats://ctl:" + PASSWORD + "@127.0.0.1:4222\"}", "\"url\" holds a user or password: "
                + "give them as \"user\" and \"password\" (or \"token\")");
        cases.put("{\"url\": \"nats://127.0.0.1:70000\"}", "\"url\" is not nats://host:port or tls://host:port");
        cases.put("{\"url\": \"nats://127.0.0.1:4222/x\"}", "\"url\" is not nats://host:port or tls://host:port");
        cases.put("{\"url\": \"nats://127.0.0.1:4231,http://127.0.0.1:4232\"}", "a server of \"url\" is not "
                + "nats://host:port or tls://host:port (several separated by commas, e.g. "
                + "nats://nats-1.mesh.internal:4222,nats://nats-2.mesh.internal:4222)");
        cases.put("{\"url\": \"nats://127.0.0.1:4222\", \"user\": \"ctl\"}", "\"user\" needs \"password\"");
        cases.put("{\"url\": \"nats://127.0.0.1:4222\", \"password\": \"" + PASSWORD + "\"}",
                "\"password\" needs \"user\"");
        cases.put("{\"url\": \"nats://127.0.0.1:4222\", \"user\": \"ctl\", \"password\": \"" + PASSWORD + "\", "
                + "\"token\": \"" + TOKEN + "\"}", "\"token\" excludes \"user\" and \"password\": give one way to log in");
        cases.put("{\"url\": \"nats://127.0.0.1:4222\", \"creds\": \"/etc/mesh/ctl.creds\"}", "\"creds\" (an NKey "
                + "credentials file) is not supported: this controller cannot sign NATS's NKey challenge; log in with "
                + "\"user\" and \"password\", or \"token\"");
        cases.put("{\"url\": 4222, \"token\": true}", "\"url\" must be a non-empty string, \"token\" must be a "
                + "non-empty string");
        cases.put("{\"user\": \"ctl\", \"pass\": \"" + PASSWORD + "\"}", "unknown field \"pass\", \"url\" is missing");
        String nats = env.get("MESH_BUS_NATS_FILE");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            write("nats.json", bad.getKey());

            assertThat(problems(Config::forServe)).as(bad.getKey()).containsExactly("MESH_BUS_NATS_FILE=" + nats + ": "
                    + bad.getValue() + "; write {\"url\": \"nats://127.0.0.1:4222\", \"user\": \"…\", \"password\": "
                    + "\"…\"} or {\"url\": \"…\", \"token\": \"…\"}");
        }
    }

    // --- what each command needs ---

    @Test
    void forPrepare_needsTheStoreAndTheBroker_notNatsNorManagement() throws IOException {
        env.remove("MESH_BUS_NATS_FILE");
        env.remove("MESH_BROKER_MANAGEMENT_PORT");
        write("management.json", "not json " + PASSWORD);

        Config.Prepare config = Config.forPrepare(env);

        assertThat(config.stores().identity().database()).isEqualTo("identity");
        assertThat(config.broker().vhost()).isEqualTo("mesh");

        env.clear();
        assertThat(problems(Config::forPrepare)).extracting(line -> line.substring(0, line.indexOf(' ')))
                .containsExactly("MESH_STORE_INVENTORY_PORT", "MESH_STORE_INVENTORY_FILE", "MESH_STORE_IDENTITY_PORT",
                        "MESH_STORE_IDENTITY_FILE", "MESH_STORE_LICENCES_PORT", "MESH_STORE_LICENCES_FILE",
                        "MESH_BROKER_ADDRESS_PORT", "MESH_BROKER_ADDRESS_FILE");
    }

    @Test
    void forPrepare_remoteBrokerWithoutCertificate_isRefused() {
        env.put("MESH_BROKER_ADDRESS_PORT", "broker.mesh.internal:5671");

        assertThat(problems(Config::forPrepare)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_BROKER_CERTIFICATE is not set"));
    }

    @Test
    void forMcp_withoutTheBrokersAddress_isEmpty_andReadsNothingElse() throws IOException {
        env.remove("MESH_BROKER_ADDRESS_FILE");
        env.remove("MESH_BROKER_ADDRESS_PORT");
        env.put("MESH_BROKER_CERTIFICATE", dir.resolve("absent.pem").toString());
        write("inventory.json", "not json " + PASSWORD);

        assertThat(Config.forMcp(env)).isEmpty();
        env.put("MESH_BROKER_ADDRESS_FILE", "");
        assertThat(Config.forMcp(env)).as("an empty variable is not set").isEmpty();
    }

    @Test
    void forMcp_needsTheBrokersAddressOnly_withTheCertificateRules() throws IOException {
        env.keySet().removeIf(variable -> !variable.startsWith("MESH_BROKER_ADDRESS_"));
        Files.setPosixFilePermissions(Path.of(env.get("MESH_BROKER_ADDRESS_FILE")),
                PosixFilePermissions.fromString("rw-r-----"));

        Config.Mcp config = Config.forMcp(env).orElseThrow();

        assertThat(config.broker()).isEqualTo(new BrokerAddress("127.0.0.1", 5672, "mesh", "mesh-controller",
                Secret.of(PASSWORD)));
        assertThat(config.certificate()).isEmpty();
        assertThat(config.warnings()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_BROKER_ADDRESS_FILE=" + env.get("MESH_BROKER_ADDRESS_FILE") + ": the credentials "
                        + "file has mode rw-r-----"));

        env.put("MESH_BROKER_ADDRESS_PORT", "broker.mesh.internal:5671");
        assertThat(problems(Config::forMcp)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_BROKER_CERTIFICATE is not set and MESH_BROKER_ADDRESS_PORT=broker.mesh.internal:5671"));
        env.remove("MESH_BROKER_ADDRESS_FILE");
        assertThat(problems(Config::forMcp)).extracting(line -> line.substring(0, line.indexOf(' ')))
                .containsExactly("MESH_BROKER_ADDRESS_FILE");
    }

    @Test
    void forIdentity_needsTheIdentityDatabaseOnly() throws IOException {
        Path identity = Path.of(env.get("MESH_STORE_IDENTITY_FILE"));
        Files.setPosixFilePermissions(identity, PosixFilePermissions.fromString("rw-r--r--"));
        env.keySet().removeIf(variable -> !variable.startsWith("MESH_STORE_IDENTITY_"));

        Config.IdentityStore config = Config.forIdentity(env);

        assertThat(config.identity().database()).isEqualTo("identity");
        assertThat(config.warnings()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("MESH_STORE_IDENTITY_FILE=" + identity + ": the credentials file has mode rw-r--r--"));

        env.clear();
        assertThat(problems(Config::forIdentity)).containsExactly("MESH_STORE_IDENTITY_PORT is not set; set it to the "
                + "database server's host:port, e.g. 127.0.0.1:5432", "MESH_STORE_IDENTITY_FILE is not set; set it to "
                + "the path of a JSON file {\"user\", \"password\", \"database\"} readable by this process");
    }

    // --- the handover's timings ---

    @Test
    void handover_nothingSet_isTheDefaults() {
        assertThat(Config.forServe(env).handover()).isEqualTo(HandoverSettings.DEFAULTS);
    }

    @Test
    void handover_variables_andAnOptionOverAVariable() {
        env.put("MESH_HANDOVER_LEASE", "6s");
        env.put("MESH_HANDOVER_LEASE_RENEWAL", "2s");
        env.put("MESH_HANDOVER_TICK", "100ms");

        HandoverSettings settings = Config.forServe(env, Map.of("tick", "200ms", "starved-after-ticks", "4")).handover();

        assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(6));
        assertThat(settings.leaseRenewal()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.tick()).as("the option over the variable").isEqualTo(Duration.ofMillis(200));
        assertThat(settings.starvedAfter()).isEqualTo(Duration.ofMillis(800));
        assertThat(settings.settle()).isEqualTo(HandoverSettings.DEFAULTS.settle());
    }

    @Test
    void handover_aLeaseNotTwiceItsRenewal_isRefusedNamingBoth_andTheFix() {
        env.put("MESH_HANDOVER_LEASE", "2s");

        assertThat(problems(e -> Config.forServe(e, Map.of("lease-renewal", "1s")))).containsExactly(
                "MESH_HANDOVER_LEASE (2s) must be more than twice --handover lease-renewal (1s): one late renewal "
                        + "would let a standby take over from a controller that runs; raise MESH_HANDOVER_LEASE above "
                        + "2s or renew more often");
    }

    @Test
    void handover_aHeartbeatAsLongAsTheLease_andOneStarvedTick_areRefused() {
        env.put("MESH_HANDOVER_HEARTBEAT", "3s");
        env.put("MESH_HANDOVER_STARVED_AFTER_TICKS", "1");

        assertThat(problems(Config::forServe)).hasSize(2).anySatisfy(line -> assertThat(line)
                .startsWith("MESH_HANDOVER_STARVED_AFTER_TICKS (1) must be 2 or more")).anySatisfy(line -> assertThat(line)
                .startsWith("MESH_HANDOVER_HEARTBEAT (3s) must be shorter than MESH_HANDOVER_LEASE (3s)"));
    }

    @Test
    void handover_aMalformedValue_anUnknownVariable_andAnUnknownOption_areEachAProblem() {
        env.put("MESH_HANDOVER_SETTLE", "five");
        env.put("MESH_HANDOVER_LEASES", "3s");

        assertThat(problems(e -> Config.forServe(e, Map.of("tik", "1s")))).containsExactly(
                "MESH_HANDOVER_LEASES: no handover setting has this name; they are [MESH_HANDOVER_SETTLE, "
                        + "MESH_HANDOVER_LEASE, MESH_HANDOVER_LEASE_RENEWAL, MESH_HANDOVER_READY_WAIT, "
                        + "MESH_HANDOVER_HOLDER_LOOK_EVERY, MESH_HANDOVER_TICK, MESH_HANDOVER_STARVED_AFTER_TICKS, "
                        + "MESH_HANDOVER_HEARTBEAT, MESH_HANDOVER_KEEP_ACTIVE_EVERY]",
                "--handover tik: no handover setting has this name; they are settle, lease, lease-renewal, "
                        + "ready-wait, holder-look-every, tick, starved-after-ticks, heartbeat, keep-active-every",
                "MESH_HANDOVER_SETTLE=five: 'five' is not a duration; give milliseconds or seconds, e.g. 250ms or 5s");
    }

    @Test
    void handover_aBadPair_exits2_withTheLine() {
        env.put("MESH_HANDOVER_HEARTBEAT", "5s");
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(env).setErr(new PrintWriter(err));

        int exit = Failures.print(catchThrowableOfType(ConfigException.class, () -> Config.forServe(env)),
                commandLine, null);

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).startsWith("mesh-controller: MESH_HANDOVER_HEARTBEAT (5s) must be shorter than "
                + "MESH_HANDOVER_LEASE (3s)").doesNotContain("Exception");
    }

    private List<String> problems(Function<Map<String, String>, ?> read) {
        return catchThrowableOfType(ConfigException.class, () -> read.apply(env)).problems();
    }

    /** Writes a file in the test's directory, for the owner only; returns its path. */
    private String write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file.toString();
    }
}
