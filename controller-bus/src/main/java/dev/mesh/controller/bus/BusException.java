package dev.mesh.controller.bus;

import dev.mesh.controller.manifest.MeshException;

/**
 * A failure of the broker: it cannot be reached, refuses the credentials, holds topology with other
 * arguments than docs/design.md section 8's, or does not confirm what was published. Its message says what
 * failed, where (host, virtual host, queue), and how to fix it, and never holds a secret; core's
 * {@code VerbException.from} makes it {@code unavailable} to a verb's caller.
 */
public final class BusException extends MeshException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed, where, and how to fix it */
    public BusException(String message) {
        super(message);
    }

    /**
     * @param message what failed, where, and how to fix it
     * @param cause the RabbitMQ client's failure
     */
    public BusException(String message, Throwable cause) {
        super(message, cause);
    }
}
