package dev.mesh.controller.bus;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.FeedPolicy;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Core's {@link Consumers} port on the broker (docs/design.md section 10): this controller's single-active consumer
 * of {@link Topology#VERBS}, {@link BrokerVerbs}, with its ticks. {@link #start} starts the transport and tells
 * the listener what its {@link Feeding} is told ({@link Feeding#stillFed()}, every tick period while fed, as
 * {@link Listener#fed()} again); {@link #handOver()} is {@link BrokerVerbs#stopConsuming()}
 * ({@code basic.cancel}), {@link #rejoin()} {@link BrokerVerbs#resumeConsuming()} ({@code basic.consume} again,
 * behind the other controllers' consumers), {@link #settled} {@link BrokerVerbs#settled}.
 *
 * <p>The reports' queue ({@link ReportsIn}) is not moved: every controller consumes it, and a standby's sink
 * refuses reports as {@code unavailable}, which gives them back to the consumer the broker feeds.
 *
 * <p>Thread-safe. The listener is called on the transport's feed thread, one call at a time, never on the
 * consumer thread that acknowledges the requests this controller holds.
 */
public final class BrokerConsumers implements Consumers, AutoCloseable {

    private final Broker broker;
    private final Verbs verbs;
    private final Identity identity;
    private final String version;
    private final Lifecycle lifecycle;
    private final FeedPolicy policy;
    private volatile BrokerVerbs transport;
    private boolean closed;

    private BrokerConsumers(Broker broker, Verbs verbs, Identity identity, String version, Lifecycle lifecycle,
            FeedPolicy policy) {
        this.policy = policy;
        this.broker = broker;
        this.verbs = verbs;
        this.identity = identity;
        this.version = version;
        this.lifecycle = lifecycle;
    }

    /**
     * What {@link #start} starts: the verbs' broker transport, as {@link BrokerVerbs#start} takes it.
     *
     * @param broker the connection to consume and tick on
     * @param verbs the verbs, the same instance as every other transport's
     * @param identity who may call which verb
     * @param version the controller's version, told in {@code initialize}
     * @param lifecycle the controller's life cycle, whose epoch and instance every reply carries
     * @param policy the tick period and what the deliveries mean (the handover's rule), for these consumers alone
     * @return the consumers, not started
     */
    public static BrokerConsumers of(Broker broker, Verbs verbs, Identity identity, String version,
            Lifecycle lifecycle, FeedPolicy policy) {
        return new BrokerConsumers(Objects.requireNonNull(broker, "broker"), Objects.requireNonNull(verbs, "verbs"),
                Objects.requireNonNull(identity, "identity"), Objects.requireNonNull(version, "version"),
                Objects.requireNonNull(lifecycle, "lifecycle"), Objects.requireNonNull(policy, "policy"));
    }

    /**
     * Starts the verbs' broker transport, ticking, and tells {@code listener} whether the broker feeds it.
     *
     * @throws IllegalStateException when started already, or closed
     * @throws BusException when the verbs' queue cannot be consumed
     */
    @Override
    public synchronized void start(Listener listener) {
        Objects.requireNonNull(listener, "listener");
        if (transport != null || closed) {
            throw new IllegalStateException(closed ? "the broker consumers are closed" : "started already");
        }
        transport = BrokerVerbs.start(broker, verbs, identity, version, lifecycle, new Feeding() {
            @Override
            public void fed() {
                listener.fed();
            }

            @Override
            public void stillFed() {
                listener.fed(); // the port's fed() is told again and again: a refused activation is tried again
            }

            @Override
            public void starved() {
                listener.starved();
            }
        }, policy);
    }

    @Override
    public void handOver() {
        running().stopConsuming();
    }

    @Override
    public void rejoin() {
        running().resumeConsuming();
    }

    @Override
    public boolean settled(Duration wait) {
        return running().settled(wait);
    }

    /** @return the running transport, for status and tests; empty before {@link #start} */
    public Optional<BrokerVerbs> verbs() {
        return Optional.ofNullable(transport);
    }

    private BrokerVerbs running() {
        BrokerVerbs running = transport;
        if (running == null) {
            throw new IllegalStateException("the broker consumers are not started");
        }
        return running;
    }

    /** Closes the transport: what it still holds goes back to the queue. Does nothing the second time. */
    @Override
    public synchronized void close() {
        closed = true;
        BrokerVerbs running = transport;
        if (running != null) {
            running.close();
        }
    }
}
