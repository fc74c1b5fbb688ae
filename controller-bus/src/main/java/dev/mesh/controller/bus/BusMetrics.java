package dev.mesh.controller.bus;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The bus's counts as metrics (docs/operations.md): read from the bus's parts when scraped — the same counts
 * {@code status}'s {@code bus} shows ({@link BusWire}) — never counted a second time. Thread-safe, as the
 * parts' {@code counts()} are.
 */
public final class BusMetrics {

    private BusMetrics() {
    }

    /**
     * Registers the bus's metrics.
     *
     * @param registry where
     * @param prefix what every name begins with, the controller's ({@code mesh_controller_})
     * @param broker the broker, whose dead-letter queue is counted at each scrape (one round trip; absent
     *     when the broker does not answer)
     * @param facts the facts in
     * @param reports the reports in
     * @param events the events out
     */
    public static void register(PrometheusRegistry registry, String prefix, Broker broker, FactsIn facts,
            ReportsIn reports, NatsEvents events) {
        counter(registry, prefix, "facts_received_total", "Facts messages received from hosts on NATS",
                () -> facts.counts().received());
        counter(registry, prefix, "facts_written_total", "Facts written to the inventory",
                () -> facts.counts().written());
        byReason(registry, prefix, "facts_dropped_total", "Facts messages dropped, by reason",
                () -> facts.counts().dropped(), FactsIn.Drop::label);
        counter(registry, prefix, "reports_received_total", "Reports received from hosts and builders",
                () -> reports.counts().received());
        counter(registry, prefix, "reports_accepted_total", "Reports accepted and recorded",
                () -> reports.counts().accepted());
        counter(registry, prefix, "reports_requeued_total", "Reports given back to the queue to be tried again",
                () -> reports.counts().requeued());
        byReason(registry, prefix, "reports_rejected_total", "Reports rejected (dead-lettered), by reason",
                () -> reports.counts().rejected(), ReportsIn.Rejection::label);
        counter(registry, prefix, "events_published_total", "Events published on NATS",
                () -> events.counts().published());
        byReason(registry, prefix, "events_failed_total", "Events that could not be published, by reason",
                () -> events.counts().failed(), NatsEvents.Failure::label);
        counter(registry, prefix, "broker_recoveries_total", "Times the broker connection was lost and made again "
                + "(to the same member or another of the cluster)", broker::recoveries);
        CounterWithCallback.builder().name(prefix + "nats_reconnections_total")
                .help("Times a NATS connection was lost and made again, by connection").labelNames("connection")
                .callback(callback -> {
                    callback.call(facts.reconnections(), "facts");
                    callback.call(events.reconnections(), "events");
                }).register(registry);
        GaugeWithCallback.builder().name(prefix + "connected_member")
                .help("The member of its cluster each connection is on (always 1), by connection and member")
                .labelNames("connection", "member").callback(callback -> {
                    callback.call(1, "broker", broker.node());
                    callback.call(1, "nats_facts", facts.server());
                    callback.call(1, "nats_events", events.server());
                }).register(registry);
        GaugeWithCallback.builder().name(prefix + "dead_letters")
                .help("Messages waiting in the queue mesh-controller.dead (absent when the broker does not answer)")
                .callback(callback -> {
                    try {
                        callback.call(Topology.deadLetters(broker));
                    } catch (BusException e) {
                        // Absent from this scrape: the broker's own state says why, and status tells it.
                    }
                }).register(registry);
    }

    private static void counter(PrometheusRegistry registry, String prefix, String name, String help,
            LongSupplier count) {
        CounterWithCallback.builder().name(prefix + name).help(help)
                .callback(callback -> callback.call(count.getAsLong())).register(registry);
    }

    private static <E extends Enum<E>> void byReason(PrometheusRegistry registry, String prefix, String name,
            String help, Supplier<Map<E, Long>> counts, Function<E, String> label) {
        CounterWithCallback.builder().name(prefix + name).help(help).labelNames("reason")
                .callback(callback -> counts.get().forEach((reason, count) -> callback.call(count,
                        label.apply(reason)))).register(registry);
    }
}
