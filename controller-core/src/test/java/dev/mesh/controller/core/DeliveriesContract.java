package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Deliveries} must do: a declaration delivered reaches its node and no other, with its revision
 * and the epoch it was sent with, in the order sent; one without a revision, or sent with an epoch below 1, is
 * refused before anything is sent; preparing a node is idempotent and sends nothing, and a declaration delivered
 * to a prepared node waits there for its host. Run by {@code MemoryDeliveriesTest} here and by the broker's
 * deliveries in controller-bus (through core's test jar).
 */
public abstract class DeliveriesContract {

    /**
     * What a node's host got.
     *
     * @param declaration the declaration, as the host reads it
     * @param revision the revision it came with
     * @param epoch the epoch it came with
     */
    public record Received(Declaration declaration, String revision, long epoch) {
        /** Checks the parts. */
        public Received {
            Objects.requireNonNull(declaration, "declaration");
            Objects.requireNonNull(revision, "revision");
        }
    }

    private Deliveries deliveries;

    /** @return new deliveries, to a transport of their own that nothing else sends on */
    protected abstract Deliveries newDeliveries();

    /**
     * @param node a node's name
     * @return every declaration that node's host got since the last call for it, in order (a host reading
     *     its queue now, after the calls to the deliveries returned)
     */
    protected abstract List<Received> receivedBy(String node);

    @BeforeEach
    void freshDeliveries() {
        deliveries = newDeliveries();
    }

    /**
     * @param node the node
     * @param tool a name that makes the declaration, and so its revision, differ
     * @return a declaration of {@code node} with its revision, as composition makes it
     */
    protected static Declaration declaration(String node, String tool) {
        Declaration unsigned = new Declaration(node, "", List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of("contract"), List.of(new Declaration.Tool("contract-module", tool)));
        return unsigned.withRevision(CanonicalJson.digest(unsigned));
    }

    @Test
    void deliver_reachesItsNodeAlone_withItsRevisionAndEpoch_inTheOrderSent() {
        deliveries.prepare("n2");
        Declaration first = declaration("n1", "one");
        Declaration second = declaration("n1", "two");

        deliveries.deliver(first, 7);
        deliveries.deliver(second, 8);

        assertThat(receivedBy("n1")).containsExactly(new Received(first, first.revision(), 7),
                new Received(second, second.revision(), 8));
        assertThat(receivedBy("n2")).as("another node").isEmpty();
        assertThat(receivedBy("n1")).as("each once").isEmpty();
    }

    @Test
    void deliver_withoutARevision_orBelowEpochOne_isRefused_andNothingIsSent() {
        Declaration unsigned = declaration("n1", "one").withRevision("");

        assertThatThrownBy(() -> deliveries.deliver(unsigned, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the declaration of node n1 has no revision; deliver a composed declaration");
        assertThatThrownBy(() -> deliveries.deliver(declaration("n1", "one"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a delivery carries the epoch of the plan lock taken, at least 1, not 0");
        deliveries.prepare("n1");
        assertThat(receivedBy("n1")).isEmpty();
    }

    @Test
    void prepare_isIdempotent_sendsNothing_andWhatIsDeliveredThenWaitsForTheHost() {
        deliveries.prepare("n1");
        deliveries.prepare("n1");
        assertThat(receivedBy("n1")).isEmpty();

        Declaration declaration = declaration("n1", "one");
        deliveries.deliver(declaration, 3);

        assertThat(receivedBy("n1")).containsExactly(new Received(declaration, declaration.revision(), 3));
    }

    @Test
    void prepare_aBlankName_isRefused() {
        // Each says it in its own words: the broker's names the queue it would declare.
        assertThatThrownBy(() -> deliveries.prepare(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a blank one");
    }
}
