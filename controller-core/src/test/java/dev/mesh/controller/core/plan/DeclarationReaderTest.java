package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Declarations read back as {@code compose --json} prints them; anything else is a located problem. */
class DeclarationReaderTest {

    private static final List<Declaration> EXAMPLE = Composer.compose(ExampleMeshGoldenTest.exampleMesh())
            .declarations();

    @Test
    void read_canonicalBytesOfEveryExampleDeclaration_givesItBack() {
        for (Declaration declaration : EXAMPLE) {
            assertThat(DeclarationReader.read(CanonicalJson.bytes(declaration), "x.json")).isEqualTo(declaration);
        }
    }

    @Test
    void read_aDeclarationOfTheFormatBeforeVersionsAndDigests_readsBackToItsOwnRevision() {
        // As a controller before issue 22 composed and stored it: artifacts {module, name, system}, no overlap.
        Declaration.Process process = new Declaration.Process("mesh-host", "mesh-host",
                new Declaration.Artifact("mesh-host", null, "host", "debian-12", null, null), List.of("./mesh-host"),
                "root", java.util.Map.of(), List.of(), false, null);
        Declaration unsigned = new Declaration("alpha", "", List.of(), List.of(), List.of(), List.of(),
                List.of(process), List.of(), List.of(), List.of());
        String earlier = CanonicalJson.text(unsigned);
        assertThat(earlier).contains("\"artifact\":{\"module\":\"mesh-host\",\"name\":\"host\",\"system\":\"debian-12\"}")
                .doesNotContain("overlap").doesNotContain("version");
        Declaration stored = unsigned.withRevision(CanonicalJson.digest(unsigned));

        Declaration read = DeclarationReader.read(CanonicalJson.bytes(stored), "stored.json");

        assertThat(read).isEqualTo(stored);
        assertThat(read.processes().getFirst().artifact().version()).isNull();
    }

    @Test
    void read_unknownField_namesItAndWhere() {
        String json = text().replaceFirst("\"accounts\":", "\"colour\":1,\"accounts\":");

        Problem problem = problem(json);

        assertThat(problem.code()).isEqualTo("invalid-declaration");
        assertThat(problem.message()).startsWith("unknown field \"colour\"").contains("compose --json");
        assertThat(problem.location().pointer()).isEqualTo("/colour");
    }

    @Test
    void read_missingField_isInvalid() {
        String json = text().replaceFirst("\"seats\":\\[[^]]*],", "");

        assertThat(problem(json).message()).startsWith("a required field is missing");
    }

    @Test
    void read_wrongTypeDeep_pointsAtTheValue() {
        String json = text().replaceFirst("\"mode\":\"0750\"", "\"mode\":[]");

        Problem problem = problem(json);

        assertThat(problem.message()).startsWith("a value has the wrong type");
        assertThat(problem.location().pointer()).matches("/directories/\\d+/mode");
    }

    @Test
    void read_editedContent_isRevisionMismatch() {
        String json = text().replaceFirst("\"mode\":\"0750\"", "\"mode\":\"0777\"");

        Problem problem = problem(json);

        assertThat(problem.code()).isEqualTo("revision-mismatch");
        assertThat(problem.location().pointer()).isEqualTo("/revision");
    }

    @Test
    void read_notJson_isJsonSyntax() {
        Problem problem = problem("{\"node\": ");

        assertThat(problem.code()).isEqualTo("json-syntax");
        assertThat(problem.message()).doesNotContain("dev.mesh");
    }

    @Test
    void read_nullNode_isInvalid() {
        String json = text().replaceFirst("\"node\":\"[a-z]+\"", "\"node\":null");

        assertThat(problem(json).message()).startsWith("a required value is null");
    }

    @Test
    void read_null_isInvalid() {
        assertThat(problem("null").code()).isEqualTo("invalid-declaration");
    }

    private static String text() {
        return EXAMPLE.stream().map(CanonicalJson::text).filter(json -> json.contains("\"mode\":\"0750\""))
                .findFirst().orElseThrow();
    }

    private static Problem problem(String json) {
        ManifestException e = catchThrowableOfType(ManifestException.class,
                () -> DeclarationReader.read(json.getBytes(StandardCharsets.UTF_8), "alpha.json"));
        assertThat(e.problems()).hasSize(1);
        assertThat(e.problems().getFirst().location().file()).isEqualTo("alpha.json");
        assertThat(e.problems().getFirst().message()).doesNotContain("dev.mesh.controller");
        return e.problems().getFirst();
    }
}
