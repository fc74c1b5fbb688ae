package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.plan.DeclarationReader;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code genesis} on the example mesh writes each node's declaration exactly as {@code compose --json}
 * prints it, the bundle archive with its digest and an inventory that reads back as the same mesh; every
 * refusal writes nothing.
 */
class GenesisCommandTest {

    private static final String MESH = "../examples/mesh.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] ARCHIVE = "not really a tar.gz, but bytes to copy\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Path bundleDirectory;
    private Path archive;

    @BeforeEach
    void bundle() throws IOException {
        bundleDirectory = Files.createDirectories(dir.resolve("build/mesh-controller"));
        archive = Files.write(dir.resolve("build/mesh-controller.tar.gz"), ARCHIVE);
    }

    @Test
    void genesis_exampleMesh_writesDeclarationsAsComposeJsonPrintsThem_archiveWithDigest_inventory() throws Exception {
        Path out = dir.resolve("genesis");

        CommandRun run = run("genesis", "--mesh", MESH, "--out", out.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        try (Stream<Path> files = Files.walk(out)) {
            assertThat(files.filter(Files::isRegularFile).map(p -> out.relativize(p).toString()).sorted())
                    .containsExactly("bus/authorization.conf", "bus/credentials/alpha.json", "bus/credentials/beta.json",
                            "bus/credentials/gamma.json", "bus/credentials/mesh-controller.json",
                            "declarations/alpha.json", "declarations/beta.json", "declarations/gamma.json",
                            "inventory.json", "mesh-controller.tar.gz", "mesh-controller.tar.gz.sha256");
        }
        JsonNode composed = JSON.readTree(Cli.run("compose", "--mesh", MESH, "--json").out()).get("declarations");
        assertThat(composed).hasSize(3);
        for (JsonNode declaration : composed) {
            String node = declaration.get("node").asString();
            byte[] written = Files.readAllBytes(out.resolve("declarations/" + node + ".json"));
            // compose --json prints each declaration as one object on one line: the same bytes, here ASCII.
            assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(JSON.writeValueAsString(declaration));
            // Read back as plan --applied reads a node's declaration: the revision is checked against the content.
            assertThat(DeclarationReader.read(written, node + ".json").revision())
                    .isEqualTo(declaration.get("revision").asString());
            assertThat(run.out()).contains("declarations/" + node + ".json: " + node + " "
                    + declaration.get("revision").asString());
        }
        assertThat(Files.readAllBytes(out.resolve("mesh-controller.tar.gz"))).isEqualTo(ARCHIVE);
        assertThat(Files.readString(out.resolve("mesh-controller.tar.gz.sha256")))
                .isEqualTo(sha256(ARCHIVE) + "  mesh-controller.tar.gz\n");
        assertThat(run.lines().getLast()).isEqualTo("genesis written to " + out
                + ": 3 declarations, the bundle archive, the inventory and 4 bus users");
        try (Stream<Path> siblings = Files.list(dir)) {
            assertThat(siblings.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("build", "genesis");
        }
    }

    @Test
    void genesis_busUsers_eachNodePublishesItsOwnFactsOnly_passwordsOnlyInTheirOwnerOnlyCredentialsFiles()
            throws Exception {
        Path out = dir.resolve("genesis");
        CommandRun run = run("genesis", "--mesh", MESH, "--out", out.toString(), "--bus-url", "nats://10.20.0.13:4222");
        assertThat(run.exitCode()).as(run.err()).isZero();

        String authorization = Files.readString(out.resolve("bus/authorization.conf"));
        assertThat(authorization).contains("{user: \"alpha\", password: \"$2a$11$")
                .contains("permissions: {publish: {allow: [\"mesh.nodes.alpha.facts\"]}, subscribe: {deny: [\">\"]}}")
                .contains("{user: \"mesh-controller\", password: \"$2a$11$")
                .contains("permissions: {publish: {allow: [\"mesh.events.>\"]}, subscribe: {allow: "
                        + "[\"mesh.nodes.*.facts\"]}}");
        for (String user : List.of("mesh-controller", "alpha", "beta", "gamma")) {
            Path file = out.resolve("bus/credentials/" + user + ".json");
            assertThat(Files.getPosixFilePermissions(file)).as(user)
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            JsonNode credentials = JSON.readTree(file.toFile());
            assertThat(credentials.propertyNames()).containsExactly("url", "user", "password");
            assertThat(credentials.get("url").asString()).isEqualTo("nats://10.20.0.13:4222");
            assertThat(credentials.get("user").asString()).isEqualTo(user);
            String password = credentials.get("password").asString();
            assertThat(password).hasSize(32);
            assertThat(authorization).as("no password in the server's file").doesNotContain(password);
            assertThat(run.out()).doesNotContain(password);
            String hash = authorization.lines().filter(l -> l.contains("{user: \"" + user + "\""))
                    .map(l -> l.replaceFirst(".*password: \"([^\"]+)\".*", "$1")).findFirst().orElseThrow();
            assertThat(org.mindrot.jbcrypt.BCrypt.checkpw(password, hash)).as(user + "'s hash is of its password")
                    .isTrue();
        }
        assertThat(Files.getPosixFilePermissions(out.resolve("bus/credentials")))
                .isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(run.out()).contains("bus/authorization.conf: 4 users (mesh-controller and 3 nodes)");
    }

    @Test
    void genesis_busUrlNotANatsUrl_isAUsageError() {
        CommandRun run = run("genesis", "--mesh", MESH, "--out", dir.resolve("genesis").toString(), "--bus-url",
                "http://10.20.0.13:4222");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--bus-url http://10.20.0.13:4222: the bus's URL is nats://host:port or "
                + "tls://host:port");
        assertThat(dir.resolve("genesis")).doesNotExist();
    }

    @Test
    void genesis_inventory_isAMeshFileWithManifestsInline_composingTheSameDeclarations() throws IOException {
        Path out = dir.resolve("genesis");
        assertThat(run("genesis", "--mesh", MESH, "--out", out.toString()).exitCode()).isZero();

        JsonNode inventory = JSON.readTree(out.resolve("inventory.json").toFile());
        assertThat(inventory.propertyNames()).containsExactly("nodes", "modules", "assignments");
        assertThat(inventory.get("nodes")).hasSize(3);
        assertThat(inventory.get("nodes").get(0)).isEqualTo(JSON.readTree(
                "{\"name\": \"alpha\", \"address\": \"10.20.0.11\", \"system\": \"debian-12\"}"));
        assertThat(inventory.get("modules")).hasSize(5).allMatch(JsonNode::isObject);
        assertThat(inventory.get("modules").get(0)).isEqualTo(JSON.readTree(
                Path.of("../examples/modules/mesh-controller.json").toFile()));
        assertThat(inventory.get("assignments")).hasSize(7);
        List<String> fromInventory = Composer.compose(Mesh.read(out.resolve("inventory.json"))).declarations()
                .stream().map(Declaration::revision).toList();
        List<String> fromMesh = Composer.compose(Mesh.read(Path.of(MESH))).declarations().stream()
                .map(Declaration::revision).toList();
        assertThat(fromInventory).isEqualTo(fromMesh).hasSize(3);
    }

    @Test
    void genesis_withoutBundle_takesTheArchiveBesideTheBundleDirectory_andChecksItsDigestFile() throws IOException {
        Files.writeString(dir.resolve("build/mesh-controller.tar.gz.sha256"), sha256(ARCHIVE)
                + "  mesh-controller.tar.gz\n");
        Path out = dir.resolve("genesis");

        CommandRun run = run("genesis", "--mesh", MESH, "--out", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("mesh-controller.tar.gz: sha256 " + sha256(ARCHIVE) + ", " + ARCHIVE.length
                + " bytes, from " + archive);
    }

    @Test
    void genesis_archiveNotMatchingItsDigestFile_isRefused_exit1_nothingWritten() throws IOException {
        String other = "0".repeat(64);
        Files.writeString(dir.resolve("build/mesh-controller.tar.gz.sha256"), other + "  mesh-controller.tar.gz\n");
        Path out = dir.resolve("genesis");

        CommandRun run = run("genesis", "--mesh", MESH, "--out", out.toString(), "--bundle", archive.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("mesh-controller: the bundle archive " + archive + " does not match its digest "
                + "file " + archive + ".sha256 (the file says sha256 " + other + ", the archive's is " + sha256(ARCHIVE)
                + "): the archive is damaged or is not the one the digest was made for; build it again, or pass the "
                + "right archive with --bundle\n");
        assertNothingWritten();
    }

    @Test
    void genesis_noBundleDirectory_noBundleOption_isAUsageError_sayingToPassBundle() {
        CommandRun run = run(Optional.empty(), "genesis", "--mesh", MESH, "--out", dir.resolve("genesis").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("no bundle archive: this mesh-controller does not run from a bundle, so there "
                + "is no mesh-controller.tar.gz beside it; pass --bundle ARCHIVE");
        assertNothingWritten();
    }

    @Test
    void genesis_nonEmptyOut_isAUsageError_andLeavesItAlone() throws IOException {
        Path out = Files.createDirectories(dir.resolve("genesis"));
        Files.writeString(out.resolve("notes.txt"), "mine");

        CommandRun run = run("genesis", "--mesh", MESH, "--out", out.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("--out " + out + " is not empty (it holds notes.txt); genesis writes a new "
                + "directory whole: remove it (or move it away), or choose another --out");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files).containsExactly(out.resolve("notes.txt"));
        }
    }

    @Test
    void genesis_emptyOut_isFilled() throws IOException {
        Path out = Files.createDirectories(dir.resolve("genesis"));

        assertThat(run("genesis", "--mesh", MESH, "--out", out.toString()).exitCode()).isZero();
        assertThat(out.resolve("inventory.json")).isRegularFile();
    }

    @Test
    void genesis_nodeBlockedBySeatWithoutHolder_failsWithTheReason_exit1_nothingWritten() throws IOException {
        Path mesh = exampleMeshCopy(Files.readString(Path.of(MESH))
                .replace("    {\"module\": \"mesh-store\", \"node\": \"alpha\"},\n", ""));

        CommandRun run = run("genesis", "--mesh", mesh.toString(), "--out", dir.resolve("genesis").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        List<String> lines = run.err().lines().toList();
        assertThat(lines.getFirst()).contains("mesh-store");
        assertThat(lines.getLast()).startsWith("mesh-controller: genesis needs every node's declaration, and 1 node did "
                + "not compose: gamma (").endsWith("; fix the mesh file (compose --mesh " + mesh + " shows each node's "
                + "problems); nothing was written to " + dir.resolve("genesis"));
        assertThat(run.out()).isEmpty();
        assertNothingWritten();
    }

    @Test
    void genesis_meshFileWithProblems_printsThemLocated_exit1_nothingWritten() throws IOException {
        Path mesh = exampleMeshCopy(Files.readString(Path.of(MESH)).replace("\"node\": \"gamma\"}", "\"node\": \"gama\"}"));

        CommandRun run = run("genesis", "--mesh", mesh.toString(), "--out", dir.resolve("genesis").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        List<String> lines = run.err().lines().toList();
        assertThat(lines.getFirst()).startsWith(mesh + ":18:43: /assignments/3/node: the mesh has no node \"gama\"");
        assertThat(lines.getLast()).isEqualTo("mesh-controller: the mesh file " + mesh + " has 2 problems; nothing "
                + "was written to " + dir.resolve("genesis"));
        assertNothingWritten();
    }

    @Test
    void genesis_layoutOtherThanTheDefault_isRefused_exit1() throws IOException {
        Path mesh = exampleMeshCopy(Files.readString(Path.of(MESH)).replace("\"mesh\": \"/var/lib/mesh\"",
                "\"mesh\": \"/srv/mesh\""));

        CommandRun run = run("genesis", "--mesh", mesh.toString(), "--out", dir.resolve("genesis").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("mesh-controller: " + mesh + ": /layout: the mesh's controller composes with "
                + "the default layout (/var/lib/mesh, /var/lib/mesh/modules)");
        assertNothingWritten();
    }

    private void assertNothingWritten() {
        try (Stream<Path> siblings = Files.list(dir)) {
            assertThat(siblings.map(p -> p.getFileName().toString()).filter(n -> !n.equals("mesh.json")))
                    .containsExactly("build");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private Path exampleMeshCopy(String text) throws IOException {
        String modules = Path.of("../examples/modules").toAbsolutePath().normalize() + "/";
        return Files.writeString(dir.resolve("mesh.json"), text.replace("\"modules/", "\"" + modules));
    }

    private CommandRun run(String... args) {
        return run(Optional.of(bundleDirectory), args);
    }

    private static CommandRun run(Optional<Path> bundleDirectory, String... args) {
        return CommandRun.of(MeshCommands.commandLine(Map.of(), InputStream.nullInputStream(),
                OutputStream.nullOutputStream(), List.of(new GenesisCommand(bundleDirectory))), args);
    }

    private static String sha256(byte[] bytes) throws IllegalStateException {
        MessageDigest sha = CanonicalJson.sha256();
        return HexFormat.of().formatHex(sha.digest(bytes));
    }
}
