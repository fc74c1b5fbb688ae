package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");
    private static final Node BETA = new Node("beta", "10.0.0.2", "debian-12");
    private static final Node GAMMA = new Node("gamma", "10.0.0.3", "debian-12");

    private static Mesh mesh(List<Manifest> modules) {
        return new Mesh(List.of(ALPHA, BETA, GAMMA), modules, ComposerTest.assignments(), Layout.DEFAULT);
    }

    private static Map<String, Declaration> byNode(List<Declaration> declarations) {
        return declarations.stream().collect(Collectors.toMap(Declaration::node, Function.identity()));
    }

    @Test
    void plan_fromNothing_createsInStepOrderAndBuildsEachArtifactOnce() throws IOException {
        Plan plan = Planner.plan(mesh(ComposerTest.examples()), Map.of(), Map.of()).plan();

        assertThat(plan.format()).isEqualTo(1);
        assertThat(plan.inputs()).containsOnlyKeys("mesh");
        List<String> alpha = plan.changes().stream().filter(c -> c.node().equals("alpha")).map(Plan.Change::id)
                .toList();
        assertThat(alpha.indexOf("alpha/account:postgres")).isNotNegative()
                .isLessThan(alpha.indexOf("alpha/prepare:mesh-store"));
        assertThat(alpha.indexOf("alpha/prepare:mesh-store")).isLessThan(alpha.indexOf("alpha/process:mesh-store"));
        assertThat(plan.builds()).extracting(Plan.Build::id).doesNotHaveDuplicates()
                .contains("build:mesh-host@" + version("mesh-host") + "/host");
        Plan.Build host = plan.builds().stream().filter(b -> b.module().equals("mesh-host")).findFirst().orElseThrow();
        assertThat(host.nodes()).containsExactly("alpha", "beta", "gamma");
        assertThat(PlanText.of(plan)).contains("+ alpha/account:postgres").contains("to build.");
    }

    @Test
    void plan_againstItsOwnOutput_hasNoChanges() throws IOException {
        Mesh mesh = mesh(ComposerTest.examples());
        Planning first = Planner.plan(mesh, Map.of(), Map.of());

        Planning second = Planner.plan(mesh, byNode(first.composition().declarations()), Map.of());

        assertThat(second.plan().changes()).isEmpty();
        assertThat(second.plan().builds()).isEmpty();
        assertThat(PlanText.of(second.plan())).isEqualTo("No changes. Every node runs its declaration.\n");
    }

    @Test
    void plan_noChangePrecedesWhatItRequires() throws IOException {
        Plan plan = Planner.plan(mesh(ComposerTest.examples()), Map.of(), Map.of()).plan();

        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < plan.changes().size(); i++) {
            position.put(plan.changes().get(i).id(), i);
        }
        for (Plan.Change change : plan.changes()) {
            for (String required : change.requires()) {
                String id = required.replace("#healthy", "");
                if (id.startsWith("build:")) {
                    assertThat(plan.builds()).extracting(Plan.Build::id).contains(id);
                } else if (change.node().equals(id.substring(0, id.indexOf('/')))) {
                    assertThat(position.get(id)).as("%s requires %s", change.id(), id).isLessThan(position.get(change.id()));
                } else {
                    assertThat(position).as("%s requires %s", change.id(), id).containsKey(id);
                }
            }
        }
    }

    @Test
    void plan_processNeedingASeat_requiresTheHoldersProcessOnItsNode() throws IOException {
        Plan plan = Planner.plan(mesh(ComposerTest.examples()), Map.of(), Map.of()).plan();

        Plan.Change controller = plan.changes().stream().filter(c -> c.id().startsWith("gamma/process:mesh-controller"))
                .findFirst().orElseThrow();
        assertThat(controller.requires()).anyMatch(r -> r.startsWith("alpha/process:"))
                .anyMatch(r -> r.startsWith("beta/process:"));
    }

    @Test
    void plan_changedEnv_restartsWithTheReason() throws IOException {
        List<Manifest> modules = ComposerTest.examples();
        Mesh mesh = mesh(modules);
        Map<String, Declaration> applied = byNode(Planner.plan(mesh, Map.of(), Map.of()).composition()
                .declarations());
        List<Manifest> changed = new ArrayList<>(modules);
        Manifest bus = changed.stream().filter(m -> m.module().equals("mesh-bus")).findFirst().orElseThrow();
        changed.set(changed.indexOf(bus), Manifest.parse(Files.readString(Path.of("../examples/modules/mesh-bus.json"))
                .replaceFirst("\"run\": \\[", "\"run\": [\"--debug\", ")));

        Plan plan = Planner.plan(mesh(changed), applied, Map.of()).plan();

        assertThat(plan.changes()).extracting(Plan.Change::actions).allMatch(actions -> !actions.contains("start"));
        assertThat(plan.changes()).anySatisfy(c -> {
            assertThat(c.node()).isEqualTo("beta");
            assertThat(c.actions()).contains("restart");
            assertThat(c.reason()).contains("run changed");
        });
    }

    @Test
    void plan_processReplacingAContainer_removesItOnlyOnceHealthy() throws IOException {
        Plan plan = Planner.plan(mesh(ComposerTest.examples()), Map.of(), Map.of()).plan();

        List<Plan.Change> removals = plan.changes().stream().filter(c -> c.actions().contains("remove")).toList();
        assertThat(removals).isNotEmpty().allSatisfy(removal ->
                assertThat(removal.requires()).singleElement().asString().endsWith("#healthy"));
        assertThat(plan.changes()).anySatisfy(c -> assertThat(c.actions()).containsAnyOf("overlap", "gap"));
    }

    private static String version(String module) throws IOException {
        return ComposerTest.examples().stream().filter(m -> m.module().equals(module)).findFirst().orElseThrow()
                .version();
    }
}
