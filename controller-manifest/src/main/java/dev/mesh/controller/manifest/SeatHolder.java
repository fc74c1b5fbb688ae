package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * The node holding a seat, as a {@code ${seat:…}} reference sees it.
 *
 * @param node the holder node's name
 * @param address the holder node's address
 */
public record SeatHolder(String node, String address) {

    /** Checks the parts. */
    public SeatHolder {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(address, "address");
    }
}
