package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.VerbCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class McpDispatcherCountingTest {

    /** What the dispatcher told: a hand-written {@link VerbCalls} that keeps each call. */
    private static final class Told implements VerbCalls {
        record Call(String verb, String outcome, Duration took) {
        }

        final List<Call> calls = new CopyOnWriteArrayList<>();

        @Override
        public void called(String verb, String outcome, Duration took) {
            calls.add(new Call(verb, outcome, took));
        }

        @Override
        public Optional<Tally> tally() {
            return Optional.empty();
        }
    }

    private final Fixtures fixtures = new Fixtures();
    private final Told told = new Told();
    private final McpDispatcher dispatcher = McpDispatcher.of(fixtures.verbs, Identity.ANYONE, Fixtures.VERSION,
            told);

    private void send(String message) {
        dispatcher.dispatch(message.getBytes(StandardCharsets.UTF_8), Envelope.of("local"));
    }

    private static String call(String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":" + params + "}";
    }

    @Test
    void toolsCall_answered_isToldOk_withItsDuration() {
        send(call("{\"name\":\"status\"}"));

        assertThat(told.calls).singleElement().satisfies(c -> {
            assertThat(c.verb()).isEqualTo("status");
            assertThat(c.outcome()).isEqualTo(VerbCalls.OK);
            assertThat(c.took()).isPositive();
        });
    }

    @Test
    void toolsCall_failingVerb_isToldWithTheToolErrorsCode() {
        send(call("{\"name\":\"node\",\"arguments\":{\"name\":\"nowhere\"}}"));

        assertThat(told.calls).extracting(Told.Call::verb, Told.Call::outcome)
                .containsExactly(tuple("node", "not-found"));
    }

    @Test
    void toolsCall_nameThatIsNoVerb_isToldAsUnknown_soLabelsStayBounded() {
        send(call("{\"name\":\"deploy-" + System.nanoTime() + "\"}"));

        assertThat(told.calls).extracting(Told.Call::verb, Told.Call::outcome)
                .containsExactly(tuple(VerbCalls.UNKNOWN_VERB, "not-found"));
    }

    @Test
    void toolsCall_withoutAName_isToldAsAProtocolError() {
        send(call("{\"arguments\":{}}"));

        assertThat(told.calls).extracting(Told.Call::verb, Told.Call::outcome)
                .containsExactly(tuple(VerbCalls.UNKNOWN_VERB, VerbCalls.PROTOCOL_ERROR));
    }

    @Test
    void otherMethods_areNoVerbCalls_andAreNotTold() {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

        assertThat(told.calls).isEmpty();
    }

    @Test
    void dispatcherOverVerbs_countsWhereTheVerbsPortsSay() {
        Told ported = new Told();
        Fixtures withCalls = new Fixtures(ported);

        McpDispatcher.of(withCalls.verbs, Identity.ANYONE, Fixtures.VERSION)
                .dispatch(call("{\"name\":\"nodes\"}").getBytes(StandardCharsets.UTF_8), Envelope.of("local"));

        assertThat(ported.calls).extracting(Told.Call::verb).containsExactly("nodes");
    }
}
