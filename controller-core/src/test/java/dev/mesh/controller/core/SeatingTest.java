package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.SeatHolder;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SeatingTest {

    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");
    private static final Node BETA = new Node("beta", "10.0.0.2", "debian-12");
    private static final List<Node> NODES = List.of(ALPHA, BETA);

    private static Manifest claiming(String module, String seat, String scope) {
        return Manifest.parse(("{\"module\": \"%s\", \"version\": \"1\", "
                + "\"claims\": [{\"name\": \"%s\", \"scope\": \"%s\"}]}").formatted(module, seat, scope)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8), module + ".json");
    }

    private static final Manifest STORE = claiming("mesh-store", "mesh-store", "mesh");
    private static final Manifest STORE_TWO = claiming("other-store", "mesh-store", "mesh");
    private static final Manifest HOST = claiming("mesh-host", "mesh-host", "node");
    private static final Manifest HOST_TWO = claiming("other-host", "mesh-host", "node");
    private static final Map<String, Manifest> MODULES = Map.of("mesh-store", STORE, "other-store", STORE_TWO,
            "mesh-host", HOST, "other-host", HOST_TWO);

    @Test
    void holder_meshSeat_isTheSameFromEveryNode() {
        Seating seating = Seating.of(NODES, MODULES, List.of(new Assignment("mesh-store", "beta")));

        assertThat(seating.holder("mesh-store", ALPHA)).contains(new SeatHolder("beta", "10.0.0.2"));
        assertThat(seating.holder("mesh-store", BETA)).contains(new SeatHolder("beta", "10.0.0.2"));
        assertThat(seating.heldBy(BETA)).containsExactly("mesh-store");
        assertThat(seating.heldBy(ALPHA)).isEmpty();
        assertThat(seating.conflicts()).isEmpty();
    }

    @Test
    void holder_nodeSeat_isOnlyTheHolderOnTheSameNode() {
        Seating seating = Seating.of(NODES, MODULES, List.of(new Assignment("mesh-host", "alpha")));

        assertThat(seating.holder("mesh-host", ALPHA)).contains(new SeatHolder("alpha", "10.0.0.1"));
        assertThat(seating.holder("mesh-host", BETA)).isEmpty();
        assertThat(seating.holder("unheld", ALPHA)).isEmpty();
    }

    @Test
    void conflicts_meshSeatOnTwoNodes_namesBothClaimsAndLeavesNoHolder() {
        Seating seating = Seating.of(NODES, MODULES,
                List.of(new Assignment("other-store", "beta"), new Assignment("mesh-store", "alpha")));

        assertThat(seating.conflicts()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("seat-conflict");
            assertThat(p.message()).isEqualTo("the seat \"mesh-store\" has scope mesh, so it has one holder in the "
                    + "mesh, but module mesh-store on node alpha and module other-store on node beta both claim it; "
                    + "unassign one of them");
            assertThat(p.location().file()).isEqualTo("other-store.json");
            assertThat(p.location().pointer()).isEqualTo("/claims/0");
            assertThat(p.related()).singleElement().satisfies(r -> assertThat(r.file()).isEqualTo("mesh-store.json"));
        });
        assertThat(seating.holder("mesh-store", ALPHA)).isEmpty();
    }

    @Test
    void conflicts_nodeSeatTwiceOnOneNode_blocksOnlyThatNode() {
        Seating seating = Seating.of(NODES, MODULES, List.of(new Assignment("mesh-host", "alpha"),
                new Assignment("other-host", "alpha"), new Assignment("mesh-host", "beta")));

        assertThat(seating.conflicts()).extracting(Problem::message).containsExactly("the seat \"mesh-host\" has "
                + "scope node, so each node has at most one holder, but modules mesh-host and other-host both claim "
                + "it on node alpha; unassign one of them");
        assertThat(seating.holder("mesh-host", ALPHA)).isEmpty();
        assertThat(seating.holder("mesh-host", BETA)).contains(new SeatHolder("beta", "10.0.0.2"));
    }

    @Test
    void conflicts_scopesDisagree_isAConflict() {
        Manifest nodeStore = claiming("node-store", "mesh-store", "node");
        Seating seating = Seating.of(NODES, Map.of("mesh-store", STORE, "node-store", nodeStore),
                List.of(new Assignment("mesh-store", "alpha"), new Assignment("node-store", "beta")));

        assertThat(seating.conflicts()).extracting(Problem::message).containsExactly("the seat \"mesh-store\" is "
                + "claimed with scope mesh by module mesh-store and with scope node by module node-store; make the "
                + "claims agree");
        assertThat(seating.holder("mesh-store", BETA)).isEmpty();
    }

    @Test
    void of_assignmentsInAnyOrder_givesTheSameSeating() {
        List<Assignment> assignments = new ArrayList<>(List.of(new Assignment("mesh-store", "alpha"),
                new Assignment("other-store", "beta"), new Assignment("mesh-host", "alpha"),
                new Assignment("other-host", "alpha"), new Assignment("mesh-host", "beta")));
        Seating reference = Seating.of(NODES, MODULES, assignments);

        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(assignments, random);
            List<Node> nodes = new ArrayList<>(NODES);
            Collections.shuffle(nodes, random);
            Seating shuffled = Seating.of(nodes, MODULES, assignments);

            assertThat(shuffled.conflicts()).isEqualTo(reference.conflicts());
            assertThat(shuffled.holder("mesh-host", BETA)).isEqualTo(reference.holder("mesh-host", BETA));
        }
    }

    @Test
    void bindings_resolveSeatReferencesThroughTheSeating() {
        Manifest controller = Manifest.parse("""
                {"module": "ctl", "version": "1", "resources": [{"id": "c", "type": "container", "name": "c",
                 "image": "ctl:1", "env": {"STORE": "/run/${node:name}/${seat:mesh-store:5432}"}}]}
                """);
        Seating seating = Seating.of(NODES, MODULES, List.of(new Assignment("mesh-store", "beta")));
        Template path = controller.resources(dev.mesh.controller.manifest.Resource.Container.class).getFirst()
                .env().get("STORE");

        Resolution resolution = Substitution.of(controller, seating.bindings(ALPHA, Layout.DEFAULT)).resolve(path);

        assertThat(resolution).isInstanceOfSatisfying(Resolution.Resolved.class, r -> {
            assertThat(r.value()).isEqualTo("/run/alpha/10.0.0.2:5432");
            assertThat(r.provenance()).extracting(p -> p.holder()).containsExactly(null, "beta");
        });
    }
}
