package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.manifest.Layout;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A mutating request with a request id runs at most once; a repeat gets the recorded answer. */
class RequestRecordsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNode ALPHA = JSON.readTree("{\"module\": \"web\", \"node\": \"alpha\"}");

    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryRequestRecords records = new MemoryRequestRecords();
    private final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(),
            new MemoryEvents(), records, Layout.DEFAULT, Clock.systemUTC()));

    @BeforeEach
    void oneNodeOneModule() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1.0.0\"}", "manifest"));
    }

    @Test
    void call_sameRequestTwice_runsOnce_andAnswersTheSame() {
        JsonNode first = verbs.call("r-1", "ops", "assign", ALPHA);
        inventory.unassign(new Assignment("web", "alpha"));

        JsonNode again = verbs.call("r-1", "ops", "assign", ALPHA);

        assertThat(again).isEqualTo(first);
        assertThat(first.path("changed").asBoolean()).isTrue();
        assertThat(inventory.assignments()).as("the repeat did not assign again").isEmpty();
    }

    @Test
    void call_sameIdOtherArguments_isAConflict() {
        verbs.call("r-1", "ops", "assign", ALPHA);

        assertThatThrownBy(() -> verbs.call("r-1", "ops", "unassign", ALPHA))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT);
                    assertThat(e.getMessage()).startsWith("request id r-1 was used before for another call (assign by ops)");
                });
        assertThatThrownBy(() -> verbs.call("r-1", "someone-else", "assign", ALPHA))
                .hasMessageContaining("was used before for another call");
    }

    @Test
    void call_failedRequest_repeated_getsTheRecordedError() {
        JsonNode beta = JSON.readTree("{\"module\": \"web\", \"node\": \"beta\"}");
        assertThatThrownBy(() -> verbs.call("r-2", "ops", "assign", beta)).isInstanceOf(VerbException.class);
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));

        assertThatThrownBy(() -> verbs.call("r-2", "ops", "assign", beta))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.NOT_FOUND);
                    assertThat(e.pointer()).isEqualTo("/node");
                });
        assertThat(inventory.assignments()).isEmpty();
    }

    @Test
    void call_withoutRequestId_runsEveryTime() {
        verbs.call(null, "ops", "assign", ALPHA);
        inventory.unassign(new Assignment("web", "alpha"));

        verbs.call(null, "ops", "assign", ALPHA);

        assertThat(inventory.assignments()).hasSize(1);
        assertThat(records.find("r-1")).isEmpty();
    }

    @Test
    void call_readVerbWithRequestId_isAnsweredAfresh() {
        verbs.call("r-3", "ops", "nodes", null);
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));

        assertThat(verbs.call("r-3", "ops", "nodes", null).path("nodes")).hasSize(2);
        assertThat(records.find("r-3")).isEmpty();
    }
}
