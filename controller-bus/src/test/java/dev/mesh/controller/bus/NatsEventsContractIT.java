package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.fail;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.EventsContract;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link NatsEvents} on the real NATS at 127.0.0.1:4222, a subject prefix per test, passes core's events'
 * contract: the mesh's side is a plain jnats subscriber of {@code mesh.events.>}.
 */
class NatsEventsContractIT extends EventsContract {

    private static final String URL = "nats://127.0.0.1:4222";
    private static final String START = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server"
            + " -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log";
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private NatsEvents events;
    private Connection mesh;
    private Subscription subscription;

    @Override
    protected Events newEvents() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 4222), 2_000);
        } catch (IOException e) {
            fail("NATS does not answer at 127.0.0.1:4222 (" + e.getMessage() + "); start it: " + START);
        }
        try {
            mesh = Nats.connect(URL);
            subscription = mesh.subscribe(prefix + "mesh.events.>");
            mesh.flush(PATIENCE);
        } catch (IOException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot subscribe to NATS at " + URL, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while subscribing to NATS", e);
        }
        events = NatsEvents.start(NatsSettings.of(URL).withSubjectPrefix(prefix), () -> NatsEventsTest.STATUS,
                Clock.fixed(NatsEventsTest.AT, ZoneOffset.UTC));
        return events;
    }

    @Override
    protected List<Received> received(int count) {
        List<Received> received = new ArrayList<>();
        try {
            while (received.size() < count) {
                Message message = subscription.nextMessage(PATIENCE);
                if (message == null) {
                    break;
                }
                String kind = message.getSubject().substring((prefix + "mesh.events.").length());
                Map<String, Object> payload = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> field : JSON.readTree(message.getData()).properties()) {
                    payload.put(field.getKey(), value(field.getValue()));
                }
                received.add(new Received(kind, payload));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the events", e);
        }
        return received;
    }

    /** @return the value as the contract compares it: text, a whole number as a {@code Long}, a boolean, null */
    private static Object value(JsonNode node) {
        if (node.isNull()) {
            return null;
        }
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.isString() ? node.stringValue() : node.toString();
    }

    @AfterEach
    void stop() throws InterruptedException {
        events.close();
        mesh.close();
    }
}
