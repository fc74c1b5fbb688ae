package dev.mesh.controller.launcher;

import dev.mesh.controller.core.Secret;
import java.util.Objects;

/**
 * Where the broker's management API is and who the controller is there:
 * {@code MESH_BROKER_MANAGEMENT_PORT} and {@code MESH_BROKER_MANAGEMENT_FILE} ({@link Config}).
 * {@code toString()} shows {@code ***} for the password.
 *
 * @param host the management API's host name or address
 * @param port its port, 1 to 65535
 * @param user the user the controller logs in as
 * @param password that user's password
 */
record BrokerManagement(String host, int port, String user, Secret password) {

    BrokerManagement {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }
}
