package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.manifest.MeshException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The envelope's request id against {@code _meta}'s, and failures of the identity check as tool errors. */
class McpDispatcherEnvelopeTest {

    private final Fixtures fixtures = new Fixtures();
    private final McpDispatcher dispatcher = fixtures.dispatcher(Identity.ANYONE);

    @BeforeEach
    void pushTheExamples() {
        for (JsonNode manifest : Fixtures.exampleManifests()) {
            ObjectNode args = Fixtures.JSON.createObjectNode();
            args.set("manifest", manifest);
            fixtures.verbs.call("push", args);
        }
    }

    private JsonNode send(McpDispatcher to, Envelope envelope, String message) {
        return Fixtures.JSON.readTree(to.dispatch(message.getBytes(StandardCharsets.UTF_8), envelope).orElseThrow());
    }

    private JsonNode assign(Envelope envelope, String node, String meta) {
        return send(dispatcher, envelope, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
                + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-bus\", \"node\": \"" + node + "\"}"
                + (meta.isEmpty() ? "" : ", \"_meta\": " + meta) + "}}");
    }

    // --- the envelope

    @Test
    void envelope_withoutRequestId_hasNone() {
        assertThat(Envelope.of("dev").requestId()).isEmpty();
        assertThat(Envelope.of("dev", "m-1").requestId()).contains("m-1");
        assertThat(Envelope.of("dev", "m-1")).isEqualTo(Envelope.of("dev", "m-1")).isNotEqualTo(Envelope.of("dev"));
    }

    @Test
    void envelope_emptyRequestId_isRefused() {
        assertThatThrownBy(() -> Envelope.of("dev", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an envelope's request id may not be empty; use Envelope.of(principal) for a message "
                        + "without one");
    }

    // --- the rule: the envelope's id is the request id; without one, _meta's

    @Test
    void envelopeRequestId_withoutMeta_makesTheCallIdempotent() {
        JsonNode first = assign(Envelope.of("tester", "amqp-1"), "beta", "");
        int events = fixtures.events.events().size();
        JsonNode second = assign(Envelope.of("tester", "amqp-1"), "beta", "");

        assertThat(first.path("result").path("structuredContent").path("changed").asBoolean()).isTrue();
        assertThat(second).isEqualTo(first);
        assertThat(fixtures.events.events()).hasSize(events);
    }

    @Test
    void envelopeRequestId_usedForAnotherCall_isAConflict() {
        assign(Envelope.of("tester", "amqp-2"), "beta", "");

        JsonNode result = assign(Envelope.of("tester", "amqp-2"), "gamma", "").path("result");

        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.path("structuredContent").path("code").asString()).isEqualTo("conflict");
        assertThat(result.path("structuredContent").path("message").asString()).isEqualTo("request id amqp-2 was "
                + "used before for another call (assign by tester); give every request its own id");
        assertThat(fixtures.inventory.assignments()).hasSize(1);
    }

    @Test
    void envelopeRequestId_andTheSameInMeta_isFine() {
        JsonNode first = assign(Envelope.of("tester", "amqp-3"), "beta", "{\"dev.mesh/request-id\": \"amqp-3\"}");
        JsonNode again = assign(Envelope.of("tester", "amqp-3"), "beta", "");

        assertThat(first.path("result").path("isError").asBoolean()).isFalse();
        assertThat(again).isEqualTo(first);
    }

    @Test
    void envelopeRequestId_andAnotherInMeta_isInvalidParamsNamingBoth_andRunsNothing() {
        JsonNode response = assign(Envelope.of("tester", "amqp-4"), "beta", "{\"dev.mesh/request-id\": \"cli-9\"}");

        assertThat(response.path("id").asInt()).isEqualTo(1);
        assertThat(response.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(response.path("error").path("message").asString()).isEqualTo("invalid params: "
                + "_meta[\"dev.mesh/request-id\"] is \"cli-9\" but the transport's request id (over the broker, the "
                + "message_id) is \"amqp-4\"; send the same id in both, or leave it out of _meta");
        assertThat(fixtures.inventory.assignments()).isEmpty();
    }

    @Test
    void envelopeRequestId_overTheLimit_isInvalidParams() {
        JsonNode response = assign(Envelope.of("tester", "m".repeat(201)), "beta", "");

        assertThat(response.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(response.path("error").path("message").asString()).isEqualTo("invalid params: the transport's "
                + "request id (over the broker, the message_id) must be a string of 1 to 200 characters, not one of "
                + "201");
        assertThat(fixtures.inventory.assignments()).isEmpty();
    }

    @Test
    void withoutEnvelopeRequestId_metaGivesIt() {
        JsonNode first = assign(Envelope.of("tester"), "beta", "{\"dev.mesh/request-id\": \"cli-1\"}");
        int events = fixtures.events.events().size();
        JsonNode second = assign(Envelope.of("tester"), "beta", "{\"dev.mesh/request-id\": \"cli-1\"}");

        assertThat(second).isEqualTo(first);
        assertThat(fixtures.events.events()).hasSize(events);
    }

    @Test
    void envelopeRequestId_onAReadVerb_isAccepted() {
        JsonNode response = send(dispatcher, Envelope.of("tester", "amqp-5"), "{\"jsonrpc\": \"2.0\", \"id\": 2, "
                + "\"method\": \"tools/call\", \"params\": {\"name\": \"status\"}}");

        assertThat(response.path("result").path("isError").asBoolean()).isFalse();
    }

    // --- the error boundary: a failure of the hierarchy in the identity check is a tool error

    /** A category of the hierarchy that core does not know, as the store's StoreException is. */
    static final class DatabaseDownException extends MeshException {
        private static final long serialVersionUID = 1L;

        DatabaseDownException(String message) {
            super(message);
        }
    }

    @Test
    void identityCheckFailingWithAMeshException_isAToolErrorUnavailable_neverAnInternalError() {
        Identity down = (principal, verb) -> {
            throw new DatabaseDownException("the identity database at localhost:5432 does not answer; start it "
                    + "with bin/services");
        };

        JsonNode response = send(fixtures.dispatcher(down), Envelope.of("tester"), "{\"jsonrpc\": \"2.0\", \"id\": 3, "
                + "\"method\": \"tools/call\", \"params\": {\"name\": \"status\"}}");

        assertThat(response.has("error")).as("a JSON-RPC error in %s", response).isFalse();
        JsonNode result = response.path("result");
        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.path("structuredContent")).isEqualTo(Fixtures.JSON.readTree("{\"code\": \"unavailable\", "
                + "\"message\": \"the identity database at localhost:5432 does not answer; start it with "
                + "bin/services\"}"));
        assertThat(response.toString()).doesNotContain("DatabaseDownException", "at dev.mesh");
    }
}
