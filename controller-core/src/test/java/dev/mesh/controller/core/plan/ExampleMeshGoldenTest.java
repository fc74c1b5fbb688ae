package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.Composer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole output for {@code examples/mesh.json}: its declarations and its plan from nothing, as
 * golden files under {@code src/test/resources/golden/}. Run with {@code -Dgolden.update=true} to
 * rewrite them after a deliberate change, then review the diff.
 */
public class ExampleMeshGoldenTest {

    private static final Path MESH = Path.of("../examples/mesh.json");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    public static Mesh exampleMesh() {
        return Mesh.read(MESH);
    }

    @Test
    void compose_exampleMesh_givesTheGoldenDeclarations() throws IOException {
        Composition composition = Composer.compose(exampleMesh());

        assertThat(composition.problems()).isEmpty();
        assertGolden("declarations.json", pretty(CanonicalJson.text(composition.declarations())));
    }

    @Test
    void plan_exampleMeshFromNothing_givesTheGoldenPlan() throws IOException {
        Plan plan = Planner.plan(exampleMesh(), Map.of(), Map.of()).plan();

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
