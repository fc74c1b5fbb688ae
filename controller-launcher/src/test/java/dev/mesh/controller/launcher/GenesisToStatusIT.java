package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mesh.controller.bus.BrokerSettings;
import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.CommandRun;
import dev.mesh.controller.testing.Listening;
import dev.mesh.controller.testing.LocalRabbit;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A new mesh from files alone, all the way (docs/design.md section 12): {@code genesis} of a three-node mesh
 * whose store, broker and bus are the local PostgreSQL, RabbitMQ (behind TLS on 5671, as the manifest's
 * {@code ${seat:mesh-broker:5671}} says: stunnel with a CA made for the run) and NATS; then this test plays
 * the controller node's host with nothing but genesis's files — it checks the archive's digest, unpacks it,
 * creates the declared directories, places the declared secrets and the inventory where the declaration's
 * environment names them, runs the declared preparation and then the declared process, each with the
 * declaration's argv and env (and a PATH without Java: the bundle's own runtime runs it) — and the
 * controller that starts answers {@code status} over the broker with the mesh it was born from.
 *
 * <p>The declaration's paths are under {@code /var/lib/mesh}; the processes run in a mount namespace of
 * their own ({@code unshare -m}) where {@code /var/lib} is a directory of this test, so nothing lands on the
 * machine. They run as this test's user: the declared account {@code mesh-controller} is not created.
 */
class GenesisToStatusIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final int TLS_PORT = 5671;
    private static final String CONTROLLER_NODE = "n3";
    /** The host's PATH: the system's commands, no Java (the bundle brings its own). */
    private static final String HOST_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    @TempDir
    Path dir;

    private final String vhost = "mesh-it-genesis-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Process stunnel;

    @BeforeEach
    void services() throws Exception {
        LocalRabbit.get().addVhost(vhost);
        LocalRabbit.get().setPermissions(vhost, "guest", ".*", ".*", ".*");
        stunnel = startStunnel();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        if (stunnel != null) {
            stunnel.destroy();
            stunnel.waitFor(10, TimeUnit.SECONDS);
        }
        LocalRabbit.get().deleteVhost(vhost);
    }

    @Test
    void genesis_thenTheHostRunsPreparationAndProcessFromItsFilesAlone_statusAnswersTheMeshItWasBornFrom()
            throws Exception {
        Path out = dir.resolve("genesis");
        CommandRun genesis = ServeProcess.run(dir, "genesis", "--mesh", meshFile().toString(), "--out",
                out.toString());
        assertThat(genesis.exitCode()).as(genesis.err()).isZero();

        // The host: the archive checked against its digest, unpacked; the declaration read.
        assertThat(command(out, "sha256sum", "--check", "mesh-controller.tar.gz.sha256")).endsWith(": OK\n");
        Path artifact = Files.createDirectories(dir.resolve("host/artifacts/controller"));
        command(artifact, "tar", "-xzf", out.resolve("mesh-controller.tar.gz").toString());
        Path bundle = artifact.resolve("mesh-controller");
        assertThat(bundle.resolve("lib/dev")).as("the production archive").doesNotExist();
        JsonNode declaration = JSON.readTree(out.resolve("declarations/" + CONTROLLER_NODE + ".json").toFile());
        JsonNode process = controllerProcess(declaration);

        Path varLib = Files.createDirectories(dir.resolve("host/var-lib"));
        for (JsonNode directory : declaration.path("directories")) {
            Path path = onHost(varLib, directory.path("path").asString());
            Files.createDirectories(path);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
        }
        for (JsonNode secret : declaration.path("secrets")) {
            if (secret.path("module").asString().equals("mesh-controller")) {
                place(onHost(varLib, secret.path("path").asString()), secretValue(secret.path("name").asString()));
            }
        }
        Files.copy(out.resolve("inventory.json"), onHost(varLib, process.path("env").path("MESH_GENESIS_FILE")
                .asString()));

        JsonNode preparation = process.path("prepare");
        assertThat(preparation.path("run")).as("the declared preparation").hasSize(2);
        Hosted prepare = hosted(varLib, bundle, strings(preparation.path("run")), env(preparation.path("env")));
        assertThat(prepare.exitCode()).as(prepare.output()).isZero();
        // The caller of this test: a principal the operator enrolls, with the same environment.
        Hosted grant = hosted(varLib, bundle, List.of("./mesh-controller", "grant", "guest", "status", "nodes"),
                env(process.path("env")));
        assertThat(grant.exitCode()).as(grant.output()).isZero();

        ServeProcess serve = ServeProcess.startHosted(namespaced(varLib, strings(process.path("run"))), bundle,
                env(process.path("env")), dir);
        opened.add(serve);
        assertThat(serve.role()).as(serve.err()).isEqualTo("active");
        BrokerUpstream caller = BrokerUpstream.connect(new BrokerSettings("127.0.0.1", 5672, vhost, "guest",
                Secret.of("guest"), BrokerSettings.Transport.PLAIN), Duration.ofSeconds(20));
        opened.add(caller);

        JsonNode status = awaitStatus(caller, 3, 4, 4);
        assertThat(status.path("role").asString()).isEqualTo("active");
        assertThat(status.path("epoch").asLong()).isPositive();
        List<String> nodes = new ArrayList<>();
        call(caller, "nodes").path("nodes").forEach(node -> nodes.add(node.path("name").asString()));
        assertThat(nodes).containsExactlyInAnyOrder("n1", "n2", "n3");
        assertThat(serve.err()).contains("genesis imported").doesNotContain("Exception");

        int exit = serve.stop();
        assertThat(exit).as(serve.err()).isZero();
    }

    /** Waits for the import: status's counts of nodes, modules and assignments, as the mesh file has them. */
    private JsonNode awaitStatus(BrokerUpstream caller, int nodes, int modules, int assignments) {
        return await("status with the genesis mesh").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> call(caller, "status"),
                        status -> status.path("nodes").asInt(-1) == nodes && status.path("modules").asInt(-1) == modules
                                && status.path("assignments").asInt(-1) == assignments);
    }

    private static JsonNode call(BrokerUpstream caller, String verb) {
        return BrokerCalls.succeeded(caller, verb, Map.of());
    }

    /** Three nodes on this machine: the store on n1, the broker and the bus on n2, the controller on n3. */
    private Path meshFile() throws IOException {
        Map<String, Object> mesh = Map.of(
                "nodes", List.of(node("n1"), node("n2"), node(CONTROLLER_NODE)),
                "modules", List.of(ROOT.resolve("manifest.json").toString(),
                        ROOT.resolve("examples/modules/mesh-store.json").toString(),
                        ROOT.resolve("examples/modules/mesh-broker.json").toString(),
                        ROOT.resolve("examples/modules/mesh-bus.json").toString()),
                "assignments", List.of(assignment("mesh-store", "n1"), assignment("mesh-broker", "n2"),
                        assignment("mesh-bus", "n2"), assignment("mesh-controller", CONTROLLER_NODE)));
        return Files.writeString(dir.resolve("mesh.json"), JSON.writeValueAsString(mesh));
    }

    private static Map<String, String> node(String name) {
        return Map.of("name", name, "address", "127.0.0.1", "system", "debian-12");
    }

    private static Map<String, String> assignment(String module, String node) {
        return Map.of("module", module, "node", node);
    }

    private static JsonNode controllerProcess(JsonNode declaration) {
        for (JsonNode process : declaration.path("processes")) {
            if (process.path("module").asString().equals("mesh-controller")) {
                return process;
            }
        }
        throw new AssertionError("no mesh-controller process in " + declaration);
    }

    /** What the host's secret source holds for each of the controller's own secrets. */
    private String secretValue(String name) throws IOException {
        return switch (name) {
            case "store-inventory" -> store(Database.INVENTORY);
            case "store-identity" -> store(Database.IDENTITY);
            case "store-licences" -> store(Database.LICENCES);
            case "broker-address" -> "{\"user\": \"guest\", \"password\": \"guest\", \"vhost\": \"" + vhost + "\"}";
            case "broker-management" -> "{\"user\": \"guest\", \"password\": \"guest\"}";
            case "broker-certificate" -> Files.readString(dir.resolve("tls/ca.pem"));
            case "bus-nats" -> "{\"url\": \"" + MeshEnvironment.NATS_URL + "\"}";
            default -> throw new AssertionError("the manifest declares a secret this test does not know: " + name);
        };
    }

    /** A database of its own, created empty: the declared preparation migrates it. */
    private static String store(Database database) {
        Endpoint endpoint = databases.empty(database);
        assertThat(endpoint.host() + ":" + endpoint.port()).as("the manifest's ${seat:mesh-store:5432} on 127.0.0.1")
                .isIn("127.0.0.1:5432", "localhost:5432");
        String password = endpoint.password().isEmpty() ? "trusted-on-loopback" : endpoint.password().reveal();
        return "{\"user\": \"" + endpoint.user() + "\", \"password\": \"" + password + "\", \"database\": \""
                + endpoint.database() + "\"}";
    }

    /** Where a declared path under /var/lib is, outside the processes' mount namespace. */
    private static Path onHost(Path varLib, String declared) {
        assertThat(declared).as("a declared path").startsWith("/var/lib/");
        return varLib.resolve(declared.substring("/var/lib/".length()));
    }

    private static void place(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** The argv run in a mount namespace whose /var/lib is {@code varLib}. */
    private static List<String> namespaced(Path varLib, List<String> argv) {
        List<String> command = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount --bind \"$0\" /var/lib && exec \"$@\"", varLib.toString()));
        command.addAll(argv);
        return command;
    }

    private Hosted hosted(Path varLib, Path bundle, List<String> argv, Map<String, String> env)
            throws IOException, InterruptedException {
        Path output = dir.resolve("hosted-" + System.nanoTime() + ".log");
        ProcessBuilder builder = new ProcessBuilder(namespaced(varLib, argv)).directory(bundle.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(argv + " did not end in 120 s: " + Files.readString(output));
        }
        return new Hosted(process.exitValue(), Files.readString(output));
    }

    private record Hosted(int exitCode, String output) {
    }

    /** The declaration's environment, and the host's PATH. */
    private static Map<String, String> env(JsonNode declared) {
        Map<String, String> env = new HashMap<>();
        declared.properties().forEach(entry -> env.put(entry.getKey(), entry.getValue().asString()));
        env.put("PATH", HOST_PATH);
        return env;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(item -> strings.add(item.asString()));
        return strings;
    }

    /** A CA for this run, a certificate for 127.0.0.1 it signs, and stunnel on 127.0.0.1:5671 → RabbitMQ. */
    private Process startStunnel() throws IOException, InterruptedException {
        Path tls = Files.createDirectories(dir.resolve("tls"));
        Files.writeString(tls.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                + "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
        command(tls, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-days", "1", "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=genesis test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        command(tls, "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
        command(tls, "openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", Long.toString(System.nanoTime()), "-days", "1", "-out", "server.pem", "-extfile",
                "server.ext");
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), TLS_PORT), 500);
            throw new AssertionError("127.0.0.1:" + TLS_PORT + " is taken; this test puts stunnel there, where the "
                    + "manifest's ${seat:mesh-broker:5671} points: stop what listens on it");
        } catch (IOException expected) {
            // Nothing listens there: stunnel may.
        }
        Path configuration = Files.writeString(tls.resolve("stunnel.conf"), "foreground = yes\npid =\n[amqps]\n"
                + "accept = 127.0.0.1:" + TLS_PORT + "\nconnect = 127.0.0.1:5672\ncert = " + tls.resolve("server.pem")
                + "\nkey = " + tls.resolve("server.key") + "\n");
        Process process = new ProcessBuilder("stunnel", configuration.toString()).redirectErrorStream(true)
                .redirectOutput(tls.resolve("stunnel.log").toFile()).start();
        try {
            Listening.await("stunnel (install it: apt-get install -y stunnel4)", TLS_PORT, process,
                    Duration.ofSeconds(30), () -> {
                        try {
                            return Files.readString(tls.resolve("stunnel.log"));
                        } catch (IOException e) {
                            return "(no log: " + e.getMessage() + ")";
                        }
                    });
        } catch (AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
        return process;
    }

    /** Runs a command to its end in {@code directory}; fails unless it exits 0. */
    private static String command(Path directory, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0)
                .as(String.join(" ", command) + ": " + output).isTrue();
        return output;
    }
}
