package dev.mesh.controller.mcp;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.execute.Executor;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The controller's metrics (docs/operations.md), in a Prometheus registry of its own (never the library's
 * global one): the verbs' calls — core's {@link VerbCalls}, told by the one dispatcher behind every
 * transport — by verb and outcome with their durations; the life cycle read from core's {@link Lifecycle}
 * when scraped (role, epoch, the last handover's gap and lock wait); the deliveries and builds the
 * executor's rounds did ({@link #counting}); and in a mesh the bus's own counts (the bus module registers them in {@link #registry()}). What
 * is counted elsewhere is read there when scraped, never counted twice.
 *
 * <p>Thread-safe.
 */
public final class PrometheusMetrics implements VerbCalls {

    /** The prefix of every metric's name. */
    public static final String PREFIX = "mesh_controller_";

    /**
     * The verbs' duration buckets, in seconds: a read answers in well under a millisecond from memory, a
     * mutating verb in a few milliseconds on the store, one waiting for the lock or the store up to seconds.
     */
    static final double[] VERB_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
        5, 10};

    private static final PrometheusTextFormatWriter TEXT = PrometheusTextFormatWriter.create();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter verbs;
    private final Histogram durations;
    private final Counter deliveries;
    private final Counter builds;

    /**
     * @param lifecycle the controller's life cycle, read at each scrape
     */
    public PrometheusMetrics(Lifecycle lifecycle) {
        Objects.requireNonNull(lifecycle, "lifecycle");
        verbs = Counter.builder().name(PREFIX + "verbs_total")
                .help("Verb calls (tools/call) answered, by verb and outcome: ok, a tool error's code, "
                        + "protocol-error or internal-error")
                .labelNames("verb", "outcome").register(registry);
        durations = Histogram.builder().name(PREFIX + "verb_duration_seconds")
                .help("How long the dispatcher took to answer a verb call, by verb")
                .labelNames("verb").classicOnly().classicUpperBounds(VERB_BUCKETS).register(registry);
        deliveries = Counter.builder().name(PREFIX + "deliveries_total")
                .help("Declarations the executor delivered to hosts, or failed to, by result")
                .labelNames("result").register(registry);
        builds = Counter.builder().name(PREFIX + "builds_requested_total")
                .help("Build orders the executor sent to builders").register(registry);
        // Both results from the start, at 0: a scraper sees the series before the first round.
        deliveries.labelValues("delivered");
        deliveries.labelValues("failed");
        GaugeWithCallback.builder().name(PREFIX + "role")
                .help("This controller's role: 1 for the role it has, 0 for the others")
                .labelNames("role")
                .callback(callback -> {
                    Role now = lifecycle.status().role();
                    for (Role role : Role.values()) {
                        callback.call(role == now ? 1 : 0, role.label());
                    }
                }).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "epoch")
                .help("The fencing epoch this controller holds while active; otherwise the latest it held or saw")
                .callback(callback -> callback.call(lifecycle.status().epoch())).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "handover_gap_seconds")
                .help("How long no controller held the plan lock before this one last took it (absent before the "
                        + "first taking, and after a first one)")
                .callback(callback -> lifecycle.lastTaking().flatMap(taking -> taking.tenure().gap())
                        .ifPresent(gap -> callback.call(seconds(gap)))).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "lock_wait_seconds")
                .help("How long this controller last waited to take the plan lock and its new epoch (absent "
                        + "before it first took it)")
                .callback(callback -> lifecycle.lastTaking()
                        .ifPresent(taking -> callback.call(seconds(taking.waited())))).register(registry);
    }

    @Override
    public void called(String verb, String outcome, Duration took) {
        verbs.labelValues(verb, outcome).inc();
        durations.labelValues(verb).observe(seconds(took));
    }

    /** @return the calls and failures read from the registry's counter, the one place they are counted */
    @Override
    public Optional<Tally> tally() {
        long calls = 0;
        long failed = 0;
        for (CounterSnapshot.CounterDataPointSnapshot point : verbs.collect().getDataPoints()) {
            long count = (long) point.getValue();
            calls += count;
            if (!OK.equals(point.getLabels().get("outcome"))) {
                failed += count;
            }
        }
        return Optional.of(new Tally(calls, failed));
    }

    /**
     * @param rounds what else hears of the executor's rounds (its log)
     * @return a listener that counts the deliveries and builds of each round, then tells {@code rounds}
     */
    public Executor.Listener counting(Executor.Listener rounds) {
        Objects.requireNonNull(rounds, "rounds");
        return new Executor.Listener() {
            @Override
            public void round(Execution.Round round) {
                deliveries.labelValues("delivered").inc(round.delivered().size());
                deliveries.labelValues("failed").inc(round.failed().size());
                builds.inc(round.sent().size());
                rounds.round(round);
            }

            @Override
            public void failed(RuntimeException failure) {
                rounds.failed(failure);
            }
        };
    }

    /** @return the registry, for the bus's metrics to join */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** @return {@code GET /metrics}: the registry in Prometheus's text format 0.0.4 */
    public McpHttpServer.Metrics exposition() {
        return new McpHttpServer.Metrics(PrometheusTextFormatWriter.CONTENT_TYPE, this::text);
    }

    /** @return the registry as of now in Prometheus's text format */
    byte[] text() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            TEXT.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the metrics to memory", e);
        }
        return out.toByteArray();
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
