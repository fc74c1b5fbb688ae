package dev.mesh.controller.mcp;

import com.sun.net.httpserver.HttpServer;
import dev.mesh.controller.mcp.internal.BoundedExecutor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP's Streamable HTTP transport, JSON responses only (no SSE): {@code POST /mcp} with one JSON-RPC
 * message, answered with {@code application/json}, or {@code 202} with no body for a notification.
 * Every request needs the bearer token; browsers' non-loopback origins are refused; a body over
 * 1 MiB is refused with {@code 413}. See docs/mcp.md for every status it answers.
 *
 * <p>Thread-safe; {@link #stop()} may be called from any thread, more than once.
 */
public final class McpHttpServer implements AutoCloseable {

    /** The path of the MCP endpoint. */
    public static final String PATH = "/mcp";

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
     */
    public record Config(InetSocketAddress address, boolean allowNonLoopback, BearerToken token, String principal,
            int maxConcurrent) {

        /** The default of {@link #maxConcurrent}. */
        public static final int DEFAULT_MAX_CONCURRENT = 64;

        /** Checks the parts. */
        public Config {
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(principal, "principal");
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("maxConcurrent must be at least 1, not " + maxConcurrent);
            }
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
    private final URI endpoint;
    private boolean stopped;

    private McpHttpServer(HttpServer server, URI endpoint) {
        this.server = server;
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
        server.createContext("/", new HttpExchanges(dispatcher, config.token(), config.principal()));
        server.setExecutor(new BoundedExecutor("mcp-http-", config.maxConcurrent()));
        server.start();
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        URI endpoint = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort()
                + PATH);
        LOG.info("mcp http server started endpoint={} maxConcurrent={}", endpoint, config.maxConcurrent());
        return new McpHttpServer(server, endpoint);
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
        LOG.info("mcp http server stopped endpoint={}", endpoint);
    }

    /** The same as {@link #stop()}, for try-with-resources. */
    @Override
    public void close() {
        stop();
    }
}
