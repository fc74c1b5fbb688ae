package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import java.util.Objects;

/**
 * Where NATS is and who the controller is there: {@code MESH_BUS_NATS_FILE} ({@link BusVariables}). At
 * most one way to log in: a user with its password, or a token, or neither. {@code toString()}
 * shows {@code ***} for the password and the token.
 *
 * @param url the server, {@code nats://host[:port]} or {@code tls://host[:port]}
 * @param user the user, or {@code ""} for none
 * @param password the user's password; {@link Secret#NONE} without a user
 * @param token the token; {@link Secret#NONE} for none
 */
public record NatsAddress(String url, String user, Secret password, Secret token) {

    /** @throws IllegalArgumentException when a user has no password, or a token comes with a user */
    public NatsAddress {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(token, "token");
        if (user.isEmpty() != password.isEmpty() || (!token.isEmpty() && !user.isEmpty())) {
            throw new IllegalArgumentException("a NATS login is a user with a password, a token, or neither");
        }
    }

    /** @return the connection's settings: the user's password, or the token as the password without a user */
    public NatsSettings settings() {
        return new NatsSettings(url, user, user.isEmpty() ? token : password, "");
    }
}
