package dev.mesh.controller.mcp;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Where a {@link StdioBridge} forwards {@code tools/list} and {@code tools/call}: the running
 * controller, over loopback HTTP ({@link McpClient}) or over the broker (the bus's client).
 *
 * <p>Implementations say in their javadoc whether they are thread-safe.
 */
public interface Upstream extends AutoCloseable {

    /**
     * Sends one JSON-RPC message and returns the controller's answer.
     *
     * @param message a JSON-RPC request or notification
     * @return the response, or empty for a notification
     * @throws McpException when the controller is unreachable, refuses the caller, or its answer is not JSON
     */
    Optional<JsonNode> exchange(JsonNode message);

    /** @return where the messages go, for messages: a URL, or the broker's address and queue */
    String describe();

    /** Lets go of the connection; calls after this fail. */
    @Override
    void close();
}
