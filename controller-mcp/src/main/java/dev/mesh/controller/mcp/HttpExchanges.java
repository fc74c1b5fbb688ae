package dev.mesh.controller.mcp;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.mesh.controller.mcp.internal.ExchangeThreads;
import dev.mesh.controller.mcp.internal.Handshake;
import dev.mesh.controller.mcp.internal.JsonRpc;
import dev.mesh.controller.mcp.internal.Origins;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/** One HTTP exchange of {@link McpHttpServer}: the checks in the order docs/mcp.md gives, then the dispatcher. */
final class HttpExchanges implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(HttpExchanges.class);
    private static final String JSON = "application/json";

    private final McpDispatcher dispatcher;
    private final BearerToken token;
    private final String principal;
    private final ExchangeThreads threads;
    private final Semaphore serving;
    private final Optional<McpHttpServer.Metrics> metrics;
    /** Whether {@code GET /metrics} needs the token: on any address but loopback. */
    private final boolean metricsNeedToken;

    HttpExchanges(McpDispatcher dispatcher, McpHttpServer.Config config, ExchangeThreads threads,
            Optional<McpHttpServer.Metrics> metrics) {
        this.dispatcher = dispatcher;
        this.metrics = metrics;
        InetAddress address = config.address().getAddress();
        this.metricsNeedToken = address == null || !address.isLoopbackAddress();
        this.token = config.token();
        this.principal = config.principal();
        this.threads = threads;
        this.serving = new Semaphore(config.maxConcurrent());
    }

    @Override
    public void handle(HttpExchange exchange) {
        try (exchange) {
            serve(exchange);
        } catch (IOException e) {
            // The client went away mid-exchange; nothing is left to tell it.
            LOG.debug("mcp http exchange aborted remote={} reason={}", exchange.getRemoteAddress(), e.toString());
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        Headers headers = exchange.getRequestHeaders();
        if (metrics.isPresent() && exchange.getRequestURI().getRawPath().equals(McpHttpServer.METRICS_PATH)) {
            serveMetrics(exchange, metrics.get());
            return;
        }
        if (!exchange.getRequestURI().getRawPath().equals(McpHttpServer.PATH)) {
            refuse(exchange, 404, "not found: the MCP endpoint is " + McpHttpServer.PATH);
            return;
        }
        if (!Origins.allowed(headers.getFirst("Origin"))) {
            refuse(exchange, 403, "forbidden: the origin " + headers.getFirst("Origin") + " is not this machine; "
                    + "the verbs are served to loopback origins only");
            return;
        }
        if (!authorized(headers.getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"" + Handshake.SERVER_NAME + "\"");
            refuse(exchange, 401, "unauthorized: send Authorization: Bearer <token>, the token in the "
                    + "controller's state directory (file " + BearerToken.FILE_NAME + ")");
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.getResponseHeaders().set("Allow", "POST");
            refuse(exchange, 405, "method not allowed: " + exchange.getRequestMethod() + "; send each message "
                    + "with POST (this server streams nothing, so there is no GET)");
            return;
        }
        long declared = contentLength(headers.getFirst("Content-Length"));
        if (declared > JsonRpc.MAX_MESSAGE_BYTES) {
            tooLarge(exchange, declared);
            return;
        }
        if (!isJson(headers.getFirst("Content-Type"))) {
            refuse(exchange, 415, "unsupported media type: " + headers.getFirst("Content-Type") + "; send "
                    + "Content-Type: application/json");
            return;
        }
        if (!acceptsJson(headers.get("Accept"))) {
            refuse(exchange, 406, "not acceptable: this server answers application/json only; include it in "
                    + "Accept");
            return;
        }
        String version = headers.getFirst("MCP-Protocol-Version");
        if (version != null && !Handshake.VERSIONS.contains(version.strip())) {
            refuse(exchange, 400, "bad request: MCP-Protocol-Version " + version + " is not spoken here; the versions "
                    + "are " + String.join(", ", Handshake.VERSIONS));
            return;
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(JsonRpc.MAX_MESSAGE_BYTES + 1);
        }
        if (body.length > JsonRpc.MAX_MESSAGE_BYTES) {
            tooLarge(exchange, -1);
            return;
        }
        if (!threads.requestRead()) {
            // The read timeout passed as the body arrived: the connection is closed, no answer can go.
            throw new IOException("the request was read after the read timeout");
        }
        answer(exchange, dispatch(body));
    }

    /**
     * {@code GET /metrics}: the origin checked as for the verbs, the token only off loopback (docs/operations.md),
     * and no request body read.
     */
    private void serveMetrics(HttpExchange exchange, McpHttpServer.Metrics served) throws IOException {
        Headers headers = exchange.getRequestHeaders();
        if (!Origins.allowed(headers.getFirst("Origin"))) {
            refuse(exchange, 403, "forbidden: the origin " + headers.getFirst("Origin") + " is not this machine; "
                    + "the metrics are served to loopback origins only");
            return;
        }
        if (metricsNeedToken && !authorized(headers.getFirst("Authorization"))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"" + Handshake.SERVER_NAME + "\"");
            refuse(exchange, 401, "unauthorized: off loopback the metrics need Authorization: Bearer <token>, the "
                    + "token in the controller's state directory (file " + BearerToken.FILE_NAME + "); Prometheus "
                    + "sends it with authorization: credentials_file");
            return;
        }
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            refuse(exchange, 405, "method not allowed: " + method + "; the metrics are read with GET");
            return;
        }
        byte[] body;
        try {
            body = served.body().get();
        } catch (RuntimeException e) {
            // The transport boundary, as for the verbs: the scraper gets a status, the log the cause.
            LOG.warn("metrics scrape failed reason=\"{}\"", e.toString(), e);
            refuse(exchange, 500, "internal error: the metrics could not be rendered; the controller logged why");
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", served.contentType());
        if (method.equals("HEAD")) {
            exchange.sendResponseHeaders(200, -1);
            return;
        }
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private McpDispatcher.Exchange dispatch(byte[] body) throws IOException {
        // Only requests read whole and allowed take one of the maxConcurrent places, and only while dispatched.
        try {
            serving.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to be served: the server is stopping", e);
        }
        try {
            return dispatcher.exchange(body, Envelope.of(principal));
        } finally {
            serving.release();
        }
    }

    private void answer(HttpExchange exchange, McpDispatcher.Exchange served) throws IOException {
        switch (served.status()) {
            case NOTIFIED -> exchange.sendResponseHeaders(202, -1);
            case INVALID -> send(exchange, 400, served.answer());
            case ANSWERED -> {
                if (served.method().equals("initialize") && served.answer().has("result")) {
                    // Sessions carry no state here: the id lets clients that want one have one (docs/mcp.md).
                    exchange.getResponseHeaders().set("Mcp-Session-Id", UUID.randomUUID().toString());
                }
                send(exchange, 200, served.answer());
            }
        }
    }

    private boolean authorized(String authorization) {
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return token.matches(authorization.substring(7).strip());
    }

    private static long contentLength(String header) {
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return type.equalsIgnoreCase(JSON);
    }

    private static boolean acceptsJson(java.util.List<String> accept) {
        if (accept == null || accept.isEmpty()) {
            return true;
        }
        for (String header : accept) {
            for (String range : header.split(",")) {
                int semicolon = range.indexOf(';');
                String type = (semicolon < 0 ? range : range.substring(0, semicolon)).strip()
                        .toLowerCase(Locale.ROOT);
                if (type.equals(JSON) || type.equals("application/*") || type.equals("*/*")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void tooLarge(HttpExchange exchange, long size) throws IOException {
        // Not reading the rest: the JDK's server drains a little of it, then closes the connection.
        exchange.getResponseHeaders().set("Connection", "close");
        refuse(exchange, 413, JsonRpc.tooLarge(size).replace("invalid request: ", "content too large: "));
    }

    private static void refuse(HttpExchange exchange, int status, String message) throws IOException {
        send(exchange, status, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, message));
    }

    private static void send(HttpExchange exchange, int status, JsonNode message) throws IOException {
        byte[] bytes = JsonRpc.write(message);
        exchange.getResponseHeaders().set("Content-Type", JSON);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
