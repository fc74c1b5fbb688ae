package dev.mesh.controller.mcp;

import dev.mesh.controller.mcp.internal.JsonRpc;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The request id of a {@code tools/call}, which makes a mutating verb idempotent: the transport's, from
 * the {@link Envelope}, when it carries one, otherwise {@code params._meta["dev.mesh/request-id"]}. When
 * both are there they must be the same. Stateless.
 */
final class RequestIds {

    /** The most characters a request id may have. */
    static final int MAX_LENGTH = 200;

    private RequestIds() {
    }

    /**
     * @param envelope who sends the call, and the transport's request id if any
     * @param meta {@code params._meta} of the call, {@code null} when absent
     * @return the call's request id, or empty for none
     * @throws McpException {@code invalid params} when {@code _meta} is not an object, an id is not a string
     *     of 1 to {@value #MAX_LENGTH} characters, or the two ids differ
     */
    static Optional<String> of(Envelope envelope, JsonNode meta) {
        Optional<String> fromMeta = fromMeta(meta);
        Optional<String> fromTransport = envelope.requestId();
        if (fromTransport.isEmpty()) {
            return fromMeta;
        }
        String transport = fromTransport.get();
        if (transport.length() > MAX_LENGTH) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: the transport's request id (over "
                    + "the broker, the message_id) must be a string of 1 to " + MAX_LENGTH + " characters, not one of "
                    + transport.length());
        }
        if (fromMeta.isPresent() && !fromMeta.get().equals(transport)) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: _meta[\""
                    + McpDispatcher.REQUEST_ID_META + "\"] is \"" + fromMeta.get() + "\" but the transport's request "
                    + "id (over the broker, the message_id) is \"" + transport + "\"; send the same id in both, or "
                    + "leave it out of _meta");
        }
        return fromTransport;
    }

    private static Optional<String> fromMeta(JsonNode meta) {
        if (meta == null) {
            return Optional.empty();
        }
        if (!meta.isObject()) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: \"_meta\" of tools/call must be an "
                    + "object, not " + JsonRpc.kind(meta));
        }
        JsonNode id = meta.get(McpDispatcher.REQUEST_ID_META);
        if (id == null) {
            return Optional.empty();
        }
        if (!id.isString() || id.asString().isEmpty() || id.asString().length() > MAX_LENGTH) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: _meta[\""
                    + McpDispatcher.REQUEST_ID_META + "\"] must be a string of 1 to " + MAX_LENGTH
                    + " characters, not " + (id.isString() ? "one of " + id.asString().length() : JsonRpc.kind(id)));
        }
        return Optional.of(id.asString());
    }
}
