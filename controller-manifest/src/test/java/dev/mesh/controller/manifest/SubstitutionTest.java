package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubstitutionTest {

    private static final Manifest STORE = Manifest.parse(ManifestTest.STORE);

    /** Bindings of a test node: its facts, a fixed seat map and a layout. */
    private record Node(NodeFacts node, Map<String, SeatHolder> seats, Layout layout) implements Bindings {
        @Override
        public Optional<SeatHolder> holder(String seat) {
            return Optional.ofNullable(seats.get(seat));
        }
    }

    private static final Node ALPHA = new Node(new NodeFacts("alpha", "10.0.0.1", "debian-12"),
            Map.of("mesh-bus", new SeatHolder("beta", "10.0.0.2")), Layout.DEFAULT);

    @Test
    void resolve_everyKind_givesTheValueWithProvenance() {
        Resource.Process server = STORE.resources(Resource.Process.class).getFirst();
        Substitution substitution = Substitution.of(STORE, ALPHA);

        Resolution data = substitution.resolve(server.env().get("PGDATA"));
        Resolution bus = substitution.resolve(server.env().get("BUS"));
        Resolution cluster = substitution.resolve(server.run().get(4));
        Resolution secret = substitution.resolve(STORE.accesses().getFirst().path());

        assertThat(data).isEqualTo(new Resolution.Resolved("/var/lib/mesh/modules/mesh-store/data",
                java.util.List.of(new Provenance("mesh-store", server.env().get("PGDATA").locationOf(
                        server.env().get("PGDATA").references().getFirst()), "${dir:data}",
                        "/var/lib/mesh/modules/mesh-store/data", null))));
        assertThat(bus).isInstanceOfSatisfying(Resolution.Resolved.class, r -> {
            assertThat(r.value()).isEqualTo("10.0.0.2:4222");
            assertThat(r.provenance()).singleElement().satisfies(p -> {
                assertThat(p.holder()).isEqualTo("beta");
                assertThat(p.reference()).isEqualTo("${seat:mesh-bus:4222}");
                assertThat(p.location().pointer()).isEqualTo("/resources/3/env/BUS");
            });
        });
        assertThat(cluster).extracting(r -> ((Resolution.Resolved) r).value()).isEqualTo("cluster_name=alpha");
        assertThat(secret).extracting(r -> ((Resolution.Resolved) r).value())
                .isEqualTo("/var/lib/mesh/secrets/superuser.json");
    }

    @Test
    void resolve_layoutRoots_placeDirectories() {
        Node custom = new Node(ALPHA.node(), ALPHA.seats(), new Layout("/srv/mesh/", "/srv/modules"));
        Resource.Process server = STORE.resources(Resource.Process.class).getFirst();

        Resolution data = Substitution.of(STORE, custom).resolve(server.env().get("PGDATA"));

        assertThat(data).extracting(r -> ((Resolution.Resolved) r).value()).isEqualTo("/srv/modules/mesh-store/data");
    }

    @Test
    void resolve_seatWithoutHolder_isALocatedProblemNeverAnEmptyString() {
        Node lonely = new Node(ALPHA.node(), Map.of(), Layout.DEFAULT);
        Template bus = STORE.resources(Resource.Process.class).getFirst().env().get("BUS");

        Resolution resolution = Substitution.of(STORE, lonely).resolve(bus);

        assertThat(resolution).isInstanceOfSatisfying(Resolution.Unresolved.class, u ->
                assertThat(u.problems()).singleElement().satisfies(p -> {
                    assertThat(p.code()).isEqualTo("unresolved-seat");
                    assertThat(p.location()).isEqualTo(bus.locationOf(bus.references().getFirst()));
                    assertThat(p.message()).isEqualTo("no node holds the seat \"mesh-bus\" that "
                            + "${seat:mesh-bus:4222} in module mesh-store needs on node alpha; assign a module that "
                            + "claims \"mesh-bus\" (to this node, if the seat has scope node)");
                }));
    }

    @Test
    void resolve_templateFromElsewhere_reportsUnresolvedReference() {
        Template foreign = Template.parse("${dir:logs}/${secret:token}");

        Resolution resolution = Substitution.of(STORE, ALPHA).resolve(foreign);

        assertThat(resolution).isInstanceOfSatisfying(Resolution.Unresolved.class, u ->
                assertThat(u.problems()).extracting(Problem::code, p -> p.location().column()).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("unresolved-reference", 1),
                        org.assertj.core.groups.Tuple.tuple("unresolved-reference", 13)));
    }

    @Test
    void resolve_literal_isItself() {
        assertThat(Substitution.of(STORE, ALPHA).resolve(Template.literal("a ${b}")))
                .isEqualTo(new Resolution.Resolved("a ${b}", java.util.List.of()));
    }
}
