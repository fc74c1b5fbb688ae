package dev.mesh.controller.manifest;

import java.util.Optional;

/**
 * What a template is resolved against, implemented by the caller: the node being composed, the
 * holders of seats as that node sees them, and the layout roots.
 *
 * <p>Implementations should be immutable snapshots; {@link Substitution} calls them from the
 * thread that resolves.
 */
public interface Bindings {

    /** @return the node being composed */
    NodeFacts node();

    /**
     * The holder of a seat as seen from {@link #node()}: for a {@code mesh}-scope seat its one
     * holder, for a {@code node}-scope seat the holder on this node.
     *
     * @param seat a seat name
     * @return the holder, or empty when the seat has none
     */
    Optional<SeatHolder> holder(String seat);

    /** @return the roots directory paths are made from */
    Layout layout();
}
