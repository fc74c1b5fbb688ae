package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Consumers} must do for the handover: started once; tells {@code fed} while the broker feeds
 * it; after {@link Consumers#handOver()} it is fed nothing until it {@link Consumers#rejoin() rejoins}, and both
 * are idempotent; {@link Consumers#settled} with nothing held is true. Run by {@code MemoryConsumersTest} here and
 * by the broker's consumers in controller-bus (through core's test jar).
 */
public abstract class ConsumersContract {

    /** What the consumers told. */
    protected static final class Told implements Consumers.Listener {
        private final AtomicInteger fed = new AtomicInteger();
        private final AtomicInteger starved = new AtomicInteger();

        @Override
        public void fed() {
            fed.incrementAndGet();
        }

        @Override
        public void starved() {
            starved.incrementAndGet();
        }

        /** Tells nothing yet. */
        public Told() {
        }

        /** @return how many times {@code fed} was told */
        public int timesFed() {
            return fed.get();
        }
    }

    private Consumers consumers;
    private final Told told = new Told();

    /** @return new consumers, not started, alone on queues of their own: once started, the broker feeds them */
    protected abstract Consumers newConsumers();

    /**
     * Makes a message or tick reach the consumers, as the broker does for its active consumer: a transport that
     * ticks by itself does nothing here.
     *
     * @param consumers the consumers {@link #newConsumers()} made
     */
    protected abstract void arrive(Consumers consumers);

    /** @return how long the transport may take to tell what arrived, and how long a silence is watched */
    protected abstract Duration patience();

    @BeforeEach
    void freshConsumers() {
        consumers = newConsumers();
    }

    @Test
    void start_twice_isRefused() {
        consumers.start(told);

        assertThatThrownBy(() -> consumers.start(new Told())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void started_andFed_tellsFed() {
        consumers.start(told);
        arrive(consumers);

        await().pollInterval(Duration.ofMillis(10)).atMost(patience()).until(() -> told.timesFed() >= 1);
    }

    @Test
    void handedOver_isFedNothing_untilItRejoins() {
        consumers.start(told);
        arrive(consumers);
        await().pollInterval(Duration.ofMillis(10)).atMost(patience()).until(() -> told.timesFed() >= 1);

        consumers.handOver();
        consumers.handOver();
        int before = told.timesFed();
        arrive(consumers);
        await().pollInterval(Duration.ofMillis(10)).during(patience()).atMost(patience().multipliedBy(2))
                .until(() -> told.timesFed() == before);

        consumers.rejoin();
        consumers.rejoin();
        arrive(consumers);
        await().pollInterval(Duration.ofMillis(10)).atMost(patience()).until(() -> told.timesFed() > before);
    }

    @Test
    void settled_withNothingHeld_isTrue_handedOverOrNot() {
        consumers.start(told);
        assertThat(consumers.settled(patience())).as("consuming, nothing held").isTrue();

        consumers.handOver();
        assertThat(consumers.settled(patience())).as("handed over, nothing held").isTrue();
    }
}
