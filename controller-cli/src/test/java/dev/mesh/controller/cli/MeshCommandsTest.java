package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code compose} and {@code plan} on the example mesh give the golden output of controller-core
 * (the same files {@code ExampleMeshGoldenTest} checks the functions against), and bad input of
 * every kind gets its located problem and exit code.
 */
class MeshCommandsTest {

    private static final String MESH = "../examples/mesh.json";
    private static final Path GOLDEN = Path.of("../controller-core/src/test/resources/golden");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    /**
     * The command line built for one invocation ({@link MeshCommands#forArguments}) holds the command named
     * alone, or the whole tree: either way an invocation prints and exits as with the whole tree.
     */
    @Test
    void forArguments_printsAndExitsAsTheWholeTree() {
        List<List<String>> invocations = List.of(List.of("validate", "../manifest.json"),
                List.of("validate", "--json", "../examples/modules/mesh-bus.json", "no-such-file.json"),
                List.of("validate", "--no-such-option"), List.of("plan", "--mesh", MESH), List.of("compose", "--help"),
                List.of("valdate", "x.json"), List.of("--help"), List.of());
        for (List<String> args : invocations) {
            String[] argv = args.toArray(String[]::new);
            CommandRun whole = Cli.run(argv);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exitCode = MeshCommands.forArguments(argv, System.getenv(), InputStream.nullInputStream(),
                    OutputStream.nullOutputStream(), List.of(), Upstreams.HTTP_ONLY)
                    .setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(argv);

            assertThat(new CommandRun(exitCode, out.toString(), err.toString())).as(String.join(" ", args))
                    .isEqualTo(whole);
        }
    }

    @Test
    void compose_exampleMesh_json_givesTheGoldenDeclarations_exits0() throws IOException {
        CommandRun run = Cli.run("compose", "--mesh", MESH, "--json");

        assertThat(run.exitCode()).isZero();
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.get("declarations")).isEqualTo(JSON.readTree(GOLDEN.resolve("declarations.json").toFile()));
        assertThat(document.get("problems").isEmpty()).isTrue();
        assertThat(run.err()).isEmpty();
    }

    @Test
    void compose_exampleMesh_text_summarisesEachNode() {
        CommandRun run = Cli.run("compose", "--mesh", MESH);

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(4);
        assertThat(run.lines().getFirst()).startsWith("alpha: sha256:").contains("2 processes")
                .endsWith("holds mesh-host, mesh-store");
        assertThat(run.lines().getLast()).isEqualTo("3 composed, 0 problems");
    }

    @Test
    void plan_exampleMeshFromNothing_givesTheGoldenPlan_exits2() throws IOException {
        CommandRun text = Cli.run("plan", "--mesh", MESH);
        CommandRun json = Cli.run("plan", "--mesh", MESH, "--json");

        assertThat(text.exitCode()).isEqualTo(2);
        assertThat(text.out()).isEqualTo(Files.readString(GOLDEN.resolve("plan.txt")));
        assertThat(json.exitCode()).isEqualTo(2);
        assertThat(JSON.readTree(json.out()).get("plan")).isEqualTo(JSON.readTree(GOLDEN.resolve("plan.json").toFile()));
    }

    @Test
    void plan_againstWhatComposeWrote_hasNoChanges_exits0() {
        Path applied = dir.resolve("applied");
        assertThat(Cli.run("compose", "--mesh", MESH, "--out", applied.toString()).exitCode()).isZero();

        CommandRun run = Cli.run("plan", "--mesh", MESH, "--applied", applied.toString());

        assertThat(run.out()).isEqualTo("No changes. Every node runs its declaration.\n");
        assertThat(run.exitCode()).isZero();
    }

    @Test
    void plan_afterAnAssignmentMoves_changesOnlyWhatMoved_exits2() throws IOException {
        Path applied = dir.resolve("applied");
        Cli.run("compose", "--mesh", MESH, "--out", applied.toString());
        Path moved = exampleMeshCopy(Files.readString(Path.of(MESH))
                .replace("{\"module\": \"mesh-bus\", \"node\": \"beta\"}", "{\"module\": \"mesh-bus\", \"node\": \"gamma\"}"));

        CommandRun run = Cli.run("plan", "--mesh", moved.toString(), "--applied", applied.toString(), "--json");

        assertThat(run.exitCode()).isEqualTo(2);
        List<String> nodes = new ArrayList<>();
        JSON.readTree(run.out()).get("plan").get("changes").forEach(c -> nodes.add(c.get("node").asString()));
        assertThat(nodes).isNotEmpty().containsOnly("beta", "gamma");
    }

    @Test
    void plan_appliedFileEditedByHand_isRevisionMismatch_exits1_withoutPlan() throws IOException {
        Path applied = dir.resolve("applied");
        Cli.run("compose", "--mesh", MESH, "--out", applied.toString());
        Path alpha = applied.resolve("alpha.json");
        Files.writeString(alpha, Files.readString(alpha).replaceFirst("\"0700\"", "\"0777\""));

        CommandRun run = Cli.run("plan", "--mesh", MESH, "--applied", applied.toString(), "--json");

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.get("plan").isNull()).isTrue();
        assertThat(document.get("problems").get(0).get("code").asString()).isEqualTo("revision-mismatch");
        assertThat(document.get("problems").get(0).get("file").asString()).isEqualTo(alpha.toString());
    }

    @Test
    void plan_appliedFileOfAnotherNode_isNodeMismatch_exits1() throws IOException {
        Path applied = dir.resolve("applied");
        Cli.run("compose", "--mesh", MESH, "--out", applied.toString());
        Files.move(applied.resolve("alpha.json"), applied.resolve("beta.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        CommandRun run = Cli.run("plan", "--mesh", MESH, "--applied", applied.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("beta.json:0:0: /node: the file is named for node beta but holds the "
                + "declaration of node alpha; rename the file to alpha.json");
    }

    @Test
    void plan_appliedFileOfUnknownNode_isAWarning_planStillMade() throws IOException {
        Path applied = dir.resolve("applied");
        Cli.run("compose", "--mesh", MESH, "--out", applied.toString());
        Files.copy(applied.resolve("alpha.json"), applied.resolve("delta.json"));

        CommandRun run = Cli.run("plan", "--mesh", MESH, "--applied", applied.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines().getFirst()).startsWith("warning: " + applied.resolve("delta.json"))
                .contains("the mesh has no node \"delta\"");
        assertThat(run.out()).endsWith("No changes. Every node runs its declaration.\n");
    }

    @Test
    void plan_appliedIsNotADirectory_exits1() {
        CommandRun run = Cli.run("plan", "--mesh", MESH, "--applied", dir.resolve("absent").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("is not a directory");
    }

    @Test
    void compose_seatWithoutHolder_blocksOnlyTheNodesThatNeedIt_exits1() throws IOException {
        Path mesh = exampleMeshCopy(Files.readString(Path.of(MESH))
                .replace("    {\"module\": \"mesh-store\", \"node\": \"alpha\"},\n", ""));

        CommandRun run = Cli.run("compose", "--mesh", mesh.toString(), "--json");

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode document = JSON.readTree(run.out());
        List<String> composed = new ArrayList<>();
        document.get("declarations").forEach(d -> composed.add(d.get("node").asString()));
        assertThat(composed).containsExactly("alpha", "beta");
        assertThat(document.get("problems")).isNotEmpty().allSatisfy(problem -> {
            assertThat(problem.get("code").asString()).isEqualTo("unresolved-seat");
            assertThat(problem.get("message").asString()).contains("mesh-store");
        });
    }

    @Test
    void compose_badMeshFile_printsLocatedProblems_exits1() throws IOException {
        Path mesh = exampleMeshCopy(Files.readString(Path.of(MESH)).replace("\"node\": \"gamma\"}", "\"node\": \"gama\"}"));

        CommandRun text = Cli.run("compose", "--mesh", mesh.toString());
        CommandRun json = Cli.run("plan", "--mesh", mesh.toString(), "--json");

        assertThat(text.exitCode()).isEqualTo(1);
        assertThat(text.lines().getFirst()).startsWith(mesh + ":18:43: /assignments/3/node: the mesh has no node "
                + "\"gama\"").endsWith("(did you mean \"gamma\"?)");
        assertThat(json.exitCode()).isEqualTo(1);
        assertThat(JSON.readTree(json.out()).get("problems").get(0).get("code").asString()).isEqualTo("unknown-node");
    }

    @Test
    void compose_oneNode_printsOnlyIt_withExplanations() {
        CommandRun run = Cli.run("compose", "--mesh", MESH, "--node", "gamma", "--json", "--explain");

        assertThat(run.exitCode()).isZero();
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.get("declarations")).singleElement()
                .satisfies(d -> assertThat(d.get("node").asString()).isEqualTo("gamma"));
        List<String> holders = new ArrayList<>();
        document.get("explanations").forEach(e -> e.get("references").forEach(r -> {
            if (r.has("holder")) {
                holders.add(r.get("holder").asString());
            }
        }));
        assertThat(holders).contains("alpha", "beta");
    }

    @Test
    void compose_unknownNode_isUsageError_exits2() {
        CommandRun run = Cli.run("compose", "--mesh", MESH, "--node", "delta");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("the mesh " + MESH + " has no node \"delta\"; its nodes are: alpha, beta, gamma");
    }

    @Test
    void plan_usageError_exits1_notTheChangesCode() {
        CommandRun run = Cli.run("plan", "--mesh", MESH, "--bogus");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("Unknown option: '--bogus'");
    }

    @Test
    void compose_outIntoAFile_failsWithOneLine_exits1() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");

        CommandRun run = Cli.run("compose", "--mesh", MESH, "--out", file.resolve("sub").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("mesh-controller: cannot write the declarations to ").doesNotContain("\tat ");
    }

    /** The example mesh's text with its module paths made absolute, written into the temporary directory. */
    private Path exampleMeshCopy(String text) throws IOException {
        String modules = Path.of("../examples/modules").toAbsolutePath().normalize() + "/";
        return Files.writeString(dir.resolve("mesh.json"), text.replace("\"modules/", "\"" + modules));
    }
}
