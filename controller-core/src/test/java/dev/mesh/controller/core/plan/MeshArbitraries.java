package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Node;
import dev.mesh.controller.manifest.Manifest;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** The parts of random meshes the planning properties share. */
final class MeshArbitraries {

    private MeshArbitraries() {
    }

    /** 1 to 6 nodes named {@code node-0…}, mostly debian-12, some alpine-3 (so systems can mismatch). */
    static Arbitrary<List<Node>> nodes() {
        return Arbitraries.integers().between(1, 6).flatMap(count ->
                Arbitraries.of("debian-12", "debian-12", "debian-12", "alpine-3").list().ofSize(count)
                        .map(systems -> {
                            List<Node> list = new ArrayList<>();
                            for (int i = 0; i < systems.size(); i++) {
                                list.add(new Node("node-" + i, "10.1.0." + (i + 1), systems.get(i)));
                            }
                            return list;
                        }));
    }

    /** A non-empty subset of {@code pool}. */
    static Arbitrary<List<Manifest>> modules(List<Manifest> pool) {
        return Arbitraries.of(pool).set().ofMinSize(1).map(List::copyOf);
    }
}
