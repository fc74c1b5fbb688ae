package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Layout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What {@code nodes}, {@code node} and {@code status} tell of the facts hosts report, by the verbs' clock. */
class FactsVerbsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant SEEN = Instant.parse("2026-11-29T21:00:00Z");

    private final MemoryInventory inventory = new MemoryInventory();
    private final Hands clock = new Hands(SEEN);
    private final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(),
            new MemoryEvents(), RequestRecords.NONE, Layout.DEFAULT, clock));

    @BeforeEach
    void alphaReports_betaNeverDid() {
        inventory.report(List.of(new Facts(new Node("alpha", "10.0.0.1", "debian-12"), "sha256:aa", List.of(
                new ProcessState("mesh-store", ProcessState.State.RUNNING, SEEN.minusSeconds(90), 2),
                new ProcessState("mesh-bus", ProcessState.State.STARTING, SEEN.minusSeconds(1), 0)), SEEN)));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
    }

    private JsonNode call(String verb, String arguments) {
        return verbs.call(verb, JSON.readTree(arguments));
    }

    @Test
    void nodes_tellTheAppliedRevisionAndLastSeen_andANodeNeverHeardFromHasNeither() {
        assertThat(call("nodes", "{}")).isEqualTo(JSON.readTree("""
                {"nodes": [
                  {"name": "alpha", "address": "10.0.0.1", "system": "debian-12", "seats": [],
                   "revision": "sha256:aa", "lastSeen": "2026-11-29T21:00:00Z", "silent": false},
                  {"name": "beta", "address": "10.0.0.2", "system": "debian-12", "seats": [],
                   "revision": null, "lastSeen": null, "silent": false}
                ]}
                """));
    }

    @Test
    void nodes_silentOnlyMoreThanThreeIntervalsAfterLastSeen() {
        clock.set(SEEN.plus(Duration.ofSeconds(15)));
        assertThat(call("nodes", "{}").path("nodes").get(0).path("silent").asBoolean()).as("at 15 s").isFalse();

        clock.set(SEEN.plus(Duration.ofSeconds(15)).plusMillis(1));
        assertThat(call("nodes", "{}").path("nodes").get(0).path("silent").asBoolean()).as("past 15 s").isTrue();
        assertThat(call("nodes", "{}").path("nodes").get(1).path("silent").asBoolean()).as("never heard from")
                .isFalse();
    }

    @Test
    void node_tellsItsProcessesWithTheirStatesAndChecks() {
        clock.set(SEEN.plusSeconds(20));

        JsonNode alpha = call("node", "{\"name\": \"alpha\"}");

        assertThat(alpha.path("revision").asString()).isEqualTo("sha256:aa");
        assertThat(alpha.path("lastSeen").asString()).isEqualTo("2026-11-29T21:00:00Z");
        assertThat(alpha.path("silent").asBoolean()).isTrue();
        assertThat(alpha.path("processes")).isEqualTo(JSON.readTree("""
                [{"name": "mesh-store", "state": "running", "since": "2026-11-29T20:58:30Z", "checks": 2},
                 {"name": "mesh-bus", "state": "starting", "since": "2026-11-29T20:59:59Z", "checks": 0}]
                """));
        JsonNode beta = call("node", "{\"name\": \"beta\"}");
        assertThat(beta.path("revision").isNull()).isTrue();
        assertThat(beta.path("lastSeen").isNull()).isTrue();
        assertThat(beta.path("silent").asBoolean()).isFalse();
        assertThat(beta.path("processes").isEmpty()).isTrue();
    }

    @Test
    void status_countsTheSilentNodes_asOfItsRefresh() {
        assertThat(verbs.refresh().path("silent").asInt()).isZero();

        clock.set(SEEN.plusSeconds(16));
        assertThat(call("status", "{}").path("silent").asInt()).as("not refreshed yet").isZero();
        assertThat(verbs.refresh().path("silent").asInt()).isEqualTo(1);

        inventory.report(List.of(new Facts(new Node("alpha", "10.0.0.1", "debian-12"), "sha256:aa", List.of(),
                clock.instant())));
        assertThat(verbs.refresh().path("silent").asInt()).as("heard from again").isZero();
        assertThat(call("status", "{}").path("nodes").asInt()).isEqualTo(2);
    }
}
