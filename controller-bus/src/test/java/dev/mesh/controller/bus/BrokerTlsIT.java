package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.mesh.controller.bus.BrokerSettings.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to the broker through stunnel (a TLS endpoint in front of the local RabbitMQ's plain port), with a CA,
 * certificates and a second, unrelated CA made by {@code openssl} for this run.
 */
class BrokerTlsIT {

    @TempDir
    static Path directory;
    private static Path authority;
    private static Path otherAuthority;
    private static Stunnel stunnel;

    private RabbitVhost vhost;

    @BeforeAll
    static void startStunnel() {
        authority = authority("ca", "mesh-it CA");
        otherAuthority = authority("other-ca", "mesh-it other CA");
        stunnel = Stunnel.start(directory, List.of(
                server("localhost", "DNS:localhost,IP:127.0.0.1", "ca"),
                server("other", "DNS:other.example", "ca")));
    }

    @AfterAll
    static void stopStunnel() {
        if (stunnel != null) {
            stunnel.close();
        }
    }

    @BeforeEach
    void createVhost() {
        vhost = RabbitVhost.create();
    }

    @AfterEach
    void deleteVhost() {
        vhost.close();
    }

    @Test
    void connect_withTheBrokersCa_carriesAmqpOverTls() throws Exception {
        for (String host : List.of("localhost", "127.0.0.1")) {
            try (Broker broker = Broker.connect(settings(host, stunnel.port("localhost"), authority), "it-tls")) {
                Topology.declare(broker);
                Channel channel = broker.connection().createChannel();
                String queue = channel.queueDeclare().getQueue();
                channel.basicPublish("", queue, null, ("over TLS to " + host).getBytes(StandardCharsets.UTF_8));
                GetResponse got = channel.basicGet(queue, true);

                assertThat(got).as(host).isNotNull();
                assertThat(new String(got.getBody(), StandardCharsets.UTF_8)).isEqualTo("over TLS to " + host);
                assertThat(channel.queueDeclarePassive("mesh-controller.verbs").getQueue())
                        .isEqualTo("mesh-controller.verbs");
            }
        }
    }

    @Test
    void connect_withAnotherCa_isRefusedNamingMeshBrokerCertificate() {
        int port = stunnel.port("localhost");

        assertThatThrownBy(() -> Broker.connect(settings("localhost", port, otherAuthority), "it-tls"))
                .isInstanceOf(BusException.class)
                .hasMessage("the broker at localhost:" + port + " presented a certificate for DNS:localhost, "
                        + "IP:127.0.0.1 issued by CN=mesh-it CA, which does not chain to the CA in "
                        + "MESH_BROKER_CERTIFICATE (" + otherAuthority + "); set MESH_BROKER_CERTIFICATE to the CA "
                        + "that issued the broker's certificate, or give the broker a certificate issued by that CA")
                .hasCauseInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void connect_toAHostTheCertificateIsNotFor_isRefusedNamingTheHost() {
        int port = stunnel.port("other");
        for (String host : List.of("127.0.0.1", "localhost")) {
            assertThatThrownBy(() -> Broker.connect(settings(host, port, authority), "it-tls"))
                    .isInstanceOf(BusException.class)
                    .hasMessage("the broker at " + host + ":" + port + " presented a certificate for "
                            + "DNS:other.example, not for " + host + "; set MESH_BROKER_ADDRESS_PORT to a name the "
                            + "certificate is for, or give the broker a certificate for " + host + " (a subject "
                            + "alternative name) issued by the CA in MESH_BROKER_CERTIFICATE (" + authority + ")")
                    .hasCauseInstanceOf(IOException.class);
        }
    }

    @Test
    void connect_overTlsToThePlainPort_saysToCheckThePort() {
        assertThatThrownBy(() -> Broker.connect(settings(RabbitVhost.HOST, RabbitVhost.PORT, authority), "it-tls"))
                .isInstanceOf(BusException.class)
                .hasMessageStartingWith("the TLS handshake with the broker at 127.0.0.1:5672 failed: ")
                .hasMessageEndingWith("; check that MESH_BROKER_ADDRESS_PORT is the broker's TLS port (RabbitMQ's "
                        + "is 5671 by default) and that the broker speaks TLS 1.3 or 1.2")
                .message().doesNotContain("\tat ", "Exception");
    }

    private BrokerSettings settings(String host, int port, Path certificate) {
        return new BrokerSettings(host, port, vhost.name(), RabbitVhost.USER, RabbitVhost.PASSWORD,
                new Transport.Tls(certificate));
    }

    /** @return a new self-signed CA's certificate, {@code NAME.pem}; its key is {@code NAME.key} */
    private static Path authority(String name, String commonName) {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-keyout", name + ".key", "-out", name + ".pem", "-subj", "/CN=" + commonName,
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        return directory.resolve(name + ".pem");
    }

    /** @return a server certificate {@code NAME.pem} for {@code alternativeNames}, issued by the CA named so */
    private static Stunnel.Service server(String name, String alternativeNames, String authority) {
        openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
        try {
            Files.writeString(directory.resolve(name + ".ext"), "subjectAltName=" + alternativeNames
                    + "\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("x509", "-req", "-in", name + ".csr", "-CA", authority + ".pem", "-CAkey", authority + ".key",
                "-set_serial", Long.toString(System.nanoTime()), "-days", "1", "-out", name + ".pem",
                "-extfile", name + ".ext");
        return new Stunnel.Service(name, directory.resolve(name + ".pem"), directory.resolve(name + ".key"));
    }

    private static void openssl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                fail(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run openssl (install it: apt-get install -y openssl): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while running " + String.join(" ", command));
        }
    }
}
