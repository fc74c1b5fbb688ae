package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events out to the real NATS at 127.0.0.1:4222, each test on a subject prefix of its own; the mesh's side
 * is a plain jnats subscriber, as a listener in another language would write it.
 */
class NatsEventsIT {

    private static final String URL = "nats://127.0.0.1:4222";
    private static final String START = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server"
            + " -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log";
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private NatsEvents events;
    private Connection mesh;
    private Subscription subscription;

    @BeforeEach
    void start() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 4222), 2_000);
        } catch (IOException e) {
            fail("NATS does not answer at 127.0.0.1:4222 (" + e.getMessage() + "); start it: " + START);
        }
        mesh = Nats.connect(URL);
        subscription = mesh.subscribe(prefix + "mesh.events.>");
        mesh.flush(PATIENCE);
        events = NatsEvents.start(NatsSettings.of(URL).withSubjectPrefix(prefix), () -> NatsEventsTest.STATUS,
                Clock.fixed(NatsEventsTest.AT, ZoneOffset.UTC));
    }

    @AfterEach
    void stop() throws Exception {
        events.close();
        mesh.close();
    }

    @Test
    void publish_reachesASubscriberOfItsKindsSubject_withTheExactJson() throws Exception {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("from", "ctl-a:4242");
        payload.put("to", "ctl-b:4343");
        payload.put("epochOld", 41L);
        payload.put("epochNew", 42L);
        payload.put("gapMs", 37);

        events.publish("handover", payload);

        Message message = subscription.nextMessage(PATIENCE);
        assertThat(message).as("the event within " + PATIENCE).isNotNull();
        assertThat(message.getSubject()).isEqualTo(prefix + "mesh.events.handover");
        assertThat(new String(message.getData(), StandardCharsets.UTF_8)).isEqualTo("{\"kind\":\"handover\","
                + "\"epoch\":42,\"instance\":\"ctl-a:4242\",\"at\":\"2026-12-01T10:00:00.250Z\",\"from\":\"ctl-a:4242\","
                + "\"to\":\"ctl-b:4343\",\"epochOld\":41,\"epochNew\":42,\"gapMs\":37}");
        assertThat(events.counts().published()).isEqualTo(1);
    }

    @Test
    void publish_unwritableOrAfterClose_countsIt_neverThrows_andTheNextEventStillGoes() throws Exception {
        events.publish("plan", Map.of("what", new NatsEventsTest.Unwritable("x")));
        events.publish("two.tokens", Map.of());
        events.publish("plan", Map.of("verb", "assign"));

        Message message = subscription.nextMessage(PATIENCE);
        assertThat(message).isNotNull();
        assertThat(message.getSubject()).isEqualTo(prefix + "mesh.events.plan");
        assertThat(new String(message.getData(), StandardCharsets.UTF_8)).endsWith(",\"verb\":\"assign\"}");
        assertThat(subscription.nextMessage(Duration.ofMillis(200))).as("nothing else was sent").isNull();

        events.close();
        events.publish("plan", Map.of("verb", "assign"));

        NatsEvents.Counts counts = events.counts();
        assertThat(counts.published()).isEqualTo(1);
        assertThat(counts.failed(NatsEvents.Failure.UNWRITABLE)).isEqualTo(2);
        assertThat(counts.failed(NatsEvents.Failure.REFUSED)).isEqualTo(1);
        assertThat(counts.failed(NatsEvents.Failure.DISCARDED)).isZero();
    }
}
