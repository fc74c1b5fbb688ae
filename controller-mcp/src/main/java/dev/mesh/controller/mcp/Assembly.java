package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Closer;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.verbs.Verbs;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one assembly of a running controller: its ports → the verbs → the dispatcher every
 * transport hands its messages to → the transports, and the renewal of {@code status}. The
 * development controller, {@code serve}, the integration tests and the benchmarks build a
 * controller through it, each with ports of its own (the embedded store, the configured store,
 * in-memory ports); what is particular to one of them (the embedded store, the state directory,
 * the token and url files) stays with it.
 *
 * <p>{@link #close()} stops the transports, then the renewal; the ports belong to whoever gave them
 * and are closed by it. Thread-safe once started.
 */
public final class Assembly implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Assembly.class);

    /** How often {@code status}'s snapshot is renewed from the store, for what changes without a verb. */
    public static final Duration STATUS_EVERY = Duration.ofSeconds(5);

    private final Verbs.Ports ports;
    private final Verbs verbs;
    private final McpDispatcher dispatcher;
    /** What {@link #close()} stops, the last started first; guarded by {@code this}. */
    private final Closer started = new Closer();

    private Assembly(Verbs.Ports ports, Identity identity, String version) {
        this.ports = ports;
        this.verbs = Verbs.of(ports);
        this.dispatcher = McpDispatcher.of(verbs, identity, version);
    }

    /**
     * @param ports what the verbs are handled against
     * @param identity who may call which verb ({@link Identity#ANYONE} for the development controller)
     * @param version the controller's version, told to MCP clients
     * @return the verbs and their dispatcher, with no transport yet
     */
    public static Assembly of(Verbs.Ports ports, Identity identity, String version) {
        return new Assembly(Objects.requireNonNull(ports, "ports"), Objects.requireNonNull(identity, "identity"),
                Objects.requireNonNull(version, "version"));
    }

    /** @return the verbs */
    public Verbs verbs() {
        return verbs;
    }

    /** @return the dispatcher every transport hands its messages to */
    public McpDispatcher dispatcher() {
        return dispatcher;
    }

    /** @return the gate the mutating verbs pass */
    public Lifecycle lifecycle() {
        return ports.lifecycle();
    }

    /**
     * Renews {@code status}'s snapshot now and then every {@code every}, on a thread of its own; a
     * renewal that fails is logged, and the next comes all the same.
     *
     * @param every the interval
     */
    public void renewStatus(Duration every) {
        ScheduledExecutorService renewal = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("mesh-controller-status").daemon().factory());
        started((AutoCloseable) renewal::shutdownNow);
        renewal.scheduleWithFixedDelay(this::renew, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Serves the verbs over MCP on loopback HTTP (or elsewhere, when the configuration allows it).
     *
     * @param config where and with which token
     * @return the running server; {@link #close()} stops it
     * @throws dev.mesh.controller.mcp.McpException when the address cannot be listened on
     */
    public McpHttpServer serveHttp(McpHttpServer.Config config) {
        return started(McpHttpServer.start(dispatcher, config));
    }

    /**
     * Serves the verbs over MCP as {@link #serveHttp(McpHttpServer.Config)} does, and the metrics on
     * {@code GET /metrics} beside them.
     *
     * @param config where and with which token
     * @param metrics what {@code GET /metrics} answers
     * @return the running server; {@link #close()} stops it
     * @throws dev.mesh.controller.mcp.McpException when the address cannot be listened on
     */
    public McpHttpServer serveHttp(McpHttpServer.Config config, McpHttpServer.Metrics metrics) {
        return started(McpHttpServer.start(dispatcher, config, Optional.of(metrics)));
    }

    /** Stops the transports, then the renewal of {@code status}. */
    @Override
    public void close() {
        List<Exception> failures;
        synchronized (this) {
            failures = started.closeAll();
        }
        Closer.throwIfAny(failures, (first, cause) -> new IllegalStateException("the controller's transports did "
                + "not stop cleanly: " + first, cause));
    }

    private synchronized <T extends AutoCloseable> T started(T one) {
        return started.open(one);
    }

    private void renew() {
        try {
            verbs.refresh();
        } catch (RuntimeException e) {
            LOG.warn("status refresh failed reason=\"{}\"", e.toString(), e);
        }
    }
}
