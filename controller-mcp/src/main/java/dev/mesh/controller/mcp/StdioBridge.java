package dev.mesh.controller.mcp;

import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.mcp.internal.Handshake;
import dev.mesh.controller.mcp.internal.JsonRpc;
import dev.mesh.controller.mcp.internal.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * MCP's stdio transport in front of a running controller: newline-delimited JSON-RPC in, one JSON
 * message per line out (UTF-8; nothing else is written to the output — logs go to SLF4J, which the
 * launcher sends to standard error). It answers {@code initialize}, {@code ping} and notifications
 * itself and forwards {@code tools/list} and {@code tools/call} to an {@link Upstream} (HTTP or the broker); when
 * the controller cannot be reached, a tool call is a tool error {@code unavailable} and a listing a
 * JSON-RPC error {@code -32000}, both saying what was tried.
 *
 * <p>One bridge serves one stream, one message at a time.
 */
public final class StdioBridge {

    private static final Logger LOG = LoggerFactory.getLogger(StdioBridge.class);

    private final Upstream client;
    private final String serverVersion;

    private StdioBridge(Upstream client, String serverVersion) {
        this.client = Objects.requireNonNull(client, "client");
        this.serverVersion = Objects.requireNonNull(serverVersion, "serverVersion");
    }

    /**
     * @param client the running controller: over HTTP, an {@link McpClient}
     * @param serverVersion the version this bridge tells in {@code serverInfo}
     * @return the bridge
     */
    public static StdioBridge of(Upstream client, String serverVersion) {
        return new StdioBridge(client, serverVersion);
    }

    /**
     * Serves until the input ends.
     *
     * @param in the client's messages, one per line
     * @param out where the responses go, one per line, flushed after each
     * @throws UncheckedIOException when reading the input or writing the output fails
     */
    public void run(InputStream in, OutputStream out) {
        LineReader lines = new LineReader(in, JsonRpc.MAX_MESSAGE_BYTES);
        try {
            for (LineReader.Line line = lines.next(); line != null; line = lines.next()) {
                Optional<JsonNode> response = switch (line) {
                    case LineReader.TooLong tooLong -> Optional.of(
                            JsonRpc.error(null, JsonRpc.INVALID_REQUEST, JsonRpc.tooLarge(tooLong.size())));
                    case LineReader.Text text -> isBlank(text.bytes()) ? Optional.empty() : answer(text.bytes());
                };
                if (response.isPresent()) {
                    out.write(JsonRpc.write(response.get()));
                    out.write('\n');
                    out.flush();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the stdio bridge cannot read its input or write its output", e);
        }
    }

    /**
     * @param message one message
     * @return the response, or empty for a notification
     */
    Optional<JsonNode> answer(byte[] message) {
        JsonRpc.Incoming incoming = JsonRpc.read(message);
        return switch (incoming) {
            case JsonRpc.Invalid invalid -> Optional.of(invalid.response());
            case JsonRpc.Notification notification -> {
                LOG.debug("mcp stdio notification ignored method={}", notification.method());
                yield Optional.empty();
            }
            case JsonRpc.Request request -> Optional.of(respond(request));
        };
    }

    private JsonNode respond(JsonRpc.Request request) {
        try {
            return switch (request.method()) {
                case "initialize" -> JsonRpc.result(request.id(), Handshake.initialize(request.params(),
                        serverVersion));
                case "ping" -> JsonRpc.result(request.id(), JsonNodeFactory.instance.objectNode());
                case "tools/list", "tools/call" -> forward(request);
                default -> JsonRpc.error(request.id(), JsonRpc.METHOD_NOT_FOUND, "method not found: \""
                        + request.method() + "\"; the methods are initialize, ping, tools/list and tools/call");
            };
        } catch (McpException e) {
            return JsonRpc.error(request.id(), e.rpcCode(), e.getMessage());
        }
    }

    private JsonNode forward(JsonRpc.Request request) {
        try {
            JsonNode response = client.exchange(request.message()).orElseThrow();
            if (!response.has("result") && !response.has("error")) {
                return JsonRpc.error(request.id(), JsonRpc.INTERNAL_ERROR, "internal error: the controller at "
                        + client.describe() + " answered " + request.method() + " without a result or an error");
            }
            return response;
        } catch (McpException e) {
            LOG.warn("mcp stdio forward failed method={} kind={} reason={}", request.method(), e.kind(),
                    e.getMessage());
            if (e.kind() == McpException.Kind.PROTOCOL) {
                return JsonRpc.error(request.id(), e.rpcCode(), e.getMessage());
            }
            if (request.method().equals("tools/call")) {
                VerbException failure = new VerbException(VerbException.Code.UNAVAILABLE, e.getMessage(), "");
                return JsonRpc.result(request.id(), McpDispatcher.toolResult(McpDispatcher.toolError(failure), true));
            }
            return JsonRpc.error(request.id(), JsonRpc.UNAVAILABLE, e.getMessage());
        }
    }

    private static boolean isBlank(byte[] line) {
        for (byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
