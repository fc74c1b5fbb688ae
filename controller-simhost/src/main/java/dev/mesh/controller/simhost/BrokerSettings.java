package dev.mesh.controller.simhost;

import java.util.Objects;

/**
 * Where the RabbitMQ broker is and whom to be on it. A host connects as the user named like its node
 * (docs/design.md section 8, "Principals on the wire"): that user is also the {@code user_id} of its reports,
 * which the broker checks against the connection's user and the controller against the node.
 *
 * @param host     the broker's host name or address, not blank
 * @param port     1 to 65535
 * @param vhost    the virtual host, not blank ({@code "/"} for the default one)
 * @param user     the broker user, not blank
 * @param password the user's password; never printed by {@link #toString()}
 */
public record BrokerSettings(String host, int port, String vhost, String user, String password) {

    /** @throws IllegalArgumentException when the host, virtual host or user is blank, or the port is outside 1–65535 */
    public BrokerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (host.isBlank()) {
            throw new IllegalArgumentException("the broker's host is blank; give a host name or address, e.g. 127.0.0.1");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("the broker's port " + port + " is outside 1-65535; RabbitMQ's is 5672");
        }
        if (vhost.isBlank()) {
            throw new IllegalArgumentException("the broker's virtual host is blank; the default one is \"/\"");
        }
        if (user.isBlank()) {
            throw new IllegalArgumentException("the broker user is blank; a host connects as the user named like its node");
        }
    }

    /** @return the same broker and virtual host as another user */
    public BrokerSettings withUser(String otherUser, String otherPassword) {
        return new BrokerSettings(host, port, vhost, otherUser, otherPassword);
    }

    /** @return {@code user@host:port/vhost} */
    public String where() {
        return user + "@" + host + ":" + port + "/" + vhost;
    }

    @Override
    public String toString() {
        return "BrokerSettings[" + where() + ", password=***]";
    }
}
