package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerTlsTest {

    @TempDir
    Path directory;

    @Test
    void context_ofAMissingFile_namesTheFileAndTheVariable() {
        Path missing = directory.resolve("missing.pem");

        assertThatThrownBy(() -> BrokerTls.context(missing))
                .isInstanceOf(BusException.class)
                .hasMessage("cannot read the broker's CA certificate " + missing + " (MESH_BROKER_CERTIFICATE): there "
                        + "is no such file; set MESH_BROKER_CERTIFICATE to a readable PEM file holding the CA's "
                        + "certificate (-----BEGIN CERTIFICATE-----)");
    }

    @Test
    void context_ofAFileThatIsNoCertificate_namesTheFile() throws Exception {
        Path garbage = Files.writeString(directory.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n"
                + "-----END CERTIFICATE-----\n", StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> BrokerTls.context(garbage))
                .isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot read the broker's CA certificate " + garbage
                        + " (MESH_BROKER_CERTIFICATE): it is not a certificate in PEM; set MESH_BROKER_CERTIFICATE")
                .hasCauseInstanceOf(java.security.cert.CertificateException.class);
    }

    @Test
    void context_ofAnEmptyFile_saysItHoldsNoCertificate() throws Exception {
        Path empty = Files.writeString(directory.resolve("empty.pem"), "");

        assertThatThrownBy(() -> BrokerTls.context(empty))
                .isInstanceOf(BusException.class)
                .hasMessageContaining(empty + " (MESH_BROKER_CERTIFICATE): it holds no certificate;");
    }

    @Test
    void context_ofADirectory_namesIt() {
        assertThatThrownBy(() -> BrokerTls.context(directory))
                .isInstanceOf(BusException.class)
                .hasMessageStartingWith("cannot read the broker's CA certificate " + directory
                        + " (MESH_BROKER_CERTIFICATE): ");
    }
}
