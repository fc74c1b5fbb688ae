package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.MeshException;
import dev.mesh.controller.mcp.internal.Handshake;
import dev.mesh.controller.mcp.internal.JsonRpc;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one dispatcher behind every transport: one JSON-RPC 2.0 message and its {@link Envelope} (who
 * sends it, and the transport's request id if any) in, the response out (none for a notification). It
 * answers {@code initialize}, {@code ping}, {@code tools/list} and {@code tools/call}; a verb's failure is a tool result with {@code isError},
 * a malformed message a JSON-RPC error, and an unexpected failure the generic {@code -32603} with an
 * incident id that the log has with the stack trace. See docs/mcp.md.
 *
 * <p>Never throws on any message. Thread-safe as long as the verbs and the identity are.
 */
public final class McpDispatcher {

    /** The key in {@code params._meta} of {@code tools/call} whose string makes a mutating call idempotent. */
    public static final String REQUEST_ID_META = "dev.mesh/request-id";
    /** The largest message accepted, in bytes (1 MiB). */
    public static final int MAX_MESSAGE_BYTES = JsonRpc.MAX_MESSAGE_BYTES;
    /** The MCP protocol versions spoken, newest first. */
    public static final List<String> PROTOCOL_VERSIONS = Handshake.VERSIONS;

    private static final Logger LOG = LoggerFactory.getLogger(McpDispatcher.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Reads this dispatcher's own responses back, whatever their size (the requests' reader bounds them). */
    private static final JsonMapper LARGE = JsonMapper.builder().build();
    private static final Set<String> VERB_NAMES = Set.copyOf(Verbs.names());

    private final Verbs verbs;
    private final Identity identity;
    private final String serverVersion;
    private final VerbCalls calls;

    private McpDispatcher(Verbs verbs, Identity identity, String serverVersion, VerbCalls calls) {
        this.verbs = Objects.requireNonNull(verbs, "verbs");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /**
     * @param verbs the verbs, one instance for every transport
     * @param identity who may call which verb; {@link Identity#ANYONE} for the development controller
     * @param serverVersion the controller's version, told in {@code serverInfo}
     * @return the dispatcher
     */
    public static McpDispatcher of(Verbs verbs, Identity identity, String serverVersion) {
        return new McpDispatcher(verbs, identity, serverVersion, verbs.calls());
    }

    /**
     * A dispatcher whose calls are counted elsewhere than where the verbs' are: {@link VerbCalls#NONE} for
     * calls that are no one's (a standby warming its path up).
     *
     * @param verbs the verbs
     * @param identity who may call which verb
     * @param serverVersion the controller's version, told in {@code serverInfo}
     * @param calls where each {@code tools/call} is told, with its verb, outcome and duration
     * @return the dispatcher
     */
    public static McpDispatcher of(Verbs verbs, Identity identity, String serverVersion, VerbCalls calls) {
        return new McpDispatcher(verbs, identity, serverVersion, calls);
    }

    /**
     * Answers one message. Never throws on any message: whatever is wrong with it is the answer.
     *
     * @param message one message as received: UTF-8 JSON, at most {@link #MAX_MESSAGE_BYTES}
     * @param envelope who sends it and, when the transport carries one, its request id
     * @return the response as UTF-8 JSON on one line, or empty for a notification
     */
    public Optional<byte[]> dispatch(byte[] message, Envelope envelope) {
        return exchange(message, envelope).response().map(JsonRpc::write);
    }

    /**
     * One message's answer, and whether its verb was refused by core's gate because this controller is not
     * active ({@link Lifecycle.NotActive}): what a transport that hands requests back while the controller
     * hands over needs to know, by type rather than from the answer's code.
     *
     * @param response the response as UTF-8 JSON on one line, or empty for a notification
     * @param notActive whether a {@code tools/call} was refused because this controller is not active
     */
    public record Answer(Optional<byte[]> response, boolean notActive) {

        public Answer {
            Objects.requireNonNull(response, "response");
        }
    }

    /**
     * Answers one message as {@link #dispatch(byte[], Envelope)} does, telling also whether the gate refused it.
     *
     * @param message one message as received: UTF-8 JSON, at most {@link #MAX_MESSAGE_BYTES}
     * @param envelope who sends it and, when the transport carries one, its request id
     * @return the answer
     */
    public Answer answer(byte[] message, Envelope envelope) {
        Exchange exchange = exchange(message, envelope);
        return new Answer(exchange.response().map(JsonRpc::write), exchange.notActive());
    }

    /**
     * Answers one message already parsed. Never throws on any message.
     *
     * @param message one parsed message; the transport that parsed it bounds its size and depth
     * @param envelope who sends it and, when the transport carries one, its request id
     * @return the response, or empty for a notification
     */
    public Optional<JsonNode> dispatch(JsonNode message, Envelope envelope) {
        return answer(JsonRpc.read(message), envelope, new Refusal());
    }

    /**
     * One message and its answer, for a transport that needs more than the response.
     *
     * @param method the method of a valid request or notification, {@code ""} for an invalid message
     * @param status whether the message was served, was a notification, or was not a valid request
     * @param answer the response, {@code null} for a notification
     * @param notActive whether a {@code tools/call} was refused because this controller is not active
     */
    record Exchange(String method, Status status, JsonNode answer, boolean notActive) {
        /** What became of a message. */
        enum Status { ANSWERED, NOTIFIED, INVALID }

        Optional<JsonNode> response() {
            return Optional.ofNullable(answer);
        }
    }

    /** Like {@link #dispatch(byte[], Envelope)}, saying also which method it was and whether the message was valid. */
    Exchange exchange(byte[] message, Envelope envelope) {
        JsonRpc.Incoming incoming = JsonRpc.read(message);
        Refusal refusal = new Refusal();
        return switch (incoming) {
            case JsonRpc.Invalid invalid -> new Exchange("", Exchange.Status.INVALID, invalid.response(), false);
            case JsonRpc.Notification notification -> new Exchange(notification.method(), Exchange.Status.NOTIFIED,
                    answer(incoming, envelope, refusal).orElse(null), false);
            case JsonRpc.Request request -> {
                JsonNode answer = answer(incoming, envelope, refusal).orElseThrow();
                yield new Exchange(request.method(), Exchange.Status.ANSWERED, answer, refusal.notActive);
            }
        };
    }

    /** What became of one message's verb beside its answer; confined to the thread answering it. */
    private static final class Refusal {
        /** Whether core's gate refused the verb because this controller is not active. */
        boolean notActive;
    }

    private Optional<JsonNode> answer(JsonRpc.Incoming incoming, Envelope envelope, Refusal refusal) {
        return switch (incoming) {
            case JsonRpc.Invalid invalid -> Optional.of(invalid.response());
            case JsonRpc.Notification notification -> {
                // notifications/initialized, notifications/cancelled, …: nothing to do, nothing to say.
                LOG.debug("mcp notification ignored method={}", notification.method());
                yield Optional.empty();
            }
            case JsonRpc.Request request -> Optional.of(respond(request, envelope, refusal));
        };
    }

    private JsonNode respond(JsonRpc.Request request, Envelope envelope, Refusal refusal) {
        if (!request.method().equals("tools/call")) {
            return answer(request, envelope, refusal);
        }
        long started = System.nanoTime();
        JsonNode answer = answer(request, envelope, refusal);
        calls.called(verbLabel(request.params()), outcome(answer), Duration.ofNanos(System.nanoTime() - started));
        return answer;
    }

    /** @return the verb a {@code tools/call} names when it is one, {@link VerbCalls#UNKNOWN_VERB} otherwise */
    private static String verbLabel(ObjectNode params) {
        JsonNode name = params.get("name");
        return name != null && name.isString() && VERB_NAMES.contains(name.asString()) ? name.asString()
                : VerbCalls.UNKNOWN_VERB;
    }

    /** @return the outcome of a {@code tools/call}'s answer: ok, the tool error's code, or the JSON-RPC error's kind */
    private static String outcome(JsonNode answer) {
        JsonNode error = answer.get("error");
        if (error != null) {
            return error.path("code").asInt() == JsonRpc.INTERNAL_ERROR ? VerbCalls.INTERNAL_ERROR
                    : VerbCalls.PROTOCOL_ERROR;
        }
        JsonNode result = answer.path("result");
        return result.path("isError").asBoolean(false) ? result.path("structuredContent").path("code").asString()
                : VerbCalls.OK;
    }

    private JsonNode answer(JsonRpc.Request request, Envelope envelope, Refusal refusal) {
        try {
            JsonNode result = switch (request.method()) {
                case "initialize" -> Handshake.initialize(request.params(), serverVersion);
                case "ping" -> NODES.objectNode();
                case "tools/list" -> toolsList(verbs.tools());
                case "tools/call" -> toolsCall(request.params(), envelope, refusal);
                default -> throw McpException.protocol(JsonRpc.METHOD_NOT_FOUND, "method not found: \""
                        + request.method() + "\"; the methods are initialize, ping, tools/list and tools/call");
            };
            return JsonRpc.result(request.id(), result);
        } catch (McpException e) {
            return JsonRpc.error(request.id(), e.rpcCode(), e.getMessage());
        } catch (RuntimeException e) {
            // The transport boundary: whatever went wrong stays in the log; the client gets an id to quote.
            String incident = UUID.randomUUID().toString();
            LOG.error("mcp request failed incident={} method={} principal={}", incident, request.method(),
                    envelope.principal(), e);
            return JsonRpc.error(request.id(), JsonRpc.INTERNAL_ERROR, "internal error: the controller could not "
                    + "answer; it logged this as incident " + incident);
        }
    }

    /**
     * @param tools the verbs' tools
     * @return the result of {@code tools/list}
     */
    static ObjectNode toolsList(List<Tool> tools) {
        ObjectNode result = NODES.objectNode();
        ArrayNode list = result.putArray("tools");
        for (Tool tool : tools) {
            ObjectNode entry = list.addObject();
            entry.put("name", tool.name());
            entry.put("description", tool.description());
            entry.set("inputSchema", tool.inputSchema());
            entry.set("outputSchema", tool.outputSchema());
        }
        return result;
    }

    private ObjectNode toolsCall(ObjectNode params, Envelope envelope, Refusal refusal) {
        JsonNode name = params.get("name");
        if (name == null || !name.isString()) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: tools/call needs \"name\", the "
                    + "verb to call, a string" + (name == null ? "" : ", not " + JsonRpc.kind(name)));
        }
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isObject()) {
            throw McpException.protocol(JsonRpc.INVALID_PARAMS, "invalid params: \"arguments\" of tools/call must "
                    + "be an object, not " + JsonRpc.kind(arguments));
        }
        String requestId = RequestIds.of(envelope, params.get("_meta")).orElse(null);
        String verb = name.asString();
        try {
            identity.check(envelope.principal(), verb);
            JsonNode result = verbs.call(requestId, envelope.principal(), verb, arguments);
            return toolResult(result, false);
        } catch (MeshException e) {
            // The identity's store may fail as the verbs' may: both go through the one boundary.
            VerbException failure = toolFailure(e, verb, envelope);
            refusal.notActive = failure.getCause() instanceof Lifecycle.NotActive;
            return toolResult(toolError(failure), true);
        }
    }

    /** The tool error a failure is, via core's one mapping; one that says the controller cannot serve is logged. */
    private static VerbException toolFailure(MeshException e, String verb, Envelope envelope) {
        VerbException failure = VerbException.from(e);
        if (failure.code() == VerbException.Code.UNAVAILABLE) {
            Throwable cause = failure.getCause() == null ? failure : failure.getCause();
            LOG.warn("mcp tool call unavailable verb={} principal={} failure={} reason={}", verb,
                    envelope.principal(), cause.getClass().getSimpleName(), cause.getMessage());
        }
        return failure;
    }

    /**
     * What to answer instead of {@code response} when the transport cannot carry it (over the broker's limit on a
     * message's size, say): a response of the same id that says why — for a tool's result, the tool error {@code
     * why} (a result with {@code isError}); for any other response, a JSON-RPC error {@code -32603} with its
     * message.
     *
     * @param response the response as {@link #dispatch(byte[], Envelope)} gave it
     * @param why what to tell the caller, and how to fix it
     * @return the response to send, UTF-8 JSON on one line
     */
    public static byte[] instead(byte[] response, VerbException why) {
        Objects.requireNonNull(why, "why");
        JsonNode read;
        try {
            read = LARGE.readTree(Objects.requireNonNull(response, "response"));
        } catch (JacksonException e) {
            read = NODES.missingNode(); // a response is this dispatcher's own JSON; nothing else is expected
        }
        JsonNode id = read.path("id").isMissingNode() ? NODES.nullNode() : read.path("id");
        boolean toolResult = read.path("result").has("isError");
        return JsonRpc.write(toolResult ? JsonRpc.result(id, toolResult(toolError(why), true))
                : JsonRpc.error(id, -32603, why.getMessage()));
    }

    /**
     * @param e a verb's failure
     * @return its structured form: {@code code}, {@code message}, and {@code pointer} when there is one
     */
    static ObjectNode toolError(VerbException e) {
        ObjectNode error = NODES.objectNode();
        error.put("code", e.code().label());
        error.put("message", e.getMessage());
        if (!e.pointer().isEmpty()) {
            error.put("pointer", e.pointer());
        }
        return error;
    }

    /**
     * @param structured a verb's result or its error
     * @param isError whether it is an error
     * @return the {@code tools/call} result: the JSON as text content and as structured content
     */
    static ObjectNode toolResult(JsonNode structured, boolean isError) {
        ObjectNode result = NODES.objectNode();
        ObjectNode text = result.putArray("content").addObject();
        text.put("type", "text");
        text.put("text", JsonRpc.text(JsonRpc.write(structured)));
        result.set("structuredContent", structured);
        result.put("isError", isError);
        return result;
    }
}
