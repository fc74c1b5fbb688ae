package dev.mesh.controller.bus;

import dev.mesh.controller.core.settings.Variables;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS to the broker pinned to one CA ({@code MESH_BROKER_CERTIFICATE}): the trust store holds the
 * certificates of that PEM file and nothing else, the broker's certificate must be made out for the host
 * connected to, and a refused certificate is told apart (another CA, another host, out of its validity).
 */
final class BrokerTls {

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private BrokerTls() {
    }

    /**
     * @param certificate the CA's PEM file
     * @return a TLS context trusting that file's certificates only
     * @throws BusException when the file cannot be read or holds no certificate
     */
    static SSLContext context(Path certificate) {
        List<X509Certificate> authorities = read(certificate);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                store.setCertificateEntry("ca-" + i, authorities.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new Pinned(pkix(trust))}, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("this JDK cannot make a TLS context trusting " + certificate
                    + " (PKCS12 key store, PKIX trust manager, TLS): " + Broker.reason(e), e);
        }
    }

    /**
     * Restricts a socket of {@link #context} to TLS 1.3 and 1.2 and has it check the broker's host name, as
     * HTTPS does (the client's {@code useSslProtocol(SSLContext)} asks for that too; this does not depend on it).
     *
     * @param socket a socket made by the context's socket factory
     */
    static void configure(Socket socket) {
        SSLSocket tls = (SSLSocket) socket;
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setProtocols(PROTOCOLS);
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(parameters);
    }

    /**
     * @param settings where the controller connected
     * @param certificate the CA's PEM file
     * @param e the client's failure to connect
     * @return the message when {@code e} is a failure of the TLS handshake, else empty
     */
    static Optional<String> explain(BrokerSettings settings, Path certificate, IOException e) {
        String broker = "the broker at " + settings.hosts();
        String hosts = String.join(", ", settings.addresses().stream().map(Variables.Address::host).distinct().toList());
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof Refusal refusal) {
                return Optional.of(switch (refusal.why) {
                    case CHAIN -> broker + " presented a certificate for " + names(refusal.leaf) + " issued by "
                            + refusal.leaf.getIssuerX500Principal().getName() + ", which does not chain to the CA in "
                            + "MESH_BROKER_CERTIFICATE (" + certificate + "); set MESH_BROKER_CERTIFICATE to the CA that "
                            + "issued the broker's certificate, or give the broker a certificate issued by that CA";
                    case VALIDITY -> broker + " presented a certificate for " + names(refusal.leaf) + " valid from "
                            + refusal.leaf.getNotBefore().toInstant() + " to " + refusal.leaf.getNotAfter().toInstant()
                            + ": it, or a certificate of its chain, is not valid now; give the broker a "
                            + "current certificate issued by the CA in MESH_BROKER_CERTIFICATE (" + certificate
                            + "), and check this machine's clock";
                    case HOST -> broker + " presented a certificate for " + names(refusal.leaf) + ", not for "
                            + hosts + "; set MESH_BROKER_ADDRESS_PORT to a name the certificate is for, or "
                            + "give the broker a certificate for " + hosts + " (a subject alternative name) "
                            + "issued by the CA in MESH_BROKER_CERTIFICATE (" + certificate + ")";
                });
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return Optional.of("the TLS handshake with " + broker + " failed: " + Broker.reason(cause)
                        + "; check that MESH_BROKER_ADDRESS_PORT is the broker's TLS port (RabbitMQ's is 5671 by default) "
                        + "and that the broker speaks TLS 1.3 or 1.2");
            }
        }
        return Optional.empty();
    }

    private static List<X509Certificate> read(Path certificate) {
        Collection<? extends Certificate> read;
        try (InputStream in = Files.newInputStream(certificate)) {
            read = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (NoSuchFileException e) {
            throw new BusException(unreadable(certificate, "there is no such file"), e);
        } catch (AccessDeniedException e) {
            throw new BusException(unreadable(certificate, "permission denied"), e);
        } catch (IOException e) {
            throw new BusException(unreadable(certificate, Broker.reason(e)), e);
        } catch (CertificateException e) {
            throw new BusException(unreadable(certificate, "it is not a certificate in PEM"), e);
        }
        List<X509Certificate> authorities = new ArrayList<>();
        for (Certificate one : read) {
            authorities.add((X509Certificate) one);
        }
        if (authorities.isEmpty()) {
            throw new BusException(unreadable(certificate, "it holds no certificate"));
        }
        return List.copyOf(authorities);
    }

    private static String unreadable(Path certificate, String why) {
        return "cannot read the broker's CA certificate " + certificate + " (MESH_BROKER_CERTIFICATE): " + why
                + "; set MESH_BROKER_CERTIFICATE to a readable PEM file holding the CA's certificate "
                + "(-----BEGIN CERTIFICATE-----)";
    }

    /** @return what the certificate is made out for: its subject alternative names, else its subject */
    private static String names(X509Certificate leaf) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = leaf.getSubjectAlternativeNames();
            for (List<?> name : alternatives == null ? List.<List<?>>of() : alternatives) {
                switch ((Integer) name.get(0)) {
                    case 2 -> names.add("DNS:" + name.get(1));
                    case 7 -> names.add("IP:" + name.get(1));
                    default -> { }
                }
            }
        } catch (CertificateException e) {
            // An extension the JDK cannot decode: the subject is what is left to show.
        }
        return names.isEmpty() ? leaf.getSubjectX500Principal().getName() : String.join(", ", names);
    }

    private static X509ExtendedTrustManager pkix(TrustManagerFactory trust) {
        for (TrustManager manager : trust.getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager extended) {
                return extended;
            }
        }
        throw new IllegalStateException("this JDK's PKIX trust manager factory made no X509ExtendedTrustManager");
    }

    /** A certificate the {@link Pinned} trust manager refused, and why; found again in the handshake's causes. */
    private static final class Refusal extends CertificateException {

        private static final long serialVersionUID = 1L;

        private enum Why { CHAIN, VALIDITY, HOST }

        private final Why why;
        private final X509Certificate leaf;

        private Refusal(Why why, X509Certificate leaf, CertificateException cause) {
            super("the broker's certificate is refused (" + why + ")", cause);
            this.why = why;
            this.leaf = leaf;
        }
    }

    /**
     * The JDK's PKIX trust manager, asked first without the host name (so a failure is the chain's) and then
     * with it (so a failure after that is the host name's).
     */
    private static final class Pinned extends X509ExtendedTrustManager {

        private final X509ExtendedTrustManager pkix;

        private Pinned(X509ExtendedTrustManager pkix) {
            this.pkix = pkix;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkChain(chain, authType);
            try {
                pkix.checkServerTrusted(chain, authType, socket);
            } catch (CertificateException e) {
                throw new Refusal(Refusal.Why.HOST, chain[0], e);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkChain(chain, authType);
            try {
                pkix.checkServerTrusted(chain, authType, engine);
            } catch (CertificateException e) {
                throw new Refusal(Refusal.Why.HOST, chain[0], e);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            checkChain(chain, authType);
        }

        private void checkChain(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                pkix.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                throw new Refusal(current(chain) ? Refusal.Why.CHAIN : Refusal.Why.VALIDITY, chain[0], e);
            }
        }

        private static boolean current(X509Certificate[] chain) {
            try {
                for (X509Certificate one : chain) {
                    one.checkValidity();
                }
                return true;
            } catch (CertificateException e) {
                return false;
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            pkix.checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            pkix.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            pkix.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return pkix.getAcceptedIssuers();
        }
    }
}
