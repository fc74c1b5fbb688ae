package dev.mesh.controller.simhost;

import io.nats.client.ErrorListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

/**
 * Publishes any body on any node's facts subject, as anyone on a NATS without authorization can, or as a node's
 * user tries to on one with it: for tests and the lab to play a hostile publisher (a name the inventory cannot
 * hold, made-up nodes, facts from the future, another node's facts) against a controller. A {@link SimulatedHost}
 * publishes a host's genuine facts; this publishes whatever it is given, and keeps what the server reports
 * ({@link #errors()}: a permissions violation, when it refused a publish or a subscription).
 */
public final class FactsPublisher implements AutoCloseable {

    private final io.nats.client.Connection nats;
    private final NatsSettings settings;
    private final List<String> errors;

    private FactsPublisher(io.nats.client.Connection nats, NatsSettings settings, List<String> errors) {
        this.nats = nats;
        this.settings = settings;
        this.errors = errors;
    }

    /**
     * @throws SimulationException when NATS cannot be reached, or refuses the settings' user
     */
    public static FactsPublisher open(NatsSettings settings) {
        Objects.requireNonNull(settings, "settings");
        List<String> errors = new CopyOnWriteArrayList<>();
        ErrorListener listener = new ErrorListener() {
            @Override
            public void errorOccurred(io.nats.client.Connection conn, String error) {
                errors.add(error);
            }
        };
        return new FactsPublisher(Connections.nats(settings, "simhost-facts-publisher", listener), settings, errors);
    }

    /** @return what the server reported on this connection so far, oldest first */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    /**
     * Subscribes to {@code subject} (no prefix added) for {@code wait}, as an eavesdropper would.
     *
     * @return how many messages arrived meanwhile
     */
    public int listen(String subject, Duration wait) {
        io.nats.client.Subscription subscription = nats.subscribe(subject);
        int received = 0;
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            for (long left = wait.toNanos(); left > 0; left = deadline - System.nanoTime()) {
                if (subscription.nextMessage(Duration.ofNanos(left)) != null) {
                    received++;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            // the server closed the subscription (a permissions violation): nothing more arrives
        } finally {
            if (subscription.isActive()) {
                subscription.unsubscribe();
            }
        }
        return received;
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
