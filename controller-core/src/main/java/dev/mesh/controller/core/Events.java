package dev.mesh.controller.core;

import java.util.Map;

/**
 * Where the controller tells the mesh what happened (docs/design.md section 8: NATS
 * {@code mesh.events.<kind>}). A port; {@code MemoryEvents} keeps them in memory.
 *
 * <p>Implementations are thread-safe and never block the caller for long.
 */
public interface Events {

    /**
     * @param kind e.g. {@code plan}, {@code node}, {@code handover}
     * @param payload JSON-able values
     */
    void publish(String kind, Map<String, Object> payload);
}
