package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryLicences;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@code assign} refuses past a module's licence — its node count or its expiry — saying which. */
class LicencesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryLicences licences = new MemoryLicences();
    private final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, licences, LocalLifecycle.active(),
            new MemoryEvents(), RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC)));

    @BeforeEach
    void meshOfThreeNodesAndOneModule() {
        for (String node : new String[] {"alpha", "beta", "gamma"}) {
            inventory.report(new Node(node, "10.0.0." + node.length(), "debian-12"));
        }
        inventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1.0.0\"}", "manifest"));
    }

    private void assign(String node) {
        verbs.call("assign", JSON.readTree("{\"module\": \"web\", \"node\": \"" + node + "\"}"));
    }

    @Test
    void assign_noLicence_isNotLimited() {
        assign("alpha");
        assign("beta");
        assign("gamma");

        assertThat(inventory.assignments()).hasSize(3);
    }

    @Test
    void assign_pastTheNodeCount_isAConflictNamingTheNodes() {
        licences.grant("web", 2, NOW.plusSeconds(3600));
        assign("alpha");
        assign("beta");

        assertThatThrownBy(() -> assign("gamma")).isInstanceOfSatisfying(VerbException.class, e -> {
            assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT);
            assertThat(e.pointer()).isEqualTo("/module");
            assertThat(e.getMessage()).isEqualTo("module web cannot be assigned to gamma: its licence allows 2 nodes "
                    + "and it is assigned to 2 (alpha, beta); unassign it from one, or extend the licence");
        });
        assertThat(inventory.assignments()).hasSize(2);
    }

    @Test
    void assign_again_toANodeItRunsOn_isNotRefused() {
        licences.grant("web", 1, NOW.plusSeconds(3600));
        assign("alpha");

        assign("alpha");

        assertThat(inventory.assignments()).containsExactly(new Assignment("web", "alpha"));
    }

    @Test
    void assign_afterExpiry_isAConflictSayingWhen() {
        licences.grant("web", 5, NOW);

        assertThatThrownBy(() -> assign("alpha")).isInstanceOfSatisfying(VerbException.class, e ->
                assertThat(e.getMessage()).isEqualTo("module web cannot be assigned to alpha: its licence expired at "
                        + "2026-11-29T12:00:00Z; renew the licence"));
        assertThat(inventory.assignments()).isEmpty();
    }

    @Test
    void assign_pastBoth_saysBoth() {
        licences.grant("web", 0, NOW.minusSeconds(1));

        assertThatThrownBy(() -> assign("alpha")).hasMessageContaining("expired at").hasMessageContaining(
                "allows 0 nodes and it is assigned to 0");
    }

    @Test
    void assign_afterTheLicenceIsRevoked_isNotLimited() {
        licences.grant("web", 0, NOW.plusSeconds(3600));
        licences.revoke("web");

        assign("alpha");

        assertThat(inventory.assignments()).hasSize(1);
    }
}
