package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the broker is, who the controller is on it and how the connection is carried (docs/design.md
 * section 11: {@code MESH_BROKER_ADDRESS_FILE} and {@code …_PORT}, {@code MESH_BROKER_CERTIFICATE}, which
 * the launcher reads). The broker may be a cluster: its members' addresses, tried in order, when the
 * connection is made and whenever it is recovered. Checked once, here; {@code toString()} never shows the
 * password.
 *
 * @param addresses the broker's AMQP addresses (host and port 1 to 65535), one or the members of a cluster
 * @param vhost the virtual host
 * @param user the user the controller connects as
 * @param password that user's password
 * @param transport plain AMQP (loopback only) or TLS pinned to a CA
 */
public record BrokerSettings(List<Address> addresses, String vhost, String user, Secret password,
        Transport transport) {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when there is no address, an address's host, the virtual host or the user
     *     is blank, a port is out of range, or the transport is plain and a host is not loopback
     */
    public BrokerSettings {
        addresses = List.copyOf(addresses);
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(transport, "transport");
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("the broker needs one address at least");
        }
        if (vhost.isBlank() || user.isBlank()) {
            throw new IllegalArgumentException("the broker's virtual host and user must not be blank (vhost=\""
                    + vhost + "\" user=\"" + user + "\")");
        }
        for (Address address : addresses) {
            if (address.host().isBlank()) {
                throw new IllegalArgumentException("the broker's host must not be blank (host=\"" + address.host()
                        + "\" vhost=\"" + vhost + "\" user=\"" + user + "\")");
            }
            if (address.port() < 1 || address.port() > 65_535) {
                throw new IllegalArgumentException("the broker's port must be 1 to 65535, not " + address.port());
            }
            if (transport instanceof Transport.Plain && !isLoopback(address.host())) {
                throw new IllegalArgumentException("plain AMQP to the broker at " + address.host() + ":"
                        + address.port() + " is refused: without TLS the controller connects to a loopback address "
                        + "only (localhost, 127.0.0.0/8, ::1); set MESH_BROKER_CERTIFICATE to the CA the broker's TLS "
                        + "certificate chains to");
            }
        }
    }

    /** One broker at {@code host:port}. */
    public BrokerSettings(String host, int port, String vhost, String user, Secret password, Transport transport) {
        this(List.of(new Address(Objects.requireNonNull(host, "host"), port)), vhost, user, password, transport);
    }

    /** @return {@code user@host:port/vhost}, the addresses separated by commas, for messages */
    public String where() {
        return user + "@" + hosts() + "/" + vhost;
    }

    /** @return {@code host:port}, the addresses separated by commas, for messages */
    public String hosts() {
        return String.join(",", addresses.stream().map(Address::text).toList());
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
