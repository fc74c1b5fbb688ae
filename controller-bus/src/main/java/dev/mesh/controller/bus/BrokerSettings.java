package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.util.Objects;

/**
 * Where the broker is and who the controller is on it (DESIGN.md section 11: {@code
 * MESH_BROKER_ADDRESS_FILE} and {@code …_PORT}, which the launcher reads). Checked once, here;
 * {@code toString()} never shows the password.
 *
 * @param host the broker's host name or address
 * @param port its AMQP port, 1 to 65535
 * @param vhost the virtual host
 * @param user the user the controller connects as
 * @param password that user's password
 */
public record BrokerSettings(String host, int port, String vhost, String user, Secret password) {

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the host, the virtual host or the user is blank, or the port
     *     is out of range
     */
    public BrokerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (host.isBlank() || vhost.isBlank() || user.isBlank()) {
            throw new IllegalArgumentException("the broker's host, virtual host and user must not be blank (host=\""
                    + host + "\" vhost=\"" + vhost + "\" user=\"" + user + "\")");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("the broker's port must be 1 to 65535, not " + port);
        }
    }

    /** @return {@code user@host:port/vhost}, for messages */
    public String where() {
        return user + "@" + host + ":" + port + "/" + vhost;
    }
}
