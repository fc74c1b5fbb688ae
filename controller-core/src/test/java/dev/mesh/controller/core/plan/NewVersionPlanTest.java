package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A module pushed at a new version (issue 22): the builds of its artifacts at that version, the
 * restart of every process that runs them, with {@code overlap} for a process safe to run twice,
 * and declarations that name the version and, once built, pin the digest.
 */
class NewVersionPlanTest {

    /** The example mesh with every build of its plan from nothing done, and every node on its declaration. */
    private record Running(Mesh mesh, Map<String, Built> built, Map<String, Declaration> acknowledged) {
    }

    private static Running running(Mesh mesh) {
        Map<String, Built> built = builtAll(Planner.plan(mesh, Map.of(), Map.of()).plan(), Map.of());
        Map<String, Declaration> acknowledged = Planner.plan(mesh, Map.of(), built).composition().declarations()
                .stream().collect(Collectors.toMap(Declaration::node, Function.identity()));
        return new Running(mesh, built, acknowledged);
    }

    /** The builds of {@code plan}, done, added to {@code before}. */
    private static Map<String, Built> builtAll(Plan plan, Map<String, Built> before) {
        Map<String, Built> built = new HashMap<>(before);
        for (Plan.Build build : plan.builds()) {
            built.put(build.id(), new Built(build.id(), sha256(build.id()), "file:///builds/" + build.module() + "-"
                    + build.version() + ".tar.gz"));
        }
        return built;
    }

    private static String sha256(String text) {
        return CanonicalJson.digest(text).substring("sha256:".length());
    }

    /** The example mesh with the manifest of {@code module} replaced by the same at {@code version}. */
    private static Mesh withVersion(Mesh mesh, String module, String version) throws IOException {
        String text = Files.readString(Path.of("../examples/modules/" + module + ".json"));
        String older = Manifest.parse(text).version();
        Manifest newer = Manifest.parse(text.replace("\"version\": \"" + older + "\"", "\"version\": \"" + version
                + "\""));
        assertThat(newer.version()).isEqualTo(version);
        List<Manifest> modules = mesh.modules().stream().map(m -> m.module().equals(module) ? newer : m).toList();
        return new Mesh(mesh.nodes(), modules, mesh.assignments(), mesh.layout());
    }

    private static Plan.Change change(Plan plan, String id) {
        return plan.changes().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow(
                () -> new AssertionError(id + " is not in the plan: " + plan.changes()));
    }

    @Test
    void aNewVersion_plansItsBuild_andRestartsItsProcessOnEveryNode() throws IOException {
        Running now = running(ComposerTest.exampleMesh());
        assertThat(Planner.plan(now.mesh(), now.acknowledged(), now.built()).plan().isEmpty()).isTrue();

        Plan plan = Planner.plan(withVersion(now.mesh(), "mesh-host", "0.2.0"), now.acknowledged(), now.built())
                .plan();

        assertThat(plan.builds()).singleElement().satisfies(build -> {
            assertThat(build.id()).isEqualTo("build:mesh-host@0.2.0/host");
            assertThat(build.nodes()).containsExactly("alpha", "beta", "gamma");
        });
        for (String node : List.of("alpha", "beta", "gamma")) {
            Plan.Change restart = change(plan, node + "/process:mesh-host");
            assertThat(restart.actions()).as("mesh-host does not say it is safe to run twice")
                    .containsExactly("restart");
            assertThat(restart.reason()).startsWith("artifact mesh-host/host 0.1.0 → 0.2.0");
            assertThat(restart.requires()).contains("build:mesh-host@0.2.0/host");
        }
        assertThat(plan.summary()).containsEntry("restart", 3).containsEntry("build", 1);
    }

    @Test
    void theControllersNewVersion_isPreparedThenRestartedWithOverlap() throws IOException {
        Running now = running(ComposerTest.exampleMesh());

        Plan plan = Planner.plan(withVersion(now.mesh(), "mesh-controller", "0.2.0"), now.acknowledged(),
                now.built()).plan();

        Plan.Change restart = change(plan, "gamma/process:mesh-controller");
        assertThat(restart.actions()).containsExactly("restart", "overlap");
        assertThat(restart.reason()).contains("0.1.0 → 0.2.0")
                .endsWith("the new one starts beside the old one, which stops once the new one runs");
        assertThat(restart.requires()).contains("gamma/prepare:mesh-controller", "build:mesh-controller@0.2.0/controller");
        assertThat(plan.changes()).extracting(Plan.Change::id).containsExactly("gamma/prepare:mesh-controller",
                "gamma/process:mesh-controller");
        assertThat(PlanText.of(plan)).contains("↻ gamma/process:mesh-controller (overlap)");
    }

    @Test
    void theNewDeclaration_namesTheVersion_andOnceBuilt_pinsTheDigest() throws IOException {
        Running now = running(ComposerTest.exampleMesh());
        Mesh newer = withVersion(now.mesh(), "mesh-controller", "0.2.0");
        Planning waiting = Planner.plan(newer, now.acknowledged(), now.built());

        Declaration.Artifact unbuilt = controller(waiting);
        assertThat(unbuilt.version()).isEqualTo("0.2.0");
        assertThat(unbuilt.pinned()).as("not built yet").isFalse();

        Map<String, Built> built = builtAll(waiting.plan(), now.built());
        Planning ready = Planner.plan(newer, now.acknowledged(), built);

        Declaration.Artifact pinned = controller(ready);
        assertThat(pinned.sha256()).isEqualTo(built.get("build:mesh-controller@0.2.0/controller").sha256());
        assertThat(pinned.location()).isEqualTo("file:///builds/mesh-controller-0.2.0.tar.gz");
        assertThat(ready.plan().builds()).isEmpty();
        assertThat(change(ready.plan(), "gamma/process:mesh-controller").requires())
                .as("the build is done").doesNotContain("build:mesh-controller@0.2.0/controller");
    }

    @Test
    void pushingTheRunningVersionAgain_isNoChange() throws IOException {
        Running now = running(ComposerTest.exampleMesh());
        Mesh same = withVersion(now.mesh(), "mesh-controller", "0.1.0");

        assertThat(Planner.plan(same, now.acknowledged(), now.built()).plan().isEmpty()).isTrue();
    }

    @Test
    void incrementalPlanning_seesTheBuildFinish() throws IOException {
        Running now = running(ComposerTest.exampleMesh());
        Mesh newer = withVersion(now.mesh(), "mesh-controller", "0.2.0");
        IncrementalPlanner planner = new IncrementalPlanner();
        Planning waiting = planner.plan(newer, now.acknowledged(), now.built());
        Map<String, Built> built = builtAll(waiting.plan(), now.built());

        Planning ready = planner.plan(newer, now.acknowledged(), built);

        assertThat(controller(ready).pinned()).isTrue();
        assertThat(text(ready)).isEqualTo(text(Planner.plan(newer, now.acknowledged(), built)));
    }

    private static Declaration.Artifact controller(Planning planning) {
        return planning.composition().declarations().stream().filter(d -> d.node().equals("gamma"))
                .flatMap(d -> d.processes().stream()).filter(p -> p.name().equals("mesh-controller")).findFirst()
                .orElseThrow().artifact();
    }

    /** A planning's plan and declarations as canonical text, to compare two plannings whole. */
    private static String text(Planning planning) {
        return CanonicalJson.text(planning.plan()) + CanonicalJson.text(planning.composition().declarations());
    }
}
