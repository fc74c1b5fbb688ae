package dev.mesh.controller.core.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Consumers;
import dev.mesh.controller.core.ConsumersContract;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MemoryConsumersTest extends ConsumersContract {

    @Override
    protected Consumers newConsumers() {
        return new MemoryConsumers();
    }

    @Override
    protected void arrive(Consumers consumers) {
        ((MemoryConsumers) consumers).feed();
    }

    @Override
    protected Duration patience() {
        return Duration.ofMillis(300);
    }

    @Test
    void settled_whileDeliveriesAreHeld_isFalse() {
        MemoryConsumers held = new MemoryConsumers();
        held.start(new Told());
        held.hold(2);

        assertThat(held.settled(Duration.ZERO)).isFalse();
        held.hold(0);
        assertThat(held.settled(Duration.ZERO)).isTrue();
    }
}
