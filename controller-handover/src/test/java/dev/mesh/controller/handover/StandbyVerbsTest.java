package dev.mesh.controller.handover;

import static dev.mesh.controller.handover.Activations.taken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two controllers on one leadership, as two processes on one store: the gate lets only the active
 * one change anything; the standby answers reads and refuses every mutating verb, naming the
 * active one. Roles are set through {@link ControllerLifecycle}'s transitions, as the handover sets them.
 */
class StandbyVerbsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T09:00:00Z"), ZoneOffset.UTC);
    private static final List<String> MUTATING = List.of("assign", "unassign", "push", "build");

    private final MemoryInventory inventory = new MemoryInventory();
    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final ControllerLifecycle first = ControllerLifecycle.standby(LocalPlanLock.sharing(leadership, "ctl-a:1", CLOCK), "ctl-a:1",
            CLOCK);
    private final ControllerLifecycle second = ControllerLifecycle.standby(LocalPlanLock.sharing(leadership, "ctl-b:2", CLOCK), "ctl-b:2",
            CLOCK);
    private final Verbs active = verbs(first);
    private final Verbs standby = verbs(second);

    private Verbs verbs(Lifecycle lifecycle) {
        return Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, CLOCK));
    }

    @BeforeEach
    void aMeshWithOneModule() throws Exception {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        taken(first);
        active.call("push", JSON.createObjectNode().put("manifest",
                Files.readString(Path.of("../examples/modules/mesh-store.json"))));
    }

    private static JsonNode arguments(String verb) throws Exception {
        return switch (verb) {
            case "assign", "unassign" -> JSON.readTree("{\"module\": \"mesh-store\", \"node\": \"alpha\"}");
            case "push" -> JSON.createObjectNode().put("manifest",
                    Files.readString(Path.of("../examples/modules/mesh-bus.json")));
            case "build" -> JSON.readTree("{\"module\": \"mesh-store\"}");
            default -> JSON.createObjectNode();
        };
    }

    @Test
    void standby_refusesEveryMutatingVerb_namingTheActiveOne_andChangesNothing() throws Exception {
        second.observe("ctl-a:1", first.status().epoch());

        for (String verb : MUTATING) {
            assertThatThrownBy(() -> standby.call("req-" + verb, "operator", verb, arguments(verb)))
                    .as(verb)
                    .isInstanceOfSatisfying(VerbException.class, e -> {
                        assertThat(e.code()).isEqualTo(VerbException.Code.UNAVAILABLE);
                        assertThat(e.getMessage()).isEqualTo("this controller (ctl-b:2) is standby and changes "
                                + "nothing; the active controller is ctl-a:1 (epoch 1); call it, or retry");
                    });
        }
        assertThat(inventory.assignments()).isEmpty();
        assertThat(inventory.modules()).hasSize(1);
        assertThat(inventory.requested()).isEmpty();
    }

    @Test
    void standby_verifying_learnsTheActiveFromTheLock_namesIt_andForgetsItOnceReleased() throws Exception {
        assertThat(standby.call("status", JSON.createObjectNode()).path("active").asString()).isEmpty();

        second.verify();

        JsonNode status = standby.call("status", JSON.createObjectNode());
        assertThat(status.path("role").asString()).isEqualTo("standby");
        assertThat(status.path("active").asString()).isEqualTo("ctl-a:1");
        assertThat(status.path("epoch").asLong()).isEqualTo(first.status().epoch());
        assertThatThrownBy(() -> standby.call("assign", arguments("assign")))
                .hasMessageContaining("the active controller is ctl-a:1 (epoch 1)");
        first.release();
        second.verify();
        assertThat(standby.call("status", JSON.createObjectNode()).path("active").asString())
                .as("released: no one is active").isEmpty();
        first.verify();
        assertThat(first.status().active()).as("itself released: it names no one").isEmpty();
    }

    @Test
    void standby_withNoActiveKnown_saysSo() {
        assertThatThrownBy(() -> standby.call("assign", JSON.readTree("{\"module\": \"mesh-store\", \"node\": "
                + "\"alpha\"}")))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "this controller (ctl-b:2) is standby and changes nothing; no active controller is known "
                                + "to it; retry shortly, or start one"));
    }

    @Test
    void standby_answersReads_andTellsItsRole() throws Exception {
        active.call("assign", arguments("assign"));

        for (String read : List.of("tools", "nodes", "modules", "seats", "builds", "plan")) {
            assertThat(standby.call(read, JSON.createObjectNode())).as(read).isNotNull();
        }
        assertThat(standby.call("node", JSON.readTree("{\"name\": \"alpha\"}")).path("modules").toString())
                .contains("mesh-store");
        JsonNode status = standby.call("status", JSON.createObjectNode());
        assertThat(status.path("role").asString()).isEqualTo("standby");
        assertThat(status.path("instance").asString()).isEqualTo("ctl-b:2");
        assertThat(status.path("nodes").asInt()).isEqualTo(1);
    }

    @Test
    void handover_theSuccessorTakesANewEpoch_andNamesItsPredecessor() throws Exception {
        first.release();
        taken(second);

        standby.call("assign", arguments("assign"));

        JsonNode status = standby.call("status", JSON.createObjectNode());
        assertThat(status.path("role").asString()).isEqualTo("active");
        assertThat(status.path("epoch").asLong()).isEqualTo(2);
        assertThat(status.path("previous").asString()).isEqualTo("ctl-a:1");
        assertThat(status.path("since").asString()).isEqualTo("2026-12-01T09:00:00Z");
        assertThat(inventory.assignments()).containsExactly(new Assignment("mesh-store", "alpha"));
        assertThatThrownBy(() -> active.call("unassign", arguments("unassign")))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.code())
                        .isEqualTo(VerbException.Code.UNAVAILABLE));
        assertThat(active.call("status", JSON.createObjectNode()).path("role").asString()).isEqualTo("standby");
    }

    @Test
    void whileBothAreActiveCandidates_onlyOneHoldsTheLock() {
        assertThat(second.activate(new MemoryEvents()))
                .isInstanceOfSatisfying(PlanLock.Busy.class, busy -> {
                    assertThat(busy.holder()).isEqualTo("ctl-a:1");
                    assertThat(busy.why()).contains("held by another controller (holder ctl-a:1, epoch 1)");
                });
        assertThat(second.status().role().label()).isEqualTo("standby");
    }

    @Test
    void releasing_refusesNewWork_thenTheLockIsFreeForTheNext() throws Exception {
        first.releasing();

        assertThatThrownBy(() -> active.call("assign", arguments("assign")))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.getMessage())
                        .startsWith("this controller (ctl-a:1) is releasing and changes nothing"));
        first.release();
        assertThat(taken(second).epoch()).isEqualTo(2);
    }

    @Test
    void aLostLock_dropsTheControllerToStandby_andTheNextActivationTakesANewEpoch() throws Exception {
        LocalPlanLock lock = LocalPlanLock.sharing(new LocalPlanLock.Leadership(), "ctl-c:3", CLOCK);
        ControllerLifecycle lifecycle = ControllerLifecycle.standby(lock, "ctl-c:3", CLOCK);
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, CLOCK));
        assertThat(taken(lifecycle).epoch()).isEqualTo(1);

        lock.lose();
        assertThatThrownBy(() -> verbs.call("assign", arguments("assign")))
                .isInstanceOfSatisfying(VerbException.class, e -> assertThat(e.code())
                        .isEqualTo(VerbException.Code.UNAVAILABLE));

        assertThat(lifecycle.status().role().label()).isEqualTo("standby");
        assertThat(taken(lifecycle).epoch()).isEqualTo(2);
        lock.lose();
        assertThat(lifecycle.verify().role().label()).as("found lost without any verb").isEqualTo("standby");
        assertThat(taken(lifecycle).epoch()).isEqualTo(3);
        verbs.call("assign", arguments("assign"));
        assertThat(inventory.assignments()).hasSize(1);
    }
}
