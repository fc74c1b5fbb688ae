package dev.mesh.controller.simhost;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Publishes any body on any node's facts subject, as anyone on a NATS without authorization can: for tests and the
 * lab to play a hostile publisher (a name the inventory cannot hold, made-up nodes, facts from the future) against a
 * controller. A {@link SimulatedHost} publishes a host's genuine facts; this publishes whatever it is given.
 */
public final class FactsPublisher implements AutoCloseable {

    private final io.nats.client.Connection nats;
    private final NatsSettings settings;

    private FactsPublisher(io.nats.client.Connection nats, NatsSettings settings) {
        this.nats = nats;
        this.settings = settings;
    }

    /**
     * @throws SimulationException when NATS cannot be reached
     */
    public static FactsPublisher open(NatsSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new FactsPublisher(Connections.nats(settings, "simhost-facts-publisher"), settings);
    }

    /** Publishes {@code body} on {@code <prefix>mesh.nodes.<subjectNode>.facts}. */
    public void publish(String subjectNode, String body) {
        nats.publish(settings.subjectPrefix() + "mesh.nodes." + subjectNode + ".facts",
                body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Waits until the server has everything published so far.
     *
     * @throws SimulationException when it does not within {@code wait}
     */
    public void flush(Duration wait) {
        try {
            nats.flush(wait);
        } catch (TimeoutException e) {
            throw new SimulationException("NATS at " + settings.url() + " did not take the facts within " + wait, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SimulationException("interrupted while flushing facts to NATS at " + settings.url(), e);
        }
    }

    @Override
    public void close() {
        try {
            nats.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
