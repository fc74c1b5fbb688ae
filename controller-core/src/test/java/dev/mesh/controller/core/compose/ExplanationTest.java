package dev.mesh.controller.core.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.plan.ExampleMeshGoldenTest;
import dev.mesh.controller.manifest.Provenance;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every templated value of a declaration is explained: module, place, references, holder. */
class ExplanationTest {

    private static final Mesh MESH = ExampleMeshGoldenTest.exampleMesh();
    /** The node of the example mesh that runs mesh-broker, whose legacy container mounts a secret. */
    private static final String BROKER_NODE = MESH.assignments().stream()
            .filter(a -> a.module().equals("mesh-broker")).findFirst().orElseThrow().node();

    @Test
    void of_seatReference_namesTheHolderNodeAndTheManifestPlace() {
        Explanation port = byField("gamma").get("processes/mesh-controller/env/MESH_STORE_INVENTORY_PORT");

        assertThat(port.value()).isEqualTo("10.20.0.11:5432");
        assertThat(port.module()).isEqualTo("mesh-controller");
        assertThat(port.location().file()).endsWith("mesh-controller.json");
        assertThat(port.location().pointer()).isEqualTo("/resources/2/env/MESH_STORE_INVENTORY_PORT");
        assertThat(port.location().line()).isEqualTo(45);
        assertThat(port.references()).singleElement().satisfies(reference -> {
            assertThat(reference.reference()).isEqualTo("${seat:mesh-store:5432}");
            assertThat(reference.value()).isEqualTo("10.20.0.11:5432");
            assertThat(reference.holder()).isEqualTo("alpha");
        });
    }

    @Test
    void of_everyTemplatedValueOfEveryDeclaration_isExplainedWithItsValue() {
        for (Declaration declaration : Composer.compose(MESH).declarations()) {
            Map<String, Explanation> explained = byField(declaration.node());
            for (Declaration.Process process : declaration.processes()) {
                process.env().forEach((key, value) -> assertThat(explained
                        .get("processes/" + process.name() + "/env/" + key).value()).isEqualTo(value));
                for (int i = 0; i < process.run().size(); i++) {
                    assertThat(explained.get("processes/" + process.name() + "/run/" + i).value())
                            .isEqualTo(process.run().get(i));
                }
            }
            for (Declaration.Container container : declaration.containers()) {
                for (int i = 0; i < container.mounts().size(); i++) {
                    assertThat(explained.get("containers/" + container.name() + "/mounts/" + i + "/source").value())
                            .isEqualTo(container.mounts().get(i).source());
                }
            }
            for (Declaration.Secret secret : declaration.secrets()) {
                assertThat(explained.get("secrets/" + secret.module() + "/" + secret.name()).value())
                        .isEqualTo(secret.path());
            }
        }
    }

    @Test
    void of_mountSourceOfALegacyContainer_isTheSecretsPath_withItsReference() {
        Explanation source = Explanation.of(MESH, BROKER_NODE).stream()
                .filter(e -> e.field().equals("containers/rabbitmq-exporter/mounts/0/source")).findFirst().orElseThrow();

        assertThat(source.value()).isEqualTo("/var/lib/mesh/modules/mesh-broker/secrets/monitoring-password");
        assertThat(source.module()).isEqualTo("mesh-broker");
        assertThat(source.location().pointer()).isEqualTo("/resources/6/mounts/0/source");
        assertThat(source.references()).singleElement().satisfies(reference ->
                assertThat(reference.reference()).isEqualTo("${secret:monitoring-password}"));
    }

    @Test
    void of_literalValue_hasNoReferences() {
        Explanation run = byField("gamma").get("processes/mesh-controller/run/1");

        assertThat(run.value()).isEqualTo("serve");
        assertThat(run.references()).isEmpty();
    }

    @Test
    void of_severalNodes_isEachNodesInTurn_skippingUnknownNames() {
        List<Explanation> both = Explanation.of(MESH, List.of("gamma", "nowhere", "alpha"));

        List<Explanation> expected = new java.util.ArrayList<>(Explanation.of(MESH, "gamma"));
        expected.addAll(Explanation.of(MESH, "alpha"));
        assertThat(both).isEqualTo(expected);
    }

    @Test
    void of_unknownNode_isEmpty() {
        assertThat(Explanation.of(MESH, "nowhere")).isEmpty();
    }

    private static Map<String, Explanation> byField(String node) {
        List<Explanation> explanations = Explanation.of(MESH, node);
        assertThat(explanations).isNotEmpty().allSatisfy(e -> assertThat(e.node()).isEqualTo(node));
        assertThat(explanations).flatExtracting(Explanation::references).extracting(Provenance::module)
                .allSatisfy(module -> assertThat(module).isNotBlank());
        return explanations.stream().collect(Collectors.toMap(Explanation::field, e -> e));
    }
}
