package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.BuildOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BrokerBuildersTest {

    @Test
    void body_isTheWireContractsObject_inItsOrder() {
        BuildOrder order = new BuildOrder("build:mesh-store@1.4.0/server", "mesh-store", "1.4.0", "server", "binary",
                "rust", "debian-12", "src/server", "mesh-store-server");

        assertThat(new String(BrokerBuilders.body(order), StandardCharsets.UTF_8)).isEqualTo("{\"build\":"
                + "\"build:mesh-store@1.4.0/server\",\"module\":\"mesh-store\",\"version\":\"1.4.0\",\"artifact\":"
                + "\"server\",\"kind\":\"binary\",\"language\":\"rust\",\"system\":\"debian-12\",\"from\":"
                + "\"src/server\",\"binary\":\"mesh-store-server\"}");
    }

    @Test
    void body_isUtf8_notEscaped() {
        BuildOrder order = new BuildOrder("build:café@1/é", "café", "1", "é", "binary", "rust", "debian-12", "src",
                "bin\"q");

        assertThat(new String(BrokerBuilders.body(order), StandardCharsets.UTF_8))
                .contains("\"module\":\"café\"").contains("\"binary\":\"bin\\\"q\"");
    }
}
