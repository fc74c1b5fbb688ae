package dev.mesh.controller.simhost;

import java.io.Serial;

/**
 * A simulated host or builder could not do what it was asked: reach the broker or NATS, or set up its
 * queue. The message names what, where and the fix; the cause is the client library's exception.
 */
public final class SimulationException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    SimulationException(String message, Throwable cause) {
        super(message, cause);
    }
}
