package dev.mesh.controller.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory {@link MemoryDeliveries} and {@link MemoryBuilders}: what was sent, in order, and what is refused. */
class TransportsTest {

    private static Declaration declaration(String node, String revision) {
        return new Declaration(node, revision, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    @Test
    void deliveries_keepWhatWasSentInOrder_andRefuseNoRevisionOrNoEpoch() {
        MemoryDeliveries deliveries = new MemoryDeliveries();

        deliveries.deliver(declaration("beta", "sha256:bb"), 3);
        deliveries.deliver(declaration("alpha", "sha256:aa"), 4);

        assertThat(deliveries.delivered()).containsExactly(
                new MemoryDeliveries.Delivered(declaration("beta", "sha256:bb"), 3),
                new MemoryDeliveries.Delivered(declaration("alpha", "sha256:aa"), 4));
        assertThatThrownBy(() -> deliveries.deliver(declaration("alpha", ""), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the declaration of node alpha has no revision; deliver a composed declaration");
        assertThatThrownBy(() -> deliveries.deliver(declaration("alpha", "sha256:aa"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a delivery carries the epoch of the plan lock taken, at least 1, not 0");
        assertThat(deliveries.delivered()).hasSize(2);
    }

    @Test
    void builders_keepTheOrdersWithTheBodyOfMeshBuilds() throws IOException {
        Path file = Path.of("../examples/modules/mesh-bus.json");
        Manifest bus = Manifest.parse(Files.readAllBytes(file), file.toString());
        MemoryBuilders builders = new MemoryBuilders();

        builders.request(BuildOrder.of(bus, bus.artifacts().getFirst()), 7);

        BuildOrder order = builders.requested().getFirst().order();
        assertThat(order).isEqualTo(new BuildOrder("build:" + bus.module() + "@" + bus.version() + "/nats",
                bus.module(), bus.version(), "nats", "bundle", "go", "debian-12", "nats", "nats-server"));
        assertThat(builders.requested().getFirst().epoch()).isEqualTo(7);
        assertThatThrownBy(() -> builders.request(order, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a build order carries the epoch of the plan lock taken, at least 1, not 0");
    }

    @Test
    void buildOrder_whoseIdNamesAnotherArtifact_isRefused() {
        assertThatThrownBy(() -> new BuildOrder("build:bus@1/other", "bus", "1", "nats", "bundle", "go", "debian-12",
                "nats", "nats-server"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("build id \"build:bus@1/other\" does not name artifact nats of version 1 of module bus; "
                        + "its id is build:bus@1/nats");
    }
}
