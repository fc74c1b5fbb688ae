package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.Tenure;
import dev.mesh.controller.core.VerbCalls;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code status} answers, as of the last time the controller read the whole inventory: the
 * counts, the current plan's summary, and whether the store answered. {@code status} itself reads
 * nothing, so it stays as cheap as the transport under it; {@link Verbs#refresh()} renews it.
 *
 * @param nodes how many nodes
 * @param silent how many of them are {@linkplain Sighting#silentAt silent} at {@code asOf}: heard from,
 *     then not for more than three report intervals
 * @param modules how many modules
 * @param assignments how many assignments
 * @param plan the current plan's counts of changes by action
 * @param store {@code ok}, or {@code unavailable: } and why the last read failed
 * @param asOf when the inventory was read (for {@code ok}) or failed to be
 */
record StatusSnapshot(int nodes, int silent, int modules, int assignments, Map<String, Integer> plan, String store,
        Instant asOf) {

    /** Nothing read yet. */
    static final StatusSnapshot NONE = new StatusSnapshot(0, 0, 0, 0, Map.of(), "unavailable: not read yet",
            Instant.EPOCH);

    StatusSnapshot {
        plan = Map.copyOf(plan);
    }

    /** @return the snapshot of a state whose plan is computed */
    static StatusSnapshot of(State state, Instant at) {
        int silent = (int) state.sightings().values().stream().filter(seen -> seen.silentAt(at)).count();
        return new StatusSnapshot(state.nodes().size(), silent, state.modules().size(),
                state.mesh().assignments().size(), state.plan().summary(), "ok", at);
    }

    /** @return these counts, with the store unavailable for {@code why} since {@code at} */
    StatusSnapshot unavailable(String why, Instant at) {
        return new StatusSnapshot(nodes, silent, modules, assignments, plan, "unavailable: " + why, at);
    }

    /**
     * @param life this controller's place in the life cycle, as of now
     * @param taking the last time this controller took the plan lock; empty for never, and then no
     *     {@code handover}
     * @param calls the verbs' calls counted so far; empty for none counted, and then no {@code verbs}
     * @param wire what the transports counted when last read; empty for none, and then no {@code bus}
     * @return the {@code status} answer
     */
    Map<String, Object> answer(Lifecycle.Status life, Optional<Lifecycle.Taking> taking,
            Optional<VerbCalls.Tally> calls, Map<String, Object> wire) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("role", life.role().label());
        status.put("epoch", life.epoch());
        status.put("since", life.since().toString());
        status.put("instance", life.instance());
        status.put("previous", life.previous());
        status.put("active", life.active());
        status.put("store", store);
        status.put("nodes", nodes);
        status.put("silent", silent);
        status.put("modules", modules);
        status.put("assignments", assignments);
        status.put("plan", new TreeMap<>(plan));
        status.put("asOf", asOf.toString());
        taking.ifPresent(took -> status.put("handover", handover(took)));
        calls.ifPresent(tally -> {
            Map<String, Object> verbs = new LinkedHashMap<>();
            verbs.put("calls", tally.calls());
            verbs.put("failed", tally.failed());
            status.put("verbs", verbs);
        });
        if (!wire.isEmpty()) {
            status.put("bus", wire);
        }
        return status;
    }

    /** @return how this controller last took the lock: {@code how}, {@code from}, {@code at}, {@code gapMs}, {@code lockWaitMs} */
    private static Map<String, Object> handover(Lifecycle.Taking taking) {
        Tenure tenure = taking.tenure();
        Map<String, Object> handover = new LinkedHashMap<>();
        handover.put("how", tenure.takeover().label());
        handover.put("from", tenure.previous());
        handover.put("at", tenure.since().toString());
        handover.put("gapMs", tenure.gap().map(Duration::toMillis).orElse(null));
        handover.put("lockWaitMs", taking.waited().toMillis());
        return handover;
    }
}
