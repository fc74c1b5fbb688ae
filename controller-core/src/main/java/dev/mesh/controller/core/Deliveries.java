package dev.mesh.controller.core;

/**
 * Where the controller sends each node its declaration (docs/design.md section 8: the exchange
 * {@code mesh.declarations}, routing key the node's name, headers {@code revision} and
 * {@code epoch}, body the declaration as {@code compose --json} prints it). A port: the bus will
 * implement it on RabbitMQ; {@code MemoryDeliveries} keeps what was sent.
 *
 * <p>Implementations are thread-safe.
 */
public interface Deliveries {

    /**
     * Sends a node its declaration and returns once the transport has it for good (for the bus:
     * persistent and confirmed by the broker), so the caller may record it as delivered.
     *
     * @param declaration the node's declaration, with its revision
     * @param epoch the fencing epoch of the controller that sends it (the latest it held or saw)
     * @throws IllegalArgumentException when the declaration has no revision or the epoch is below 1
     * @throws dev.mesh.controller.manifest.MeshException of the transport's category (the bus's
     *     {@code BusException}) when it could not be sent or was not confirmed: it may then have
     *     reached the host or not, and delivering it again is safe (a host applies a revision once)
     */
    void deliver(Declaration declaration, long epoch);

    /**
     * Readies the transport for a node the controller has just come to know, before anything is
     * delivered to it (for the bus: declares the node's queue {@code mesh-host.<node>}, docs/design.md
     * section 8, so that a declaration is never lost while its host is down). Idempotent; the
     * default does nothing.
     *
     * @param node the node's name
     * @throws IllegalArgumentException when the name is blank
     * @throws dev.mesh.controller.manifest.MeshException of the transport's category when it could
     *     not be readied: preparing it again later is safe
     */
    default void prepare(String node) {
    }
}
