package dev.mesh.controller.core;

/**
 * Where the controller asks for builds (docs/design.md section 8: the exchange {@code mesh.builds},
 * routing key the artifact's {@code system}, body the {@link BuildOrder}). A port: the bus will
 * implement it on RabbitMQ; {@code MemoryBuilders} keeps what was sent. Which builds are sent, and
 * how often, is the caller's: it sends a build once per id, and again only after a builder
 * reported it failed or the {@code build} verb asks for it.
 *
 * <p>Implementations are thread-safe.
 */
public interface Builders {

    /**
     * Sends a build order and returns once the transport has it for good (for the bus: persistent
     * and confirmed by the broker).
     *
     * @param order what to build
     * @param epoch the fencing epoch of the controller that sends it (the latest it held or saw)
     * @throws IllegalArgumentException when the epoch is below 1
     * @throws dev.mesh.controller.manifest.MeshException of the transport's category (the bus's
     *     {@code BusException}) when it could not be sent or was not confirmed: sending it again
     *     is safe, a builder builds one id once
     */
    void request(BuildOrder order, long epoch);
}
