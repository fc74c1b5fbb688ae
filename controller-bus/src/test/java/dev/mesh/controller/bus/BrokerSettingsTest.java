package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.bus.BrokerSettings.Transport;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerSettingsTest {

    private static final Secret PASSWORD = Secret.of("p");

    @Test
    void plain_toALoopbackHost_isAccepted() {
        for (String host : new String[] {"localhost", "LocalHost", "127.0.0.1", "127.8.9.10", "::1", "[::1]",
                "0:0:0:0:0:0:0:1"}) {
            assertThat(new BrokerSettings(host, 5672, "mesh", "ctl", PASSWORD, Transport.PLAIN).addresses())
                    .containsExactly(new Address(host, 5672));
        }
    }

    @Test
    void plain_toAnotherHost_isRefusedNamingMeshBrokerCertificate() {
        assertThatThrownBy(() -> new BrokerSettings("10.0.0.1", 5672, "mesh", "ctl", PASSWORD, Transport.PLAIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plain AMQP to the broker at 10.0.0.1:5672 is refused: without TLS the controller "
                        + "connects to a loopback address only (localhost, 127.0.0.0/8, ::1); set "
                        + "MESH_BROKER_CERTIFICATE to the CA the broker's TLS certificate chains to");
    }

    @Test
    void plain_toANameOrAnAddressThatOnlyLooksLoopback_isRefused() {
        for (String host : new String[] {"broker.example", "localhost.example", "127.0.0.256", "128.0.0.1",
                "::2", "127.0.0.1.nip.io"}) {
            assertThatThrownBy(() -> new BrokerSettings(host, 5672, "mesh", "ctl", PASSWORD, Transport.PLAIN))
                    .as(host)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("MESH_BROKER_CERTIFICATE");
        }
    }

    @Test
    void aCluster_plain_everyMemberMustBeLoopback_andMessagesNameThemAll() {
        BrokerSettings cluster = new BrokerSettings(List.of(new Address("127.0.0.1", 5672), new Address("::1", 5673)),
                "mesh", "ctl", PASSWORD, Transport.PLAIN);
        assertThat(cluster.where()).isEqualTo("ctl@127.0.0.1:5672,[::1]:5673/mesh");

        assertThatThrownBy(() -> new BrokerSettings(List.of(new Address("127.0.0.1", 5672),
                new Address("10.0.0.2", 5672)), "mesh", "ctl", PASSWORD, Transport.PLAIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("plain AMQP to the broker at 10.0.0.2:5672 is refused");
        assertThatThrownBy(() -> new BrokerSettings(List.of(), "mesh", "ctl", PASSWORD, Transport.PLAIN))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the broker needs one address at least");
    }

    @Test
    void tls_toAnyHost_isAccepted() {
        BrokerSettings settings = new BrokerSettings("broker.example", 5671, "mesh", "ctl", PASSWORD,
                new Transport.Tls(Path.of("/etc/mesh/broker-ca.pem")));

        assertThat(settings.transport()).isEqualTo(new Transport.Tls(Path.of("/etc/mesh/broker-ca.pem")));
        assertThat(settings.toString()).doesNotContain("p,").contains("***");
    }
}
