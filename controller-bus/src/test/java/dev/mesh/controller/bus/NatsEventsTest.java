package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.Tenure;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class NatsEventsTest {

    static final Lifecycle.Status STATUS = new Lifecycle.Status(Role.ACTIVE, 42,
            Instant.parse("2026-12-01T09:00:00Z"), "ctl-a:4242", "", "ctl-a:4242");
    static final Instant AT = Instant.parse("2026-12-01T10:00:00.250Z");

    /** A value Jackson cannot write: reading its component fails. */
    record Unwritable(String value) {
        @Override
        public String value() {
            throw new IllegalStateException("this value cannot be read");
        }
    }

    private static String body(String kind, Map<String, Object> payload) {
        return new String(NatsEvents.body(kind, payload, STATUS, AT), StandardCharsets.UTF_8);
    }

    @Test
    void body_isKindEpochInstanceAt_thenThePayloadsFields_inTheirOrder() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("from", "ctl-a:4242");
        payload.put("to", "ctl-b:4343");
        payload.put("epochOld", 41L);
        payload.put("epochNew", 42L);
        payload.put("gapMs", 37);

        assertThat(body("handover", payload)).isEqualTo("{\"kind\":\"handover\",\"epoch\":42,\"instance\":"
                + "\"ctl-a:4242\",\"at\":\"2026-12-01T10:00:00.250Z\",\"from\":\"ctl-a:4242\",\"to\":\"ctl-b:4343\","
                + "\"epochOld\":41,\"epochNew\":42,\"gapMs\":37}");
    }

    @Test
    void body_ofTheFirstHandover_hasANullGap() {
        Tenure first = new Tenure(1, Instant.parse("2026-12-01T09:00:00Z"), "ctl-a:4242", "", 0, new Tenure.First());

        assertThat(body("handover", Lifecycle.handover(first))).endsWith("\"from\":\"\",\"to\":\"ctl-a:4242\","
                + "\"epochOld\":0,\"epochNew\":1,\"gapMs\":null,\"how\":\"first\"}");
    }

    @Test
    void body_writesMapsListsBooleansNullsAndInstants_asJson() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("summary", new LinkedHashMap<>(Map.of("start", 2)));
        payload.put("nodes", List.of("n1", "n2"));
        payload.put("silent", true);
        payload.put("revision", null);
        payload.put("lastSeen", Instant.parse("2026-12-01T09:59:55Z"));

        assertThat(body("node", payload)).endsWith("\"summary\":{\"start\":2},\"nodes\":[\"n1\",\"n2\"],"
                + "\"silent\":true,\"revision\":null,\"lastSeen\":\"2026-12-01T09:59:55Z\"}");
    }

    @Test
    void body_payloadFieldNamedLikeTheEnvelope_isLeftOut() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("epoch", 1);
        payload.put("kind", "other");
        payload.put("verb", "assign");

        assertThat(body("plan", payload)).isEqualTo("{\"kind\":\"plan\",\"epoch\":42,\"instance\":\"ctl-a:4242\","
                + "\"at\":\"2026-12-01T10:00:00.250Z\",\"verb\":\"assign\"}");
    }

    @Test
    void body_valueJacksonCannotWrite_throwsJacksonException() {
        assertThatThrownBy(() -> body("plan", Map.of("what", new Unwritable("x")))).isInstanceOf(JacksonException.class);
    }
}
