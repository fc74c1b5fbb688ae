package dev.mesh.controller.core.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.compose.internal.Resolutions;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ResolutionsTest {

    @Test
    void resolve_everyExampleTemplateOnEveryNode_givesTheValueSubstitutionGives() throws IOException {
        Mesh mesh = ComposerTest.exampleMesh();
        Seating seating = Seating.of(mesh.nodes(), mesh.modulesByName(), mesh.assignments());
        Resolutions resolutions = new Resolutions();
        int resolved = 0;
        for (int round = 0; round < 2; round++) {
            for (Node node : mesh.nodes()) {
                for (Manifest manifest : mesh.modules()) {
                    Substitution substitution = Substitution.of(manifest, seating.bindings(node, mesh.layout()));
                    for (Template template : manifest.templates()) {
                        Resolution expected = substitution.resolve(template);
                        Resolution actual = resolutions.resolve(template, substitution::resolve, seating, node);
                        if (expected instanceof Resolution.Resolved value) {
                            assertThat(actual).isInstanceOfSatisfying(Resolution.Resolved.class,
                                    r -> assertThat(r.value()).isEqualTo(value.value()));
                            resolved++;
                        } else {
                            assertThat(actual).isEqualTo(expected);
                        }
                    }
                }
            }
        }
        assertThat(resolved).isPositive();
    }
}
