package dev.mesh.controller.launcher;

import dev.mesh.controller.core.Secret;
import java.util.Objects;

/**
 * Where the broker's AMQP port is and who the controller is there: {@code MESH_BROKER_ADDRESS_PORT}
 * and {@code MESH_BROKER_ADDRESS_FILE} ({@link Config}). {@code toString()} shows {@code ***} for the
 * password.
 *
 * @param host the broker's host name or address
 * @param port its AMQP port, 1 to 65535
 * @param vhost the virtual host
 * @param user the user the controller connects as
 * @param password that user's password
 */
record BrokerAddress(String host, int port, String vhost, String user, Secret password) {

    BrokerAddress {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }
}
