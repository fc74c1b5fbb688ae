package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Builders} must do: a build order reaches the builders of its system and no other, whole and
 * with the epoch it was sent with, in the order sent, and waits for a builder that is not there yet; an order
 * sent with an epoch below 1 is refused before anything is sent. Run by {@code MemoryBuildersTest} here and by
 * the broker's builders in controller-bus (through core's test jar).
 */
public abstract class BuildersContract {

    /**
     * What a builder got.
     *
     * @param order the order, as the builder reads it
     * @param epoch the epoch it came with
     */
    public record Received(BuildOrder order, long epoch) {
        /** Checks the parts. */
        public Received {
            Objects.requireNonNull(order, "order");
        }
    }

    private Builders builders;

    /** @return new builders, on a transport of their own that nothing else sends on */
    protected abstract Builders newBuilders();

    /**
     * @param system a system, e.g. {@code debian-12}
     * @return every order a builder of that system got since the last call for it, in order (a builder that
     *     starts reading now, after the calls to the builders returned)
     */
    protected abstract List<Received> receivedOn(String system);

    @BeforeEach
    void freshBuilders() {
        builders = newBuilders();
    }

    /**
     * @param version the module's version
     * @param system the artifact's system
     * @return an order for the artifact {@code server} of {@code contract-store} at that version
     */
    protected static BuildOrder order(String version, String system) {
        return new BuildOrder(BuildOrder.id("contract-store", version, "server"), "contract-store", version,
                "server", "binary", "rust", system, "src/server", "contract-store-server");
    }

    @Test
    void request_reachesTheBuildersOfItsSystemAlone_wholeAndWithItsEpoch_inTheOrderSent() {
        BuildOrder first = order("1.0.0", "debian-12");
        BuildOrder second = order("1.1.0", "debian-12");
        BuildOrder other = order("1.0.0", "arch");

        builders.request(first, 4);
        builders.request(other, 4);
        builders.request(second, 5);

        assertThat(receivedOn("debian-12")).containsExactly(new Received(first, 4), new Received(second, 5));
        assertThat(receivedOn("arch")).containsExactly(new Received(other, 4));
        assertThat(receivedOn("debian-12")).as("each once").isEmpty();
    }

    @Test
    void request_belowEpochOne_isRefused_andNothingIsSent() {
        assertThatThrownBy(() -> builders.request(order("1.0.0", "debian-12"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a build order carries the epoch of the plan lock taken, at least 1, not 0");
        assertThat(receivedOn("debian-12")).isEmpty();
    }
}
