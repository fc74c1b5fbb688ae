package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the broker's AMQP port is and who the controller is there: {@code MESH_BROKER_ADDRESS_PORT}
 * and {@code MESH_BROKER_ADDRESS_FILE} ({@link BusVariables}). {@code toString()} shows {@code ***} for the
 * password.
 *
 * @param addresses the broker's AMQP addresses: one, or a cluster's members in the order to try them
 * @param vhost the virtual host
 * @param user the user the controller connects as
 * @param password that user's password
 */
public record BrokerAddress(List<Address> addresses, String vhost, String user, Secret password) {

    public BrokerAddress {
        addresses = List.copyOf(addresses);
        Objects.requireNonNull(vhost, "vhost");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** One broker at {@code host:port}. */
    public BrokerAddress(String host, int port, String vhost, String user, Secret password) {
        this(List.of(new Address(host, port)), vhost, user, password);
    }

    /**
     * @param certificate the PEM file of the CA the broker's certificate must chain to; empty for plain AMQP
     * @return the connection's settings
     */
    public BrokerSettings settings(Optional<Path> certificate) {
        return new BrokerSettings(addresses, vhost, user, password, certificate
                .<BrokerSettings.Transport>map(BrokerSettings.Transport.Tls::new).orElse(BrokerSettings.Transport.PLAIN));
    }
}
