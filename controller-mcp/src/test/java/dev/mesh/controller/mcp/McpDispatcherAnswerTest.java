package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * {@link McpDispatcher#answer}: the gate's refusal told by its type ({@code Lifecycle.NotActive}), so that a
 * transport never reads the answer's code to decide what to do with a request.
 */
class McpDispatcherAnswerTest {

    private static final byte[] ASSIGN = ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"alpha\"}}}")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] STATUS = ("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"status\"}}").getBytes(StandardCharsets.UTF_8);

    private static McpDispatcher on(LocalLifecycle lifecycle, Identity identity) {
        MemoryInventory inventory = new MemoryInventory();
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, Clock.systemUTC()));
        verbs.refresh();
        return McpDispatcher.of(verbs, identity, Fixtures.VERSION);
    }

    private static LocalLifecycle standby() {
        return LocalLifecycle.standby(LocalPlanLock.create(), "standby:1", Clock.systemUTC());
    }

    @Test
    void aMutatingVerbOnAStandby_isRefusedByTheGate_andTheAnswerSaysSo() {
        McpDispatcher.Answer answer = on(standby(), Identity.ANYONE).answer(ASSIGN, Envelope.of("ops", "r-1"));

        assertThat(answer.notActive()).isTrue();
        assertThat(new String(answer.response().orElseThrow(), StandardCharsets.UTF_8))
                .contains("\"isError\":true").contains("\"code\":\"unavailable\"");
    }

    @Test
    void aReadOnAStandby_isAnswered_notRefused() {
        McpDispatcher.Answer answer = on(standby(), Identity.ANYONE).answer(STATUS, Envelope.of("ops"));

        assertThat(answer.notActive()).isFalse();
        assertThat(new String(answer.response().orElseThrow(), StandardCharsets.UTF_8)).contains("\"isError\":false");
    }

    @Test
    void anotherUnavailable_isNotTheGates() {
        Identity down = (principal, verb) -> {
            throw new VerbException(VerbException.Code.UNAVAILABLE, "the identity store does not answer; retry", "");
        };

        McpDispatcher.Answer answer = on(standby(), down).answer(ASSIGN, Envelope.of("ops", "r-2"));

        assertThat(answer.notActive()).as("unavailable, but not the gate's refusal").isFalse();
        assertThat(new String(answer.response().orElseThrow(), StandardCharsets.UTF_8))
                .contains("\"code\":\"unavailable\"");
    }

    @Test
    void theSameVerbOnAnActiveController_isNotRefused() {
        McpDispatcher.Answer answer = on(LocalLifecycle.active(), Identity.ANYONE).answer(ASSIGN,
                Envelope.of("ops", "r-3"));

        assertThat(answer.notActive()).isFalse();
    }

    @Test
    void aNotification_hasNoResponse() {
        McpDispatcher.Answer answer = on(standby(), Identity.ANYONE).answer(
                "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}".getBytes(StandardCharsets.UTF_8),
                Envelope.of("ops"));

        assertThat(answer.response()).isEmpty();
        assertThat(answer.notActive()).isFalse();
    }
}
