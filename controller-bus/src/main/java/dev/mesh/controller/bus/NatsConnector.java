package dev.mesh.controller.bus;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * Connects to NATS as every NATS client of the controller does: the settings' server and credentials, a
 * connection timeout of {@value #CONNECT_TIMEOUT_SECONDS} s, reconnecting forever every second, and what the
 * client reports in the controller's log ({@link NatsLog}).
 *
 * <p>Stateless; thread-safe.
 */
final class NatsConnector {

    /** How long the server has to answer when connecting, in seconds. */
    static final int CONNECT_TIMEOUT_SECONDS = 5;

    private NatsConnector() {
    }

    /**
     * @param settings where NATS is and who the controller is on it
     * @param name the connection's name, shown by the server's monitoring, e.g. {@code mesh-controller facts}
     * @return the options every controller connection has, for the caller to add its own to
     */
    static Options.Builder options(NatsSettings settings, String name) {
        return options(settings, name, (from, to) -> { });
    }

    /**
     * @param settings where NATS is and who the controller is on it
     * @param name the connection's name
     * @param moved told, after the connection was made again, the server it was on and the one it is on now (a
     *     cluster's: another; one server's: the same, back)
     * @return the options every controller connection has, for the caller to add its own to
     */
    static Options.Builder options(NatsSettings settings, String name, BiConsumer<String, String> moved) {
        Options.Builder options = new Options.Builder().server(settings.url()).connectionName(name)
                .connectionTimeout(Duration.ofSeconds(CONNECT_TIMEOUT_SECONDS)).maxReconnects(-1)
                .reconnectWait(Duration.ofSeconds(1));
        // The client's own default logs through java.util.logging; these go to the controller's log.
        NatsLog log = new NatsLog(name, settings.url(), moved);
        options.errorListener(log).connectionListener(log);
        if (!settings.user().isEmpty()) {
            options.userInfo(settings.user().toCharArray(), settings.password().reveal().toCharArray());
        } else if (!settings.password().isEmpty()) {
            options.token(settings.password().reveal().toCharArray());
        }
        return options;
    }

    /**
     * @param settings where NATS is, for messages
     * @param options the connection's options, from {@link #options}
     * @return the open connection
     * @throws BusException when NATS cannot be reached or refuses the credentials, or when interrupted
     */
    static Connection connect(NatsSettings settings, Options options) {
        try {
            return Nats.connect(options);
        } catch (IOException e) {
            throw new BusException("cannot connect to NATS at " + settings.url() + " (" + e.getMessage()
                    + "); check that it runs there and that the user and password or token are right", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException("interrupted while connecting to NATS at " + settings.url(), e);
        }
    }
}
