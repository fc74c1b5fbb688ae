package dev.mesh.controller.mcp.internal;

import dev.mesh.controller.mcp.McpException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** MCP's {@code initialize}: protocol version negotiation and what the server says of itself. */
public final class Handshake {

    /** The protocol versions spoken, newest first. */
    public static final List<String> VERSIONS = List.of("2025-06-18", "2025-03-26", "2024-11-05");
    /** What a server or bridge calls itself in {@code serverInfo}. */
    public static final String SERVER_NAME = "mesh-controller";

    private Handshake() {
    }

    /**
     * @param params the parameters of {@code initialize}
     * @param serverVersion the controller's version
     * @return the result: the client's protocol version when it is spoken here, otherwise the latest
     * @throws McpException a protocol error ({@code -32602}) when {@code protocolVersion} is there but not a string
     */
    public static ObjectNode initialize(ObjectNode params, String serverVersion) {
        JsonNode requested = params.get("protocolVersion");
        if (requested != null && !requested.isString()) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: \"protocolVersion\" of initialize "
                    + "must be a string, not " + JsonRpc.kind(requested) + "; the versions spoken are "
                    + String.join(", ", VERSIONS));
        }
        String version = requested != null && VERSIONS.contains(requested.asString())
                ? requested.asString() : VERSIONS.getFirst();
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("protocolVersion", version);
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        ObjectNode info = result.putObject("serverInfo");
        info.put("name", SERVER_NAME);
        info.put("version", serverVersion);
        return result;
    }
}
