package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example manifests of {@code examples/modules/} and the controller's own {@code manifest.json}
 * at the repository root are valid, and together show every reference kind.
 */
class ExamplesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** @return every example manifest and the root {@code manifest.json} */
    static Stream<Path> manifests() {
        Path root = repositoryRoot();
        try (Stream<Path> files = Files.list(root.resolve("examples/modules"))) {
            List<Path> examples = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
            return Stream.concat(examples.stream(), Stream.of(root.resolve("manifest.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void manifest_parsesWithoutProblems(Path file) {
        try {
            Manifest.read(file);
        } catch (ManifestException e) {
            fail(file + " has problems:\n" + problems(e));
        }
    }

    @Test
    void examples_areNamedAfterTheirModule() {
        manifests().filter(f -> f.getParent().endsWith("modules")).forEach(file ->
                assertThat(Manifest.read(file).module() + ".json").as(file.toString())
                        .isEqualTo(file.getFileName().toString()));
    }

    @Test
    void controllerExample_isTheRootManifest() throws IOException {
        Path root = repositoryRoot();
        assertThat(JSON.readTree(Files.readAllBytes(root.resolve("examples/modules/mesh-controller.json"))))
                .isEqualTo(JSON.readTree(Files.readAllBytes(root.resolve("manifest.json"))));
    }

    @Test
    void seedManifest_sayingNothingOfOverlap_isStopThenStart() {
        Manifest seed = Manifest.read(Path.of("src/test/resources/corpus/valid/seed-go-controller.json"));

        assertThat(seed.resources(Resource.Process.class)).singleElement()
                .satisfies(process -> assertThat(process.overlap()).isFalse());
    }

    @Test
    void rootManifest_declaresTheControllerOfTheDesign() {
        Manifest manifest = Manifest.read(repositoryRoot().resolve("manifest.json"));

        assertThat(manifest.module()).isEqualTo("mesh-controller");
        assertThat(manifest.claims()).extracting(Claim::name, Claim::scope)
                .containsExactly(tuple("mesh-controller", Scope.MESH));
        assertThat(manifest.tools()).containsExactly("tools", "status", "nodes", "node", "modules", "seats", "builds",
                "plan", "assign", "unassign", "push", "build");
        assertThat(manifest.prepares()).isTrue();
        assertThat(manifest.artifact("controller")).hasValueSatisfying(artifact -> {
            assertThat(artifact.kind()).isEqualTo("bundle");
            assertThat(artifact.language()).isEqualTo("java");
            assertThat(artifact.from()).isEqualTo("controller-launcher");
            assertThat(artifact.binary()).isEqualTo("mesh-controller");
        });
        Resource.Process process = manifest.resources(Resource.Process.class).getFirst();
        assertThat(process.run()).extracting(Template::text).containsExactly("./mesh-controller", "serve");
        assertThat(process.env().keySet()).containsExactlyInAnyOrder(
                "MESH_STORE_INVENTORY_FILE", "MESH_STORE_INVENTORY_PORT",
                "MESH_STORE_IDENTITY_FILE", "MESH_STORE_IDENTITY_PORT",
                "MESH_STORE_LICENCES_FILE", "MESH_STORE_LICENCES_PORT",
                "MESH_BROKER_ADDRESS_FILE", "MESH_BROKER_ADDRESS_PORT",
                "MESH_BROKER_MANAGEMENT_FILE", "MESH_BROKER_MANAGEMENT_PORT",
                "MESH_BROKER_CERTIFICATE", "MESH_BUS_NATS_FILE", "MESH_GENESIS_FILE");
        assertThat(process.replaces()).containsExactly("server");
        assertThat(process.overlap()).as("serve is safe to run twice: an upgrade starts the new one beside it").isTrue();
        assertThat(manifest.requirements()).containsExactly("mesh-broker", "mesh-store");
    }

    @Test
    void examples_useEveryReferenceKindAndTheEscape() {
        Set<Reference.Kind> kinds = EnumSet.noneOf(Reference.Kind.class);
        Set<Reference.NodeFactName> nodeFacts = EnumSet.noneOf(Reference.NodeFactName.class);
        Set<Reference.ModuleFactName> moduleFacts = EnumSet.noneOf(Reference.ModuleFactName.class);
        boolean escaped = false;
        for (Path file : manifests().toList()) {
            for (Template template : Manifest.read(file).templates()) {
                kinds.addAll(template.kinds());
                escaped |= template.text().contains("$${");
                for (Reference reference : template.references()) {
                    switch (reference) {
                        case Reference.NodeFact fact -> nodeFacts.add(fact.fact());
                        case Reference.ModuleFact fact -> moduleFacts.add(fact.fact());
                        default -> { }
                    }
                }
            }
        }
        assertThat(kinds).containsExactlyInAnyOrder(Reference.Kind.values());
        assertThat(nodeFacts).containsExactlyInAnyOrder(Reference.NodeFactName.values());
        assertThat(moduleFacts).containsExactlyInAnyOrder(Reference.ModuleFactName.values());
        assertThat(escaped).as("some example writes a literal ${ as $${").isTrue();
    }

    /**
     * The repository root: the nearest directory, from the working directory up, holding
     * {@code manifest.json} and a {@code pom.xml} with {@code <modules>}.
     */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(dir.resolve("manifest.json")) && Files.isRegularFile(pom)
                        && Files.readString(pom).contains("<modules>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no repository root (a directory with manifest.json and a pom.xml with "
                + "<modules>) above " + Path.of("").toAbsolutePath() + "; run the tests from inside the repository");
    }

    static String problems(ManifestException e) {
        StringBuilder text = new StringBuilder();
        e.problems().forEach(problem -> text.append("  [").append(problem.code()).append("] ").append(problem)
                .append('\n'));
        return text.toString();
    }
}
