package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.verbs.Verbs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a standby's read path warm (docs/design.md section 10: a standby keeps its caches warm, so that taking
 * over costs one lock round trip): in the background, right after start, it calls the read verbs through
 * the same {@link Verbs} and dispatcher code the transports use, as an unnamed caller whose answers go
 * nowhere, until the JVM has loaded and compiled that path.
 *
 * <p>A successor that had answered nothing is slow to answer its first verbs (classes loaded, code
 * interpreted), and that was most of a planned handover's gap; docs/benchmarks.md has the figures.
 *
 * <p>It reads and changes nothing of the mesh: only read verbs are called ({@code initialize}, {@code
 * tools/list} and every verb that does not {@linkplain Verbs#mutates mutate}), and the identity is asked
 * about a principal no grant names, as a caller's request would. It stops as soon as the controller is
 * active: live requests then keep the path warm.
 */
public final class StandbyWarmup {

    /** Whom the identity is asked about: a name no principal has (section 11 names are user ids). */
    public static final String PRINCIPAL = "mesh-controller warm-up";
    /** How many {@code status} calls: past the JIT's compile thresholds for the path they share. */
    static final int STATUS_CALLS = 3_000;
    /** Calls in a row before a pause, so that the active controller beside keeps its share of the cores. */
    static final int BURST = 50;
    /** The pause between two bursts, in milliseconds. */
    static final long PAUSE_MS = 20;

    private static final Logger LOG = LoggerFactory.getLogger(StandbyWarmup.class);

    private final McpDispatcher dispatcher;
    private final Lifecycle lifecycle;
    private int id;

    private StandbyWarmup(Verbs verbs, Identity identity, String version, Lifecycle lifecycle) {
        // The real identity is asked (its store queries and its memory warm up too); only reads pass.
        this.dispatcher = McpDispatcher.of(verbs, (principal, verb) -> {
            identity.allows(principal, verb);
            return !Verbs.mutates(verb);
        }, version, VerbCalls.NONE);
        this.lifecycle = lifecycle;
    }

    /**
     * Starts warming up on a thread of its own, which ends when done or once the controller is active.
     *
     * @param verbs the verbs the transports hand their requests to
     * @param identity the identity the transports check callers with
     * @param version the controller's version
     * @param lifecycle the controller's life cycle
     * @return the thread, for a test to wait for
     */
    public static Thread start(Verbs verbs, Identity identity, String version, Lifecycle lifecycle) {
        StandbyWarmup warmup = new StandbyWarmup(Objects.requireNonNull(verbs, "verbs"),
                Objects.requireNonNull(identity, "identity"), Objects.requireNonNull(version, "version"),
                Objects.requireNonNull(lifecycle, "lifecycle"));
        Thread thread = Thread.ofPlatform().name("mesh-controller-warm-up").daemon().unstarted(warmup::run);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
        return thread;
    }

    private void run() {
        long started = System.nanoTime();
        int calls = 0;
        try {
            for (String verb : readVerbs()) {
                call("tools/call", "{\"name\":\"" + verb + "\",\"arguments\":" + arguments(verb) + "}");
                calls++;
            }
            call("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"warm-up\",\"version\":\"0\"}}");
            call("tools/list", "{}");
            calls += 2;
            for (int n = 0; n < STATUS_CALLS && standby(); n++) {
                call("tools/call", "{\"name\":\"status\",\"arguments\":{}}");
                calls++;
                if (n % BURST == BURST - 1) {
                    TimeUnit.MILLISECONDS.sleep(PAUSE_MS);
                }
            }
            LOG.debug("standby warmed up calls={} tookMs={} role={}", calls, (System.nanoTime() - started) / 1_000_000,
                    lifecycle.status().role().label());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // Best effort: a standby that could not warm up is slower to take over, and answers all the same.
            LOG.debug("standby warm-up ended early calls={} reason=\"{}\"", calls, e.toString());
        }
    }

    private boolean standby() {
        return lifecycle.status().role() == Role.STANDBY;
    }

    /** @return the verbs that read, except {@code node}, which needs a name: called with one below */
    private static List<String> readVerbs() {
        return Verbs.names().stream().filter(verb -> !Verbs.mutates(verb)).toList();
    }

    private static String arguments(String verb) {
        // A node no mesh has: the verb's whole path up to its "not found" answer.
        return "node".equals(verb) ? "{\"name\":\"mesh-controller-warm-up\"}" : "{}";
    }

    private void call(String method, String params) {
        String request = "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"" + method + "\",\"params\":"
                + params + "}";
        dispatcher.dispatch(request.getBytes(StandardCharsets.UTF_8), Envelope.of(PRINCIPAL));
    }
}
