package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Events} must do: an event published reaches the mesh under its kind, with every field of its
 * payload and its value ({@code null} too: a handover's {@code gapMs} unknown), in the order published; a
 * transport may add fields of its own beside them. Run by {@code MemoryEventsTest} here and by NATS's events in
 * controller-bus (through core's test jar).
 */
public abstract class EventsContract {

    /**
     * What the mesh got. The values are as JSON reads them back: text, whole numbers as {@code Long},
     * {@code Boolean}, {@code null}.
     *
     * @param kind the event's kind
     * @param payload its fields, with any the transport added
     */
    public record Received(String kind, Map<String, Object> payload) {
        /** Checks the parts. */
        public Received {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(payload, "payload");
        }
    }

    private Events events;

    /** @return new events, on a transport of their own that nothing else publishes on */
    protected abstract Events newEvents();

    /**
     * @param count how many events to wait for
     * @return the first {@code count} events the mesh got since the last call, in order; fewer when no more
     *     came within the transport's patience
     */
    protected abstract List<Received> received(int count);

    @BeforeEach
    void freshEvents() {
        events = newEvents();
    }

    @Test
    void publish_reachesTheMeshUnderItsKind_withEveryFieldAndValue_inTheOrderPublished() {
        Map<String, Object> handover = new LinkedHashMap<>();
        handover.put("from", "ctl-a:1");
        handover.put("to", "ctl-b:2");
        handover.put("epochOld", 0L);
        handover.put("epochNew", 1L);
        handover.put("gapMs", null);
        handover.put("how", "first");
        Map<String, Object> plan = Map.of("revision", "sha256:01", "changed", true);

        events.publish(Lifecycle.HANDOVER, handover);
        events.publish("plan", plan);

        List<Received> got = received(2);
        assertThat(got).extracting(Received::kind).containsExactly(Lifecycle.HANDOVER, "plan");
        assertThat(got.get(0).payload()).containsAllEntriesOf(handover);
        assertThat(got.get(1).payload()).containsAllEntriesOf(plan);
        events.publish("marker", Map.of());
        assertThat(received(1)).as("each once: the next is the one published next").extracting(Received::kind)
                .containsExactly("marker");
    }

    @Test
    void publish_manyInARow_keepsTheirOrder() {
        for (long n = 1; n <= 50; n++) {
            events.publish("node", Map.of("n", n));
        }

        assertThat(received(50)).extracting(event -> event.payload().get("n"))
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 50).boxed().toList());
    }
}
