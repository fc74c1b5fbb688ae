package dev.mesh.controller.core.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

public class ComposerTest {

    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");
    private static final Node BETA = new Node("beta", "10.0.0.2", "debian-12");
    private static final Node GAMMA = new Node("gamma", "10.0.0.3", "debian-12");

    public static List<Manifest> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("../examples/modules"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().map(Manifest::read).toList();
        }
    }

    public static List<Assignment> assignments() {
        return List.of(new Assignment("mesh-store", "alpha"), new Assignment("mesh-broker", "beta"),
                new Assignment("mesh-bus", "beta"), new Assignment("mesh-controller", "gamma"),
                new Assignment("mesh-host", "alpha"), new Assignment("mesh-host", "beta"),
                new Assignment("mesh-host", "gamma"));
    }

    public static Mesh exampleMesh() throws IOException {
        return new Mesh(List.of(ALPHA, BETA, GAMMA), examples(), assignments(), Layout.DEFAULT);
    }

    @Test
    void compose_exampleMesh_declaresEveryNode() throws IOException {
        Composition composition = Composer.compose(exampleMesh());

        assertThat(composition.problems()).isEmpty();
        assertThat(composition.declarations()).extracting(Declaration::node).containsExactly("alpha", "beta", "gamma");
        Declaration gamma = composition.declarations().get(2);
        assertThat(gamma.seats()).containsExactly("mesh-controller", "mesh-host");
        assertThat(gamma.revision()).matches("sha256:[0-9a-f]{64}");
        Declaration.Process controller = gamma.processes().stream()
                .filter(p -> p.module().equals("mesh-controller")).findFirst().orElseThrow();
        assertThat(controller.env()).containsEntry("MESH_STORE_INVENTORY_PORT", "10.0.0.1:5432");
        assertThat(controller.prepare()).isNotNull();
        assertThat(controller.prepare().run()).containsExactly(controller.run().getFirst(), "prepare");
        assertThat(gamma.secrets()).allSatisfy(secret -> {
            assertThat(secret.mode()).isEqualTo("0600");
            assertThat(secret.path()).startsWith("/");
        });
    }

    @Test
    void compose_shuffledInputs_giveTheSameBytes() throws IOException {
        Mesh mesh = exampleMesh();
        String reference = CanonicalJson.text(Composer.compose(mesh).declarations());

        Random random = new Random(11);
        for (int i = 0; i < 10; i++) {
            List<Node> nodes = new ArrayList<>(mesh.nodes());
            List<Manifest> modules = new ArrayList<>(mesh.modules());
            List<Assignment> assignments = new ArrayList<>(mesh.assignments());
            Collections.shuffle(nodes, random);
            Collections.shuffle(modules, random);
            Collections.shuffle(assignments, random);

            Composition shuffled = Composer.compose(new Mesh(nodes, modules, assignments, Layout.DEFAULT));

            assertThat(CanonicalJson.text(shuffled.declarations())).isEqualTo(reference);
        }
    }

    @Test
    void compose_seatWithoutHolder_blocksOnlyTheNodesThatNeedIt() throws IOException {
        List<Assignment> withoutStore = assignments().stream().filter(a -> !a.module().equals("mesh-store")).toList();

        Composition composition = Composer.compose(new Mesh(List.of(ALPHA, BETA, GAMMA), examples(), withoutStore,
                Layout.DEFAULT));

        assertThat(composition.declarations()).extracting(Declaration::node).containsExactly("alpha", "beta");
        assertThat(composition.problems()).isNotEmpty().allSatisfy(p -> {
            assertThat(p.code()).isEqualTo("unresolved-seat");
            assertThat(p.message()).contains("\"mesh-store\"").contains("on node gamma");
        });
    }

    @Test
    void compose_sameModuleTwiceOnANode_isImpossibleButTwoProcessNamesConflict() throws IOException {
        Manifest copy = Manifest.parse(Files.readString(Path.of("../examples/modules/mesh-bus.json"))
                .replace("\"module\": \"mesh-bus\"", "\"module\": \"mesh-bus-copy\"")
                .replace("\"name\": \"mesh-bus\", \"scope\"", "\"name\": \"mesh-bus-copy\", \"scope\""));
        List<Manifest> modules = new ArrayList<>(examples());
        modules.add(copy);
        List<Assignment> assignments = new ArrayList<>(assignments());
        assignments.add(new Assignment("mesh-bus-copy", "beta"));

        Composition composition = Composer.compose(new Mesh(List.of(ALPHA, BETA, GAMMA), modules, assignments,
                Layout.DEFAULT));

        assertThat(composition.declarations()).extracting(Declaration::node).doesNotContain("beta");
        assertThat(composition.problems()).extracting(Problem::code).contains("process-conflict");
        assertThat(composition.problems()).filteredOn(p -> p.code().equals("process-conflict"))
                .allSatisfy(p -> assertThat(p.related()).hasSize(1));
    }

    @Test
    void compose_unknownNamesInAssignments_areProblems() throws IOException {
        Composition composition = Composer.compose(new Mesh(List.of(ALPHA), examples(),
                List.of(new Assignment("mesh-stor", "alpha"), new Assignment("mesh-store", "delta")), Layout.DEFAULT));

        assertThat(composition.problems()).extracting(Problem::code, p -> p.location().pointer())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("unknown-module", "/assignments/0"),
                        org.assertj.core.groups.Tuple.tuple("unknown-node", "/assignments/1"));
    }

    @Test
    void canonicalJson_sortsKeysAtEveryLevel() throws IOException {
        Declaration alpha = Composer.compose(exampleMesh()).declarations().getFirst();

        String text = CanonicalJson.text(alpha);

        assertThat(text).startsWith("{\"accesses\":").contains("\"node\":\"alpha\"");
        assertThat(text.indexOf("\"processes\"")).isLessThan(text.indexOf("\"revision\""));
        assertThat(CanonicalJson.digest(alpha.withRevision(""))).isEqualTo(alpha.revision());
    }

    @Test
    void compose_artifactForAnotherSystem_blocksTheNodeNamingBoth() throws IOException {
        Node arm = new Node("gamma", "10.0.0.3", "debian-12-arm64");

        Composition composition = Composer.compose(new Mesh(List.of(ALPHA, BETA, arm), examples(), assignments(),
                Layout.DEFAULT));

        assertThat(composition.declarations()).extracting(Declaration::node).containsExactly("alpha", "beta");
        assertThat(composition.problems()).extracting(Problem::code).containsOnly("system-mismatch");
        assertThat(composition.problems()).first().extracting(Problem::message).asString()
                .contains("node gamma runs debian-12-arm64").contains("built for debian-12");
    }

    @Test
    void compose_twoModulesWithOneSlug_isAConflict() throws IOException {
        Manifest sameSlug = Manifest.parse("{\"module\": \"store-two\", \"slug\": \"store\", \"version\": \"1\"}");
        List<Manifest> modules = new ArrayList<>(examples());
        modules.add(sameSlug);

        Composition composition = Composer.compose(new Mesh(List.of(ALPHA, BETA, GAMMA), modules, assignments(),
                Layout.DEFAULT));

        assertThat(composition.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("slug-conflict");
            assertThat(p.message()).isEqualTo("modules mesh-store and store-two both have the slug \"store\"; "
                    + "slugs are unique in the mesh, give one of them another \"slug\"");
        });
    }
}
