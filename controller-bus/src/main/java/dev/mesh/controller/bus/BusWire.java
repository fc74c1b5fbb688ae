package dev.mesh.controller.bus;

import dev.mesh.controller.core.Wire;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code status}'s {@code bus} in a mesh (core's {@link Wire}, from the bus's parts): whether the broker
 * answered, the messages waiting in {@code mesh-controller.dead} (a passive declaration's message count:
 * one round trip, no management API), and the counts of the facts in, the reports in and the events out
 * since this controller started, each reason by its label. Read by {@code status}'s periodic refresh,
 * never per call. Thread-safe, as the parts' {@code counts()} are.
 */
public final class BusWire implements Wire {

    private final Broker broker;
    private final FactsIn facts;
    private final ReportsIn reports;
    private final NatsEvents events;

    /**
     * @param broker the broker, asked for the dead-letter queue's count
     * @param facts the facts in
     * @param reports the reports in
     * @param events the events out
     */
    public BusWire(Broker broker, FactsIn facts, ReportsIn reports, NatsEvents events) {
        this.broker = Objects.requireNonNull(broker, "broker");
        this.facts = Objects.requireNonNull(facts, "facts");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.events = Objects.requireNonNull(events, "events");
    }

    /**
     * @return {@code broker}, {@code dead}, {@code brokerNode} (the member the connection is on, {@code host:port}),
     *     {@code brokerRecoveries}, {@code facts}, {@code reports}, {@code events} (the NATS connections' with their
     *     {@code server} and {@code reconnections}), in that order
     */
    @Override
    public Map<String, Object> counts() {
        Map<String, Object> counts = new LinkedHashMap<>();
        try {
            long dead = Topology.deadLetters(broker);
            counts.put("broker", "ok");
            counts.put("dead", dead);
        } catch (BusException e) {
            // status tells it, as it tells a store that does not answer; the other counts are this process's own.
            counts.put("broker", "unavailable: " + e.getMessage());
            counts.put("dead", null);
        }
        counts.put("brokerNode", broker.node());
        counts.put("brokerRecoveries", broker.recoveries());
        FactsIn.Counts in = facts.counts();
        Map<String, Object> factCounts = new LinkedHashMap<>();
        factCounts.put("received", in.received());
        factCounts.put("written", in.written());
        factCounts.put("dropped", byLabel(in.dropped(), FactsIn.Drop::label));
        factCounts.put("server", facts.server());
        factCounts.put("reconnections", facts.reconnections());
        counts.put("facts", factCounts);
        ReportsIn.Counts got = reports.counts();
        Map<String, Object> reportCounts = new LinkedHashMap<>();
        reportCounts.put("received", got.received());
        reportCounts.put("accepted", got.accepted());
        reportCounts.put("requeued", got.requeued());
        reportCounts.put("rejected", byLabel(got.rejected(), ReportsIn.Rejection::label));
        counts.put("reports", reportCounts);
        NatsEvents.Counts out = events.counts();
        Map<String, Object> eventCounts = new LinkedHashMap<>();
        eventCounts.put("published", out.published());
        eventCounts.put("failed", byLabel(out.failed(), NatsEvents.Failure::label));
        eventCounts.put("server", events.server());
        eventCounts.put("reconnections", events.reconnections());
        counts.put("events", eventCounts);
        return counts;
    }

    /** @return the counts by the reason's label, in the reasons' declared order */
    private static <E extends Enum<E>> Map<String, Long> byLabel(Map<E, Long> counts,
            Function<E, String> label) {
        Map<String, Long> labelled = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(entry -> labelled.put(label.apply(entry.getKey()), entry.getValue()));
        return labelled;
    }
}
