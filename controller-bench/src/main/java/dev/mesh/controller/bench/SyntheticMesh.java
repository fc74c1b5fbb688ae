package dev.mesh.controller.bench;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Scope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A synthetic mesh for the composition and planning benchmarks: {@code nodes} nodes, 50 modules,
 * 5 to 10 modules per node, chosen by a fixed seed. Every tenth module claims a {@code node} seat;
 * modules 5, 15, …, 45 claim {@code mesh} seats, each held once; every module's process refers to
 * one of the mesh seats, so planning links processes across nodes.
 */
final class SyntheticMesh {

    static final int MODULES = 50;

    private SyntheticMesh() {
    }

    static Mesh of(int nodeCount) {
        List<Manifest> modules = new ArrayList<>();
        for (int m = 0; m < MODULES; m++) {
            modules.add(module(m));
        }
        Random random = new Random(42);
        List<Node> nodes = new ArrayList<>();
        List<Assignment> assignments = new ArrayList<>();
        Set<Integer> meshSeatsHeld = new TreeSet<>();
        for (int n = 0; n < nodeCount; n++) {
            String name = "node-" + n;
            nodes.add(new Node(name, "10." + (n >> 16 & 255) + "." + (n >> 8 & 255) + "." + (n & 255), "debian-12"));
            Set<Integer> chosen = new TreeSet<>();
            int count = 5 + random.nextInt(6);
            while (chosen.size() < count) {
                int m = random.nextInt(MODULES);
                if (m % 10 == 5 && !meshSeatsHeld.add(m)) {
                    continue;
                }
                chosen.add(m);
            }
            chosen.forEach(m -> assignments.add(new Assignment("mod-" + m, name)));
        }
        for (int m = 5; m < MODULES; m += 10) {
            if (meshSeatsHeld.add(m)) {
                assignments.add(new Assignment("mod-" + m, "node-0"));
            }
        }
        return new Mesh(nodes, modules, assignments, Layout.DEFAULT);
    }

    /**
     * The same mesh with one assignment moved: the first assignment of a module that claims no seat
     * goes to the last node. Only the two nodes are affected.
     */
    static Mesh withOneAssignmentChanged(Mesh mesh) {
        return moved(mesh, m -> m.claims().isEmpty());
    }

    /**
     * The same mesh with the holder of a mesh seat moved: the first assignment of a module that
     * claims a {@code mesh} seat goes to the last node. Every node whose modules refer to that seat
     * is affected (about three in five).
     */
    static Mesh withSeatHolderMoved(Mesh mesh) {
        return moved(mesh, m -> m.claims().stream().anyMatch(c -> c.scope() == Scope.MESH));
    }

    /** @return what changed from {@code before} to {@code after}: their assignments' difference, counting repeats */
    static IncrementalPlanner.Delta delta(Mesh before, Mesh after) {
        Map<Assignment, Integer> count = new HashMap<>();
        before.assignments().forEach(a -> count.merge(a, 1, Integer::sum));
        List<Assignment> added = new ArrayList<>();
        for (Assignment assignment : after.assignments()) {
            if (count.merge(assignment, -1, Integer::sum) < 0) {
                added.add(assignment);
                count.merge(assignment, 1, Integer::sum);
            }
        }
        List<Assignment> removed = new ArrayList<>();
        count.forEach((assignment, left) -> {
            for (int i = 0; i < left; i++) {
                removed.add(assignment);
            }
        });
        return new IncrementalPlanner.Delta(removed, added, Set.of());
    }

    private static Mesh moved(Mesh mesh, Predicate<Manifest> which) {
        Map<String, Manifest> modules = mesh.modulesByName();
        List<Assignment> assignments = new ArrayList<>(mesh.assignments());
        Assignment first = assignments.stream().filter(a -> which.test(modules.get(a.module()))).findFirst()
                .orElseThrow();
        assignments.remove(first);
        assignments.add(new Assignment(first.module(), mesh.nodes().getLast().name()));
        return new Mesh(mesh.nodes(), mesh.modules(), assignments, mesh.layout());
    }

    private static Manifest module(int m) {
        return Manifest.parse(document(m).getBytes(StandardCharsets.UTF_8), "mod-" + m + ".json");
    }

    /**
     * @param m the module's number, 0 to {@link #MODULES} - 1
     * @return the manifest of module {@code mod-<m>}, as pushed
     */
    static String document(int m) {
        String claim = m % 10 == 0 ? "\"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"node\"}],"
                : m % 10 == 5 ? "\"claims\": [{\"name\": \"seat-" + m + "\", \"scope\": \"mesh\"}]," : "";
        return """
                {"module": "mod-%1$d", "version": "1.%1$d", %2$s
                 "resources": [
                  {"id": "account", "type": "user", "name": "user-%1$d", "home": "/var/lib/user-%1$d"},
                  {"id": "data", "type": "directory", "mode": "0700", "owner": "user-%1$d"},
                  {"id": "app", "type": "process", "name": "proc-%1$d", "artifact": "app", "user": "user-%1$d",
                   "run": ["./app", "--data=${dir:data}", "--node=${node:name}", "--version=${module:version}"],
                   "env": {"PEER": "${seat:seat-%3$d:80%4$d}", "MODE": "production"}}],
                 "build": {"artifacts": [{"name": "app", "kind": "bundle", "language": "go", "system": "debian-12",
                   "from": "app", "binary": "app"}]}}
                """.formatted(m, claim, 5 + 10 * (m % 5), m % 10);
    }
}
