package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Random meshes of the example modules: random nodes (some of another system), random
 * assignments (some to unknown nodes), some modules left out so seats go unheld.
 */
class PlanningProperties {

    private static final List<Manifest> MODULES = examples();

    private static List<Manifest> examples() {
        try {
            return ComposerTest.examples();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return meshes of some of the example modules, with up to 12 distinct assignments to node-0 … node-6 */
    private static Gen<Mesh> meshes() {
        Gen<Assignment> assignment = arbitrary().pick(MODULES.stream().map(Manifest::module).toList())
                .zip(integers().between(0, 6).map(i -> "node-" + i), Assignment::new);
        Gen<List<Assignment>> assignments = lists().of(assignment).ofSizeBetween(0, 12)
                .map(list -> list.stream().distinct().toList());
        return MeshGens.nodes().zip(MeshGens.modules(MODULES), assignments,
                (n, m, a) -> new Mesh(n, m, a, Layout.DEFAULT)).describedAs(MeshGens::describe);
    }

    @Test
    void compose_everyNodeGetsADeclarationOrLocatedProblems() {
        qt().withExamples(200).forAll(meshes()).checkAssert(mesh -> {
            Composition composition = Composer.compose(mesh);

            Set<String> declared = composition.declarations().stream().map(Declaration::node)
                    .collect(Collectors.toSet());
            for (Node node : mesh.nodes()) {
                boolean blocked = composition.blocked().containsKey(node.name());
                assertThat(declared.contains(node.name()) != blocked)
                        .as("node %s has a declaration or the problems that stopped it, not both", node.name())
                        .isTrue();
                if (blocked) {
                    assertThat(composition.blocked().get(node.name())).isNotEmpty();
                    assertThat(composition.problems()).containsAll(composition.blocked().get(node.name()));
                }
            }
            for (Problem problem : composition.problems()) {
                assertThat(problem.code()).isNotBlank();
                assertThat(problem.location().file()).isNotBlank();
                assertThat(problem.location().pointer()).isNotNull();
            }
            for (Declaration declaration : composition.declarations()) {
                assertThat(declaration.revision()).isEqualTo(CanonicalJson.digest(declaration.withRevision("")));
            }
        });
    }

    @Test
    void plan_noChangePrecedesWhatItRequiresOnItsNode() {
        qt().withExamples(200).forAll(meshes()).checkAssert(mesh -> {
            Plan plan = Planner.plan(mesh, Map.of(), Map.of()).plan();

            Map<String, Integer> position = new HashMap<>();
            for (int i = 0; i < plan.changes().size(); i++) {
                position.put(plan.changes().get(i).id(), i);
            }
            Set<String> builds = plan.builds().stream().map(Plan.Build::id).collect(Collectors.toSet());
            for (Plan.Change change : plan.changes()) {
                for (String required : change.requires()) {
                    String id = required.replace("#healthy", "");
                    if (id.startsWith("build:")) {
                        assertThat(builds).contains(id);
                    } else {
                        assertThat(position).containsKey(id);
                        if (id.startsWith(change.node() + "/")) {
                            assertThat(position.get(id)).isLessThan(position.get(change.id()));
                        }
                    }
                }
            }
        });
    }

    @Test
    void plan_againstItsOwnOutput_hasNoChanges() {
        qt().withExamples(200).forAll(meshes()).checkAssert(mesh -> {
            Planning first = Planner.plan(mesh, Map.of(), Map.of());
            Map<String, Declaration> applied = first.composition().declarations().stream()
                    .collect(Collectors.toMap(Declaration::node, Function.identity()));

            Planning second = Planner.plan(mesh, applied, Map.of());

            assertThat(second.plan().changes()).isEmpty();
            assertThat(second.plan().builds()).isEmpty();
            assertThat(CanonicalJson.text(Planner.plan(mesh, applied, Map.of()).plan()))
                    .isEqualTo(CanonicalJson.text(second.plan()));
        });
    }
}
