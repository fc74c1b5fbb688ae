package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.core.compose.internal.MeshDigest;
import dev.mesh.controller.core.plan.internal.AssignmentDelta;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class IncrementalPlannerTest {

    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");
    private static final Node BETA = new Node("beta", "10.0.0.2", "debian-12");
    private static final Node GAMMA = new Node("gamma", "10.0.0.3", "debian-12");
    private static final Node DELTA = new Node("delta", "10.0.0.4", "debian-12");

    /** A module that claims no seat and references the broker's. */
    private static final Manifest PLAIN = Manifest.parse("""
            {"module": "plain", "version": "1.0",
             "resources": [
              {"id": "account", "type": "user", "name": "plain"},
              {"id": "app", "type": "process", "name": "plain", "artifact": "app", "user": "plain",
               "run": ["./app", "--node=${node:name}"], "env": {"BROKER": "${seat:mesh-broker:5671}"}}],
             "build": {"artifacts": [{"name": "app", "kind": "bundle", "language": "go", "system": "debian-12",
               "from": "app", "binary": "app"}]}}
            """);

    private static Mesh mesh(List<Assignment> assignments) throws IOException {
        List<Manifest> modules = new ArrayList<>(ComposerTest.examples());
        modules.add(PLAIN);
        return new Mesh(List.of(ALPHA, BETA, GAMMA, DELTA), modules, assignments, Layout.DEFAULT);
    }

    private static List<Assignment> with(Assignment... more) {
        List<Assignment> assignments = new ArrayList<>(ComposerTest.assignments());
        assignments.addAll(List.of(more));
        return assignments;
    }

    private static Map<String, Declaration> byNode(Planning planning) {
        return planning.composition().declarations().stream()
                .collect(Collectors.toMap(Declaration::node, Function.identity()));
    }

    @Test
    void plan_firstCall_equalsThePurePlan() throws IOException {
        Mesh mesh = mesh(with(new Assignment("plain", "delta")));

        Planning planning = new IncrementalPlanner().plan(mesh, Map.of(), Map.of());

        assertThat(planning).isEqualTo(Planner.plan(mesh, Map.of(), Map.of()));
        assertThat(planning.plan().changes()).isNotEmpty();
    }

    @Test
    void plan_seatlessModuleMoved_recomposesOnlyTheTwoNodesAndPlansOnlyTheirChanges() throws IOException {
        IncrementalPlanner planner = new IncrementalPlanner();
        Planning before = planner.plan(mesh(with(new Assignment("plain", "delta"))), Map.of(), Map.of());
        Mesh moved = mesh(with(new Assignment("plain", "gamma")));

        Planning after = planner.plan(moved, byNode(before), Map.of());

        assertThat(after).isEqualTo(Planner.plan(moved, byNode(before), Map.of()));
        Map<String, Declaration> was = byNode(before);
        Map<String, Declaration> now = byNode(after);
        assertThat(now.get("alpha")).isSameAs(was.get("alpha"));
        assertThat(now.get("beta")).isSameAs(was.get("beta"));
        assertThat(now.get("gamma")).isNotEqualTo(was.get("gamma"));
        assertThat(now.get("delta").processes()).isEmpty();
        assertThat(after.plan().changes()).extracting(Plan.Change::id)
                .containsExactlyInAnyOrder("gamma/account:plain", "gamma/process:plain", "delta/process:plain");
        assertThat(after.plan().changes()).filteredOn(c -> c.node().equals("delta"))
                .singleElement().satisfies(c -> assertThat(c.actions()).containsExactly("stop"));
    }

    @Test
    void plan_seatHolderMoved_recomposesTheNodesReferencingTheSeat() throws IOException {
        IncrementalPlanner planner = new IncrementalPlanner();
        List<Assignment> assignments = with(new Assignment("plain", "delta"));
        Planning before = planner.plan(mesh(assignments), Map.of(), Map.of());
        assignments.set(assignments.indexOf(new Assignment("mesh-broker", "beta")),
                new Assignment("mesh-broker", "delta"));
        Mesh moved = mesh(assignments);

        Planning after = planner.plan(moved, byNode(before), Map.of());

        assertThat(after).isEqualTo(Planner.plan(moved, byNode(before), Map.of()));
        Declaration.Process plain = byNode(after).get("delta").processes().stream()
                .filter(p -> p.module().equals("plain")).findFirst().orElseThrow();
        assertThat(plain.env()).containsEntry("BROKER", "10.0.0.4:5671");
        assertThat(after.plan().changes()).anySatisfy(c -> {
            assertThat(c.id()).isEqualTo("delta/process:plain");
            assertThat(c.actions()).containsExactly("restart");
            assertThat(c.reason()).isEqualTo("env BROKER changed");
        });
    }

    @Test
    void plan_againstItsOwnDeclarations_hasNoChanges() throws IOException {
        IncrementalPlanner planner = new IncrementalPlanner();
        Mesh mesh = mesh(with(new Assignment("plain", "delta")));
        Planning first = planner.plan(mesh, Map.of(), Map.of());

        Planning second = planner.plan(mesh, byNode(first), Map.of());

        assertThat(second.plan().isEmpty()).isTrue();
        assertThat(second.composition().declarations()).isEqualTo(first.composition().declarations());
        assertThat(second.plan().inputs()).containsEntry("mesh", first.plan().inputs().get("mesh"))
                .containsKeys("acknowledged/alpha", "acknowledged/delta");
    }

    @Test
    void plan_nodeAddressChanged_equalsThePurePlan() throws IOException {
        IncrementalPlanner planner = new IncrementalPlanner();
        Mesh mesh = mesh(with(new Assignment("plain", "delta")));
        Planning first = planner.plan(mesh, Map.of(), Map.of());
        Mesh readdressed = new Mesh(List.of(ALPHA, new Node("beta", "10.9.9.9", "debian-12"), GAMMA, DELTA),
                mesh.modules(), mesh.assignments(), mesh.layout());

        Planning second = planner.plan(readdressed, byNode(first), Map.of());

        assertThat(second).isEqualTo(Planner.plan(readdressed, byNode(first), Map.of()));
        assertThat(second.plan().changes()).extracting(Plan.Change::id).contains("delta/process:plain");
    }

    @Test
    void meshDigest_keptFromEachNodesShare_equalsTheDigestOfTheWholeMesh() throws IOException {
        Mesh mesh = mesh(with(new Assignment("plain", "delta"), new Assignment("plain", "nowhere"),
                new Assignment("plain", "delta")));
        MeshDigest digest = new MeshDigest();
        digest.reset(mesh, Map.of("alpha", List.of("mesh-store")));
        digest.assigned("alpha", List.of("mesh-host", "mesh-store"));
        digest.assigned("beta", List.of("mesh-broker", "mesh-bus", "mesh-host"));
        digest.assigned("gamma", List.of("mesh-controller", "mesh-host"));
        digest.assigned("delta", List.of("plain", "plain"));
        digest.assigned("nowhere", List.of("plain"));

        assertThat(digest.digest()).isEqualTo(Planner.meshDigest(mesh))
                .isEqualTo(IncrementalPlanningProperties.definition(mesh));

        digest.assigned("nowhere", List.of());
        assertThat(digest.digest()).isNotEqualTo(Planner.meshDigest(mesh));
        digest.assigned("nowhere", List.of("plain"));
        digest.assigned("delta", List.of());
        assertThat(digest.digest()).isNotEqualTo(Planner.meshDigest(mesh));
    }

    @Test
    void assignmentDelta_oneTakenFromTheFrontAndOneAppended_findsJustThoseTwo() {
        List<Assignment> before = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            before.add(new Assignment("m" + i % 7, "n" + i));
        }
        List<Assignment> after = new ArrayList<>(before.subList(1, 100));
        after.add(new Assignment("m0", "n100"));

        AssignmentDelta delta = AssignmentDelta.between(before, after);

        assertThat(delta.removed()).containsExactly(before.getFirst());
        assertThat(delta.added()).containsExactly(new Assignment("m0", "n100"));
    }

    @Test
    void assignmentDelta_reordered_removesAndAddsToTheSameEntries() {
        List<Assignment> before = List.of(new Assignment("a", "x"), new Assignment("b", "x"), new Assignment("c", "y"),
                new Assignment("a", "x"));
        List<Assignment> after = List.of(new Assignment("c", "y"), new Assignment("a", "x"), new Assignment("d", "z"),
                new Assignment("b", "x"));

        AssignmentDelta delta = AssignmentDelta.between(before, after);

        List<Assignment> rebuilt = new ArrayList<>(before);
        delta.removed().forEach(rebuilt::remove);
        rebuilt.addAll(delta.added());
        assertThat(rebuilt).containsExactlyInAnyOrderElementsOf(after);
    }
}
