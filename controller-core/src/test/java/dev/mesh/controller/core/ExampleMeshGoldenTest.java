package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole output for {@code examples/mesh.json}: its declarations and its plan from nothing, as
 * golden files under {@code src/test/resources/golden/}. Run with {@code -Dgolden.update=true} to
 * rewrite them after a deliberate change, then review the diff.
 */
class ExampleMeshGoldenTest {

    private static final Path MESH = Path.of("../examples/mesh.json");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    /**
     * Reads the example mesh file plainly. The mesh-file reader with located problems is not
     * written yet; when it is, this test uses it instead.
     */
    static Mesh exampleMesh() throws IOException {
        JsonNode file = JsonMapper.builder().build().readTree(MESH.toFile());
        List<Node> nodes = new ArrayList<>();
        file.path("nodes").forEach(n -> nodes.add(new Node(n.path("name").asString(), n.path("address").asString(),
                n.path("system").asString())));
        List<Manifest> modules = new ArrayList<>();
        file.path("modules").forEach(m -> modules.add(Manifest.read(MESH.resolveSibling(m.asString()))));
        List<Assignment> assignments = new ArrayList<>();
        file.path("assignments").forEach(a -> assignments.add(new Assignment(a.path("module").asString(),
                a.path("node").asString())));
        JsonNode layout = file.path("layout");
        return new Mesh(nodes, modules, assignments,
                new Layout(layout.path("mesh").asString(), layout.path("modules").asString()));
    }

    @Test
    void compose_exampleMesh_givesTheGoldenDeclarations() throws IOException {
        Composition composition = Composer.compose(exampleMesh());

        assertThat(composition.problems()).isEmpty();
        assertGolden("declarations.json", pretty(CanonicalJson.text(composition.declarations())));
    }

    @Test
    void plan_exampleMeshFromNothing_givesTheGoldenPlan() throws IOException {
        Plan plan = Planner.plan(exampleMesh(), Map.of(), Set.of()).plan();

        assertGolden("plan.json", pretty(CanonicalJson.text(plan)));
        assertGolden("plan.txt", PlanText.of(plan));
    }

    private static String pretty(String json) {
        JsonMapper mapper = JsonMapper.builder().build();
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(mapper.readTree(json)) + "\n";
    }

    private static void assertGolden(String name, String actual) throws IOException {
        Path golden = GOLDEN.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, actual);
        }
        assertThat(actual).isEqualTo(Files.readString(golden));
    }
}
