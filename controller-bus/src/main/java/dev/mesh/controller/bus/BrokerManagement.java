package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where the broker's management API is and who the controller is there:
 * {@code MESH_BROKER_MANAGEMENT_PORT} and {@code MESH_BROKER_MANAGEMENT_FILE} ({@link BusVariables}).
 * {@code toString()} shows {@code ***} for the password.
 *
 * @param host the management API's host name or address
 * @param port its port, 1 to 65535
 * @param user the user the controller logs in as
 * @param password that user's password
 */
public record BrokerManagement(String host, int port, String user, Secret password) {

    public BrokerManagement {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /**
     * @param broker the controller's connection, whose vhost the permissions are on
     * @return the broker's permissions through this API, never changing the controller's user's or this one's
     */
    public BrokerPermissions permissions(BrokerSettings broker) {
        ManagementApi api = new ManagementApi(host, port, user, password, broker.transport());
        return new BrokerPermissions(api, broker.vhost(), Set.copyOf(List.of(broker.user(), user)));
    }
}
