package dev.mesh.controller.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.core.compose.internal.MeshDigest;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * {@link IncrementalPlanner} against {@link Planner#plan}: over random meshes of the example
 * modules (plus one module that claims no seat) and random sequences of changes — mostly
 * assignments added, removed or moved, sometimes a node's address or the set of manifests — each
 * planned against no acknowledged declarations, the previous plan's or the first plan's, the
 * incremental plan equals the pure one, byte for byte. And the plan's mesh digest follows its
 * definition and changes exactly when one of the inputs it covers does.
 */
class IncrementalPlanningProperties {

    private static final List<Manifest> MODULES = modules();
    private static final List<String> NAMES = MODULES.stream().map(Manifest::module).toList();

    private static List<Manifest> modules() {
        List<Manifest> modules = new ArrayList<>();
        try {
            modules.addAll(ComposerTest.examples());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        modules.add(Manifest.parse("""
                {"module": "plain", "version": "1.0",
                 "resources": [
                  {"id": "account", "type": "user", "name": "plain"},
                  {"id": "data", "type": "directory", "mode": "0700", "owner": "plain"},
                  {"id": "app", "type": "process", "name": "plain", "artifact": "app", "user": "plain",
                   "run": ["./app", "--data=${dir:data}", "--node=${node:name}"],
                   "env": {"BROKER": "${seat:mesh-broker:5671}"}}],
                 "build": {"artifacts": [{"name": "app", "kind": "bundle", "language": "go", "system": "debian-12",
                   "from": "app", "binary": "app"}]}}
                """));
        return List.copyOf(modules);
    }

    /**
     * One change to the mesh, then which declarations count as acknowledged.
     *
     * @param kind what changes: 0–3 move, 4–5 remove, 6–7 add an assignment, 8 a node's address,
     *     9 the manifests, 10 nothing, 11 the layout
     * @param index which assignment, node or module
     * @param module the module of an added assignment
     * @param node the node an assignment moves to or is added to; 6 is not a node of the mesh
     * @param acknowledged 0 none, 1 the previous plan's declarations, 2 the first plan's
     */
    record Step(int kind, int index, String module, int node, int acknowledged) {
    }

    /** @return meshes of some of the modules, with up to 14 assignments (repeats allowed) to node-0 … node-6 */
    private static Gen<Mesh> meshes() {
        Gen<Assignment> assignment = arbitrary().pick(NAMES)
                .zip(integers().between(0, 6).map(i -> "node-" + i), Assignment::new);
        return MeshGens.nodes().zip(MeshGens.modules(MODULES), lists().of(assignment).ofSizeBetween(0, 14),
                (n, m, a) -> new Mesh(n, m, a, Layout.DEFAULT)).describedAs(MeshGens::describe);
    }

    /** @return 1 to 8 steps; each shrinks toward a move of the first assignment to node-0, nothing acknowledged */
    private static Gen<List<Step>> steps() {
        Gen<Step> step = integers().between(0, 11).zip(integers().between(0, 100), arbitrary().pick(NAMES),
                integers().between(0, 6), integers().between(0, 2), Step::new);
        return lists().of(step).ofSizeBetween(1, 8);
    }

    @Test
    void plan_afterEachChange_equalsThePurePlan() {
        qt().withExamples(300).forAll(meshes(), steps()).checkAssert((first, steps) -> {
            IncrementalPlanner comparing = new IncrementalPlanner();
            IncrementalPlanner told = new IncrementalPlanner();
            Planning pure = Planner.plan(first, Map.of(), Map.of());
            assertSame(comparing.plan(first, Map.of(), Map.of()), pure);
            assertSame(told.plan(first, Map.of(), Map.of(), null), pure);
            Map<String, Declaration> firstDeclarations = byNode(pure);
            Map<String, Declaration> firstFrozen = Map.copyOf(firstDeclarations);
            Mesh mesh = first;
            Map<String, Declaration> acknowledgedBefore = Map.of();
            for (Step step : steps) {
                Mesh before = mesh;
                mesh = apply(mesh, step);
                Map<String, Declaration> acknowledged = switch (step.acknowledged()) {
                    case 1 -> byNode(pure);
                    case 2 -> firstDeclarations;
                    default -> Map.of();
                };
                // The told planner gets an unmodifiable map, the first plan's the same instance each time.
                Map<String, Declaration> frozen = step.acknowledged() == 2 ? firstFrozen : Map.copyOf(acknowledged);
                Map<String, Built> built = step.index() % 2 == 0 ? Map.of()
                        : pure.plan().builds().stream().collect(Collectors.toMap(Plan.Build::id,
                                build -> new Built(build.id(), "0".repeat(64), "file:///" + build.artifact())));

                pure = Planner.plan(mesh, acknowledged, built);

                assertSame(comparing.plan(mesh, acknowledged, built), pure);
                assertSame(told.plan(mesh, frozen, built, delta(before, mesh, acknowledgedBefore, frozen)), pure);
                acknowledgedBefore = frozen;
            }
        });
    }

    /** What changed between two meshes and two maps of acknowledged declarations, as a caller keeping them knows it. */
    private static IncrementalPlanner.Delta delta(Mesh before, Mesh after, Map<String, Declaration> acknowledgedBefore,
            Map<String, Declaration> acknowledged) {
        List<Assignment> removed = new ArrayList<>(before.assignments());
        List<Assignment> added = new ArrayList<>();
        for (Assignment assignment : after.assignments()) {
            if (!removed.remove(assignment)) {
                added.add(assignment);
            }
        }
        Set<String> nodes = new HashSet<>(acknowledgedBefore.keySet());
        nodes.addAll(acknowledged.keySet());
        nodes.removeIf(node -> acknowledgedBefore.get(node) == acknowledged.get(node));
        return new IncrementalPlanner.Delta(removed, added, nodes);
    }

    @Test
    void meshDigest_afterEachChange_followsItsDefinition_andChangesExactlyWhenAnInputDoes() {
        qt().withExamples(300).forAll(meshes(), steps()).checkAssert((first, steps) -> {
            Mesh mesh = first;
            assertThat(MeshDigest.of(mesh)).isEqualTo(definition(mesh));
            for (Step step : steps) {
                Mesh next = apply(mesh, step);

                String digest = MeshDigest.of(next);

                assertThat(digest).isEqualTo(definition(next));
                assertThat(digest.equals(MeshDigest.of(mesh))).isEqualTo(Arrays.equals(inputs(next), inputs(mesh)));
                mesh = next;
            }
        });
    }

    /**
     * {@code inputs.mesh} as docs/composition-and-planning.md defines it: SHA-256 over the digests
     * of the layout, of the module versions and of 1,024 buckets, each the digest of its node
     * names' shares in name order, a name's bucket the first 10 bits of the SHA-256 of its name.
     */
    static String definition(Mesh mesh) {
        Map<String, String> versions = new TreeMap<>();
        mesh.modules().forEach(m -> versions.put(m.module(), m.version()));
        Map<String, List<String>> modules = new TreeMap<>();
        Map<String, List<Node>> nodes = new TreeMap<>();
        mesh.nodes().forEach(node -> {
            nodes.computeIfAbsent(node.name(), n -> new ArrayList<>()).add(node);
            modules.computeIfAbsent(node.name(), n -> new ArrayList<>());
        });
        mesh.assignments().forEach(a -> modules.computeIfAbsent(a.node(), n -> new ArrayList<>()).add(a.module()));
        MessageDigest[] buckets = new MessageDigest[1024];
        modules.forEach((name, assigned) -> {
            byte[] named = CanonicalJson.sha256().digest(name.getBytes(StandardCharsets.UTF_8));
            int bucket = ((named[0] & 0xff) * 256 + (named[1] & 0xff)) / 64;
            if (buckets[bucket] == null) {
                buckets[bucket] = CanonicalJson.sha256();
            }
            buckets[bucket].update(CanonicalJson.sha256().digest(CanonicalJson.bytes(Map.of(
                    "modules", assigned.stream().sorted().toList(), "name", name,
                    "nodes", nodes.getOrDefault(name, List.of())))));
        });
        MessageDigest top = CanonicalJson.sha256();
        top.update(CanonicalJson.sha256().digest(CanonicalJson.bytes(mesh.layout())));
        top.update(CanonicalJson.sha256().digest(CanonicalJson.bytes(versions)));
        for (MessageDigest bucket : buckets) {
            top.update((bucket == null ? CanonicalJson.sha256() : bucket).digest());
        }
        return CanonicalJson.hex(top.digest());
    }

    /** Every input the mesh digest covers, in one canonical text (the digest's definition before it was a tree). */
    private static byte[] inputs(Mesh mesh) {
        Map<String, String> versions = new TreeMap<>();
        mesh.modules().forEach(m -> versions.put(m.module(), m.version()));
        return CanonicalJson.bytes(List.of(mesh.nodes().stream().sorted(Comparator.comparing(Node::name)).toList(),
                versions, mesh.assignments().stream().sorted(Comparator.comparing(Assignment::node)
                        .thenComparing(Assignment::module)).toList(), mesh.layout()));
    }

    private static void assertSame(Planning incremental, Planning pure) {
        assertThat(CanonicalJson.text(incremental.plan())).isEqualTo(CanonicalJson.text(pure.plan()));
        assertThat(CanonicalJson.text(incremental.composition())).isEqualTo(CanonicalJson.text(pure.composition()));
        assertThat(incremental).isEqualTo(pure);
    }

    private static Mesh apply(Mesh mesh, Step step) {
        List<Assignment> assignments = new ArrayList<>(mesh.assignments());
        List<Node> nodes = new ArrayList<>(mesh.nodes());
        List<Manifest> modules = new ArrayList<>(mesh.modules());
        String node = "node-" + step.node();
        int kind = step.kind();
        if (kind <= 3 && !assignments.isEmpty()) {
            int at = step.index() % assignments.size();
            assignments.set(at, new Assignment(assignments.get(at).module(), node));
        } else if (kind <= 5 && !assignments.isEmpty()) {
            assignments.remove(step.index() % assignments.size());
        } else if (kind <= 7) {
            assignments.add(step.index() % (assignments.size() + 1), new Assignment(step.module(), node));
        } else if (kind == 8) {
            int at = step.index() % nodes.size();
            Node was = nodes.get(at);
            nodes.set(at, new Node(was.name(), "10.2.0." + step.index(), was.system()));
        } else if (kind == 9) {
            Manifest manifest = MODULES.get(step.index() % MODULES.size());
            if (!modules.remove(manifest)) {
                modules.add(manifest);
            }
        }
        Layout layout = kind != 11 ? mesh.layout()
                : mesh.layout().equals(Layout.DEFAULT) ? new Layout("/srv/mesh", "/srv/mesh/modules") : Layout.DEFAULT;
        return new Mesh(nodes, modules, assignments, layout);
    }

    private static Map<String, Declaration> byNode(Planning planning) {
        return planning.composition().declarations().stream()
                .collect(Collectors.toMap(Declaration::node, Function.identity()));
    }
}
