package dev.mesh.controller.mcp.internal;

import dev.mesh.controller.mcp.McpException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON-RPC 2.0 codec of MCP: reading one message into a {@link Incoming} (a request, a
 * notification, or the error to answer), and writing results and errors. Stateless and thread-safe.
 */
public final class JsonRpc {

    /** The largest message read, in bytes: 1 MiB. */
    public static final int MAX_MESSAGE_BYTES = 1 << 20;

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined server error: the controller behind a bridge cannot be reached. */
    public static final int UNAVAILABLE = -32000;

    /**
     * Writes messages, and reads answers (a client's): strict (a duplicate key or anything after the value
     * is an error) but with Jackson's default limits. Received messages are read by {@link #read(byte[])},
     * within the limits of docs/mcp.md.
     */
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonRpc() {
    }

    /** One message read. */
    public sealed interface Incoming permits Request, Notification, Invalid {
    }

    /**
     * A request: it gets exactly one response.
     *
     * @param id a string or a number, echoed in the response
     * @param method the method
     * @param params the parameters, an empty object when absent
     * @param message the whole message, as read
     */
    public record Request(JsonNode id, String method, ObjectNode params, ObjectNode message) implements Incoming {
    }

    /**
     * A notification: it gets no response.
     *
     * @param method the method
     */
    public record Notification(String method) implements Incoming {
    }

    /**
     * A message that is not a valid request: the error response to send.
     *
     * @param response the error response, its id {@code null} unless the message had a valid one
     */
    public record Invalid(ObjectNode response) implements Incoming {
    }

    /**
     * @param bytes one message as received: UTF-8 JSON (anything else is a parse error), at most
     *     {@link #MAX_MESSAGE_BYTES}, within the reader's limits (docs/mcp.md)
     * @return what it is; never throws on any input
     */
    public static Incoming read(byte[] bytes) {
        if (bytes.length > MAX_MESSAGE_BYTES) {
            return new Invalid(error(null, INVALID_REQUEST, tooLarge(bytes.length)));
        }
        JsonNode message;
        try {
            message = JsonText.parse(bytes);
        } catch (McpException e) {
            return new Invalid(error(null, e.rpcCode(), e.getMessage()));
        }
        if (message == null || message.isMissingNode()) {
            return new Invalid(error(null, PARSE_ERROR, "parse error: the message is empty; send one JSON-RPC 2.0 "
                    + "object"));
        }
        return read(message);
    }

    /**
     * @param message one parsed message
     * @return what it is; never throws on any input
     */
    public static Incoming read(JsonNode message) {
        if (message.isArray()) {
            return new Invalid(error(null, INVALID_REQUEST, "invalid request: batches (JSON arrays) are not "
                    + "supported — MCP 2025-06-18 removed JSON-RPC batching; send one message per request"));
        }
        if (!message.isObject()) {
            return new Invalid(error(null, INVALID_REQUEST, "invalid request: a message must be a JSON object, not "
                    + kind(message)));
        }
        JsonNode version = message.get("jsonrpc");
        if (version == null || !version.isString() || !version.asString().equals("2.0")) {
            return new Invalid(error(null, INVALID_REQUEST, "invalid request: \"jsonrpc\" must be \"2.0\", not "
                    + (version == null ? "missing" : version.toString())));
        }
        JsonNode id = message.get("id");
        if (id != null && !id.isString() && !id.isNumber()) {
            return new Invalid(error(null, INVALID_REQUEST, "invalid request: \"id\" must be a string or a number, "
                    + "not " + kind(id)));
        }
        if (id != null && id.isFloatingPointNumber() && !Double.isFinite(id.asDouble())) {
            // Read as infinity, it would be written back as the string "Infinity": another type, another id.
            return new Invalid(error(null, INVALID_REQUEST, "invalid request: \"id\" is a number beyond the range "
                    + "of a double (about ±1.8e308), so it cannot be echoed as sent; use a string or an integer id"));
        }
        JsonNode method = message.get("method");
        if (method == null || !method.isString()) {
            return new Invalid(error(id, INVALID_REQUEST, "invalid request: \"method\" is required: a string"
                    + (method == null ? "" : ", not " + kind(method))));
        }
        if (id == null) {
            return new Notification(method.asString());
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isObject()) {
            return new Invalid(error(id, INVALID_PARAMS, "invalid params: \"params\" of " + method.asString()
                    + " must be an object, not " + kind(params)));
        }
        return new Request(id, method.asString(), params == null ? NODES.objectNode() : (ObjectNode) params,
                (ObjectNode) message);
    }

    /**
     * @param id the request's id
     * @param result its result
     * @return the response
     */
    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    /**
     * @param id the request's id, or {@code null} when it could not be read
     * @param code the JSON-RPC error code
     * @param message what failed and how to fix it
     * @return the error response
     */
    public static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id == null ? NODES.nullNode() : id);
        ObjectNode error = response.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return response;
    }

    /**
     * @param message a message
     * @return its bytes, UTF-8 JSON on one line
     */
    public static byte[] write(JsonNode message) {
        return MAPPER.writeValueAsBytes(message);
    }

    /**
     * @param size the size of a message
     * @return the message that refuses it
     */
    public static String tooLarge(long size) {
        return "invalid request: the message is " + (size < 0 ? "larger than the limit" : size + " bytes")
                + "; the limit is 1 MiB (" + MAX_MESSAGE_BYTES + " bytes)";
    }

    /**
     * @param node a JSON value
     * @return its kind, for messages: {@code string}, {@code array}, …
     */
    public static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * @param text JSON text
     * @return it as a string
     */
    public static String text(byte[] text) {
        return new String(text, StandardCharsets.UTF_8);
    }
}
