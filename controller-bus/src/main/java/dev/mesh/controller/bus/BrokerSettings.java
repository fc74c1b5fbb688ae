package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the broker is, who the controller is on it and how the connection is carried (docs/design.md
 * section 11: {@code MESH_BROKER_ADDRESS_FILE} and {@code …_PORT}, {@code MESH_BROKER_CERTIFICATE}, which
 * the launcher reads). Checked once, here; {@code toString()} never shows the password.
 *
 * @param host the broker's host name or address
 * @param port its AMQP port, 1 to 65535
 * @param vhost the virtual host
 * @param user the user the controller connects as
 * @param password that user's password
 * @param transport plain AMQP (loopback only) or TLS pinned to a CA
 */
public record BrokerSettings(String host, int port, String vhost, String user, Secret password, Transport transport) {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the host, the virtual host or the user is blank, the port is
     *     out of range, or the transport is plain and the host is not loopback
     */
    public BrokerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(transport, "transport");
        if (host.isBlank() || vhost.isBlank() || user.isBlank()) {
            throw new IllegalArgumentException("the broker's host, virtual host and user must not be blank (host=\""
                    + host + "\" vhost=\"" + vhost + "\" user=\"" + user + "\")");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("the broker's port must be 1 to 65535, not " + port);
        }
        if (transport instanceof Transport.Plain && !isLoopback(host)) {
            throw new IllegalArgumentException("plain AMQP to the broker at " + host + ":" + port
                    + " is refused: without TLS the controller connects to a loopback address only (localhost, "
                    + "127.0.0.0/8, ::1); set MESH_BROKER_CERTIFICATE to the CA the broker's TLS certificate chains to");
        }
    }

    /** @return {@code user@host:port/vhost}, for messages */
    public String where() {
        return user + "@" + host + ":" + port + "/" + vhost;
    }

    /**
     * @return whether {@code host} names this machine's loopback interface by itself: {@code localhost}, an
     *     IPv4 literal in 127.0.0.0/8 or the IPv6 literal {@code ::1}; a name is never resolved to decide
     */
    public static boolean isLoopback(String host) {
        if (host.toLowerCase(Locale.ROOT).equals("localhost")) {
            return true;
        }
        Matcher ipv4 = IPV4.matcher(host);
        if (ipv4.matches()) {
            for (int octet = 1; octet <= 4; octet++) {
                if (Integer.parseInt(ipv4.group(octet)) > 255) {
                    return false;
                }
            }
            return ipv4.group(1).equals("127");
        }
        if (!host.contains(":")) {
            return false;
        }
        try {
            // A text with a colon is parsed as an IPv6 literal, never looked up.
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * How the connection to the broker is carried: {@link Plain} AMQP, or AMQP over {@link Tls} with the
     * broker's certificate checked against one CA and its host name.
     */
    public sealed interface Transport {

        /** Plain AMQP, with no encryption: only to a loopback address ({@code MESH_BROKER_CERTIFICATE} unset). */
        Plain PLAIN = new Plain();

        /** Plain AMQP; {@link BrokerSettings} accepts it for a loopback host only. */
        record Plain() implements Transport {
        }

        /**
         * AMQP over TLS 1.3 or 1.2; the broker's certificate must chain to a certificate of {@code certificate}
         * (and to nothing else: the JDK's trusted CAs are not used) and be made out for the host connected to.
         *
         * @param certificate the PEM file of the CA ({@code MESH_BROKER_CERTIFICATE}); read at connection
         */
        record Tls(Path certificate) implements Transport {

            /** @throws NullPointerException when {@code certificate} is {@code null} */
            public Tls {
                Objects.requireNonNull(certificate, "certificate");
            }
        }
    }
}
