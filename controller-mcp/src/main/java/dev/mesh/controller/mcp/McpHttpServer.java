package dev.mesh.controller.mcp;

import com.sun.net.httpserver.HttpServer;
import dev.mesh.controller.mcp.internal.ExchangeThreads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP's Streamable HTTP transport, JSON responses only (no SSE): {@code POST /mcp} with one JSON-RPC
 * message, answered with {@code application/json}, or {@code 202} with no body for a notification.
 * Every request needs the bearer token; browsers' non-loopback origins are refused; a body over
 * 1 MiB is refused with {@code 413}; a client that takes longer than {@link Config#readTimeout} to send
 * its request is closed, and does not hold up the others. See docs/mcp.md for every status it answers.
 * Started with {@link Metrics}, it also answers {@code GET /metrics} with them: without the token on a
 * loopback address (what a local Prometheus scrapes), with it on any other (docs/operations.md).
 *
 * <p>Thread-safe; {@link #stop()} may be called from any thread, more than once.
 */
public final class McpHttpServer implements AutoCloseable {

    /** The path of the MCP endpoint. */
    public static final String PATH = "/mcp";
    /** The path of the metrics, when the server was started with some. */
    public static final String METRICS_PATH = "/metrics";

    /**
     * What {@code GET /metrics} answers: the controller's metrics, rendered when asked.
     *
     * @param contentType the media type of the body, e.g. Prometheus's text format
     *     {@code text/plain; version=0.0.4; charset=utf-8}
     * @param body renders the metrics as of now; called on the exchange's thread, once per request, and
     *     must be thread-safe; a failure is answered with {@code 500}
     */
    public record Metrics(String contentType, Supplier<byte[]> body) {

        /** Checks the parts. */
        public Metrics {
            Objects.requireNonNull(contentType, "contentType");
            Objects.requireNonNull(body, "body");
        }
    }

    /**
     * How many connections may be open with a request being read or served at once; one more is closed
     * at once, so that the JDK server's dispatcher thread never waits (docs/mcp.md, "Slow clients").
     */
    static final int MAX_OPEN_EXCHANGES = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(McpHttpServer.class);

    /**
     * How the server listens and whom it serves.
     *
     * @param address where to listen; port 0 for any free port
     * @param allowNonLoopback whether an address other than loopback is allowed (off: the verbs are
     *     served to this machine only)
     * @param token the bearer token every request must carry
     * @param principal who a request with the token is, for {@link dev.mesh.controller.core.Identity}
     * @param maxConcurrent how many requests are served at once; more wait for one to finish
     * @param readTimeout how long a client may take to send a request, headers and body, from its first
     *     byte; a connection still sending after that is closed
     */
    public record Config(InetSocketAddress address, boolean allowNonLoopback, BearerToken token, String principal,
            int maxConcurrent, Duration readTimeout) {

        /** The default of {@link #maxConcurrent}. */
        public static final int DEFAULT_MAX_CONCURRENT = 64;
        /** The default of {@link #readTimeout}: ample for 1 MiB on loopback, short for a client that stalls. */
        public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);

        /**
         * Checks the parts.
         *
         * @throws IllegalArgumentException when {@code maxConcurrent} is below 1 or {@code readTimeout} is
         *     not positive
         */
        public Config {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(principal, "principal");
            Objects.requireNonNull(readTimeout, "readTimeout");
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("maxConcurrent must be at least 1, not " + maxConcurrent);
            }
            if (readTimeout.isNegative() || readTimeout.isZero()) {
                throw new IllegalArgumentException("readTimeout must be positive, not " + readTimeout);
            }
        }

        /**
         * A configuration with the default {@link #readTimeout}.
         *
         * @param address where to listen; port 0 for any free port
         * @param allowNonLoopback whether an address other than loopback is allowed
         * @param token the bearer token every request must carry
         * @param principal who a request with the token is
         * @param maxConcurrent how many requests are served at once
         * @throws IllegalArgumentException when {@code maxConcurrent} is below 1
         */
        public Config(InetSocketAddress address, boolean allowNonLoopback, BearerToken token, String principal,
                int maxConcurrent) {
            this(address, allowNonLoopback, token, principal, maxConcurrent, DEFAULT_READ_TIMEOUT);
        }

        /**
         * @param readTimeout how long a client may take to send a request
         * @return this configuration with that read timeout
         */
        public Config withReadTimeout(Duration readTimeout) {
            return new Config(address, allowNonLoopback, token, principal, maxConcurrent, readTimeout);
        }

        /**
         * @param port the port on the loopback address, 0 for any free one
         * @param token the bearer token every request must carry
         * @param principal who a request with the token is
         * @return a configuration for this machine only
         */
        public static Config loopback(int port, BearerToken token, String principal) {
            return new Config(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), false, token, principal,
                    DEFAULT_MAX_CONCURRENT);
        }
    }

    private final HttpServer server;
    private final ExchangeThreads threads;
    private final URI endpoint;
    private boolean stopped;

    private McpHttpServer(HttpServer server, ExchangeThreads threads, URI endpoint) {
        this.server = server;
        this.threads = threads;
        this.endpoint = endpoint;
    }

    /**
     * Binds and starts serving.
     *
     * @param dispatcher what answers the messages
     * @param config where to listen and whom to serve
     * @return the running server
     * @throws McpException ({@link McpException.Kind#SETUP}) when the address is not loopback and that
     *     is not allowed, cannot be resolved, or cannot be bound
     */
    public static McpHttpServer start(McpDispatcher dispatcher, Config config) {
        return start(dispatcher, config, Optional.empty());
    }

    /**
     * Binds and starts serving, with {@code GET /metrics} when {@code metrics} are given.
     *
     * @param dispatcher what answers the messages
     * @param config where to listen and whom to serve
     * @param metrics what {@code GET /metrics} answers; empty for none ({@code 404})
     * @return the running server
     * @throws McpException ({@link McpException.Kind#SETUP}) as {@link #start(McpDispatcher, Config)}
     */
    public static McpHttpServer start(McpDispatcher dispatcher, Config config, Optional<Metrics> metrics) {
        Objects.requireNonNull(metrics, "metrics");
        InetSocketAddress address = config.address();
        if (address.isUnresolved()) {
            throw McpException.setup("cannot listen on " + address.getHostString() + ":" + address.getPort()
                    + ": the name does not resolve; give an address such as 127.0.0.1", null);
        }
        if (!config.allowNonLoopback() && !address.getAddress().isLoopbackAddress()) {
            throw McpException.setup("refusing to serve the verbs on " + address.getAddress().getHostAddress()
                    + ", which is not a loopback address: anyone who reaches it could try the token; listen on "
                    + "127.0.0.1, or allow non-loopback addresses explicitly", null);
        }
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw McpException.setup("cannot listen on " + address.getAddress().getHostAddress() + ":"
                    + address.getPort() + " (" + e.getMessage() + "); is another controller running there? choose "
                    + "another port, or 0 for any free one", e);
        }
        // Reading a request happens on the executor's threads; each is bounded there (docs/mcp.md, "Slow clients").
        ExchangeThreads threads = new ExchangeThreads("mcp-http-", MAX_OPEN_EXCHANGES, config.readTimeout());
        server.createContext("/", new HttpExchanges(dispatcher, config, threads, metrics));
        server.setExecutor(threads);
        server.start();
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        URI endpoint = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort()
                + PATH);
        LOG.info("mcp http server started endpoint={} maxConcurrent={} readTimeoutMs={}", endpoint,
                config.maxConcurrent(), config.readTimeout().toMillis());
        return new McpHttpServer(server, threads, endpoint);
    }

    /** @return the port it listens on (the one chosen when the configuration said 0) */
    public int port() {
        return server.getAddress().getPort();
    }

    /** @return the endpoint's URI, e.g. {@code http://127.0.0.1:7411/mcp} */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Stops listening, lets the requests being served finish (for up to a second), then closes every
     * connection. Idempotent.
     */
    public void stop() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        server.stop(1);
        threads.close();
        LOG.info("mcp http server stopped endpoint={}", endpoint);
    }

    /** The same as {@link #stop()}, for try-with-resources. */
    @Override
    public void close() {
        stop();
    }
}
