package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mesh file reader: the example mesh reads; each kind of bad input is one located problem. */
class MeshFileTest {

    private static final String NODES = """
            "nodes": [
              {"name": "alpha", "address": "10.0.0.1", "system": "debian-12"},
              {"name": "beta", "address": "beta.mesh.internal", "system": "debian-12"}
            ]""";

    private static final String INLINE = """
            {"module": "web", "version": "1.0.0",
             "resources": [{"type": "user", "id": "web", "name": "web"}]}""";

    @TempDir
    Path dir;

    @Test
    void read_exampleMesh_givesItsNodesModulesAndAssignments() {
        MeshFile mesh = MeshFile.read(Path.of("../examples/mesh.json"));

        assertThat(mesh.nodes()).extracting(MeshFile.Node::name).containsExactly("alpha", "beta", "gamma");
        assertThat(mesh.manifests()).extracting(Manifest::module).containsExactly("mesh-controller", "mesh-store",
                "mesh-broker", "mesh-bus", "mesh-host");
        assertThat(mesh.assignments()).hasSize(7).first().isEqualTo(new MeshFile.Assignment("mesh-store", "alpha",
                new Location("../examples/mesh.json", "/assignments/0", 15, 5)));
        assertThat(mesh.modules().get(1).location())
                .isEqualTo(new Location("../examples/mesh.json", "/modules/1", 9, 5));
        assertThat(mesh.layout()).isEqualTo(Layout.DEFAULT);
    }

    @Test
    void parse_inlineManifestAndLayout_readsBoth() {
        MeshFile mesh = parse("{" + NODES + """
                , "modules": [%s],
                "assignments": [{"module": "web", "node": "beta"}],
                "layout": {"mesh": "/srv/mesh/", "modules": "/srv/modules"}}""".formatted(INLINE));

        assertThat(mesh.manifests()).extracting(Manifest::module).containsExactly("web");
        assertThat(mesh.modules().getFirst().location().pointer()).isEqualTo("/modules/0");
        assertThat(mesh.layout()).isEqualTo(new Layout("/srv/mesh", "/srv/modules"));
        assertThat(mesh.nodes().get(1).address()).isEqualTo("beta.mesh.internal");
    }

    @Test
    void parse_noLayoutKeys_usesTheDefaultRoots() {
        MeshFile mesh = parse("{" + NODES + ", \"modules\": [], \"assignments\": [], \"layout\": {}}");

        assertThat(mesh.layout()).isEqualTo(Layout.DEFAULT);
    }

    @Test
    void parse_inlineManifestWithProblem_locatesItInTheMeshFile() {
        Problem problem = onlyProblem("{" + NODES + """
                , "modules": [
                  {"module": "web", "version": "1.0.0", "colour": "blue"}
                ],
                "assignments": []}""");

        assertThat(problem.code()).isEqualTo("unknown-field");
        assertThat(problem.location()).isEqualTo(new Location("mesh.json", "/modules/0/colour", 5, 41));
    }

    @Test
    void parse_modulePathWithProblem_locatesItInTheManifestFile() throws IOException {
        Files.createDirectories(dir.resolve("modules"));
        Files.writeString(dir.resolve("modules/web.json"), "{\"module\": \"web\", \"version\": \"1.0.0\",\n \"slugg\": 1}");

        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [\"modules/web.json\"], \"assignments\": []}");

        assertThat(problem.code()).isEqualTo("unknown-field");
        assertThat(problem.location()).isEqualTo(new Location(dir.resolve("modules/web.json").toString(), "/slugg", 2, 2));
        assertThat(problem.hint()).contains("did you mean \"slug\"?");
    }

    @Test
    void parse_missingModuleFile_isUnreadableAtTheEntry() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [\"modules/nope.json\"], \"assignments\": []}");

        assertThat(problem.code()).isEqualTo("unreadable-file");
        assertThat(problem.location().pointer()).isEqualTo("/modules/0");
        assertThat(problem.message()).contains("modules/nope.json").contains("it does not exist")
                .contains("relative to the mesh file");
    }

    @Test
    void parse_assignmentToUnknownNode_namesTheNodesAndSuggests() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [" + INLINE + "],\n"
                + "\"assignments\": [{\"module\": \"web\", \"node\": \"alhpa\"}]}");

        assertThat(problem.code()).isEqualTo("unknown-node");
        assertThat(problem.location()).isEqualTo(new Location("mesh.json", "/assignments/0/node", 6, 43));
        assertThat(problem.message()).contains("alpha, beta");
        assertThat(problem.hint()).contains("did you mean \"alpha\"?");
    }

    @Test
    void parse_assignmentOfUnknownModule_isLocated() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [],\n"
                + "\"assignments\": [{\"module\": \"web\", \"node\": \"alpha\"}]}");

        assertThat(problem.code()).isEqualTo("unknown-module");
        assertThat(problem.location()).isEqualTo(new Location("mesh.json", "/assignments/0/module", 5, 28));
    }

    @Test
    void parse_assignmentOfModuleThatDidNotRead_reportsOnlyTheModule() {
        List<Problem> problems = problems("{" + NODES + ", \"modules\": [\"missing.json\"],\n"
                + "\"assignments\": [{\"module\": \"web\", \"node\": \"alpha\"}]}");

        assertThat(problems).extracting(Problem::code).containsExactly("unreadable-file");
    }

    @Test
    void parse_sameAssignmentTwice_namesTheFirst() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [" + INLINE + "],\n"
                + "\"assignments\": [{\"module\": \"web\", \"node\": \"alpha\"},\n"
                + "  {\"module\": \"web\", \"node\": \"alpha\"}]}");

        assertThat(problem.code()).isEqualTo("duplicate-assignment");
        assertThat(problem.location().pointer()).isEqualTo("/assignments/1");
        assertThat(problem.related()).extracting(Location::pointer).containsExactly("/assignments/0");
    }

    @Test
    void parse_sameNodeNameTwice_isDuplicateName() {
        Problem problem = onlyProblem("""
                {"nodes": [{"name": "alpha", "address": "10.0.0.1", "system": "debian-12"},
                           {"name": "alpha", "address": "10.0.0.2", "system": "debian-12"}],
                 "modules": [], "assignments": []}""");

        assertThat(problem.code()).isEqualTo("duplicate-name");
        assertThat(problem.location()).isEqualTo(new Location("mesh.json", "/nodes/1", 2, 12));
        assertThat(problem.message()).contains("the node \"alpha\" appears twice").contains("/nodes/0");
    }

    @Test
    void parse_sameModuleTwice_isDuplicateName() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [" + INLINE + ", " + INLINE + "], "
                + "\"assignments\": []}");

        assertThat(problem.code()).isEqualTo("duplicate-name");
        assertThat(problem.location().pointer()).isEqualTo("/modules/1");
    }

    @Test
    void parse_twoModulesWithOneSlug_isSlugConflict() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": ["
                + "{\"module\": \"web\", \"version\": \"1\", \"slug\": \"w\"},"
                + "{\"module\": \"web-two\", \"version\": \"1\", \"slug\": \"w\"}], \"assignments\": []}");

        assertThat(problem.code()).isEqualTo("slug-conflict");
        assertThat(problem.location().pointer()).isEqualTo("/modules/1");
        assertThat(problem.related()).extracting(Location::pointer).containsExactly("/modules/0");
    }

    @Test
    void parse_badNodeFields_reportsEachAtItsField() {
        List<Problem> problems = problems("""
                {"nodes": [{"name": "Alpha", "address": "10.0.0.1 ", "system": "Debian"}],
                 "modules": [], "assignments": []}""");

        assertThat(problems).extracting(Problem::code).containsOnly("invalid-format");
        assertThat(problems).extracting(p -> p.location().pointer())
                .containsExactly("/nodes/0/name", "/nodes/0/address", "/nodes/0/system");
    }

    @Test
    void parse_missingLists_pointsAtTheRoot() {
        List<Problem> problems = problems("{\"nodes\": []}");

        assertThat(problems).extracting(Problem::code).containsExactly("missing-field", "missing-field");
        assertThat(problems).extracting(Problem::message).anySatisfy(m -> assertThat(m).contains("\"modules\""))
                .anySatisfy(m -> assertThat(m).contains("\"assignments\"").contains("[] for none"));
        assertThat(problems).allSatisfy(p -> assertThat(p.location()).isEqualTo(new Location("mesh.json", "", 1, 1)));
    }

    @Test
    void parse_moduleNeitherPathNorObject_isWrongType() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [42], \"assignments\": []}");

        assertThat(problem.code()).isEqualTo("wrong-type");
        assertThat(problem.message()).contains("the path of its manifest (a string) or the manifest itself");
    }

    @Test
    void parse_relativeLayoutRoot_isInvalidPath() {
        Problem problem = onlyProblem("{" + NODES + ", \"modules\": [], \"assignments\": [],\n"
                + "\"layout\": {\"mesh\": \"var/lib/mesh\"}}");

        assertThat(problem.code()).isEqualTo("invalid-path");
        assertThat(problem.location()).isEqualTo(new Location("mesh.json", "/layout/mesh", 5, 20));
    }

    @Test
    void parse_unknownRootField_suggests() {
        List<Problem> problems = problems("{" + NODES + ", \"modules\": [], \"asignments\": []}");

        assertThat(problems).extracting(Problem::code).containsExactlyInAnyOrder("unknown-field", "missing-field");
        assertThat(problems).filteredOn(p -> p.code().equals("unknown-field")).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("unknown-field");
            assertThat(p.hint()).contains("did you mean \"assignments\"?");
        });
    }

    @Test
    void parse_notJson_isJsonSyntax() {
        assertThat(onlyProblem("{\"nodes\": [").code()).isEqualTo("json-syntax");
    }

    @Test
    void read_missingMeshFile_isUnreadable() {
        ManifestException e = catchThrowableOfType(ManifestException.class,
                () -> MeshFile.read(dir.resolve("absent.json")));

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("unreadable-file");
            assertThat(p.message()).contains("cannot read the mesh file").contains("it does not exist");
        });
    }

    private MeshFile parse(String json) {
        return MeshFile.parse(json.getBytes(StandardCharsets.UTF_8), "mesh.json", dir);
    }

    private List<Problem> problems(String json) {
        return catchThrowableOfType(ManifestException.class, () -> parse(json)).problems();
    }

    private Problem onlyProblem(String json) {
        List<Problem> problems = problems(json);
        assertThat(problems).hasSize(1);
        return problems.getFirst();
    }
}
