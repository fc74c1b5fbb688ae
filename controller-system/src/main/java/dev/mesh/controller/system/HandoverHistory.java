package dev.mesh.controller.system;

import dev.mesh.controller.system.VerbLoad.Call;
import dev.mesh.controller.system.VerbLoad.Event;
import dev.mesh.controller.system.VerbLoad.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one run of the handover driver saw, judged: every request and reply, every event, every fault
 * injected. Pure arithmetic on the recorded history, so that what it counts can be checked offline.
 *
 * <ul>
 *   <li><b>lost</b>: a request with no reply at all, its retry included (with publisher confirms, the cluster
 *       driver's: a request the broker confirmed, with no reply to any of its sends);</li>
 *   <li><b>never taken</b>: with confirms, a request no send of which the broker confirmed and no reply came to
 *       (the broker refused it: its majority gone); 0 without;</li>
 *   <li><b>client errors</b>: a reply that is a JSON-RPC error or a tool error ({@code isError});</li>
 *   <li><b>duplicated effects</b>: a {@code push} of a version of its own answered {@code changed: false} —
 *       only a second run of the same request can say so;</li>
 *   <li><b>gap</b>: the longest time during which some request was outstanding and no reply arrived;
 *       the <b>floor</b> is the same over the steady phase with no fault, in the same run;</li>
 *   <li><b>overlapping epochs</b>: an epoch that two instances ran a mutation or published an event under,
 *       and a mutation answered under an epoch older than one a mutation was answered under before;</li>
 *   <li><b>stale events</b>: an event published under an epoch older than one heard before it; but a
 *   {@code failover} (a connection of one controller moved to another member of its cluster), which any role
 *   publishes about itself and claims nothing of the plan: a controller thawed after SIGSTOP tells its broker
 *   connection's recovery under the epoch it still believes its own, a standby under the epoch it last read
 *   (docs/design.md section 8); nor does a {@code failover} count as acting under an epoch.</li>
 * </ul>
 */
final class HandoverHistory {

    /** The event that says a controller's connection moved; see {@code stale events} above. */
    private static final String FAILOVER = "failover";

    /** A fault the driver injected: what, when, to whom. */
    record Injection(String what, long nanos, String victim) {
    }

    /** How one injection went: the longest gap from it to the next, and when replies came back. */
    record Recovery(Injection injection, double gapMs, double answeredAgainMs) {
    }

    /** The verdict. */
    record Verdict(int sent, int answered, int lost, int retried, Map<String, Integer> clientErrors,
            int duplicatedEffects, int mutationsOutOfOrder, int assignmentsUnchanged,
            List<String> overlappingEpochs, int staleEvents, double floorMs, double longestGapMs,
            double steadyP99Ms, List<Recovery> recoveries, int neverTaken) {

        int clientErrorCount() {
            return clientErrors.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** @return the recoveries from the faults, the replacement standbys' starts left out */
        List<Recovery> faults() {
            return recoveries.stream().filter(r -> !r.injection().what().equals(HandoverDriver.STARTED)).toList();
        }

        /** @return the faults' longest gap, 0 with none */
        double worstGapMs() {
            return faults().stream().mapToDouble(Recovery::gapMs).max().orElse(0);
        }

        /** @return the longest gap after a replacement standby's start, 0 with none */
        double worstStartGapMs() {
            return recoveries.stream().filter(r -> r.injection().what().equals(HandoverDriver.STARTED))
                    .mapToDouble(Recovery::gapMs).max().orElse(0);
        }

        /** @return the faults' latest answered-again time, 0 with none */
        double worstAnsweredAgainMs() {
            return faults().stream().mapToDouble(Recovery::answeredAgainMs).max().orElse(0);
        }

        /** @return the median of the faults' gaps */
        double medianGapMs() {
            double[] gaps = faults().stream().mapToDouble(Recovery::gapMs).sorted().toArray();
            return gaps.length == 0 ? 0 : gaps[(gaps.length - 1) / 2];
        }
    }

    private HandoverHistory() {
    }

    /**
     * @param calls every request, in the order sent
     * @param events every event heard, in the order heard
     * @param instances the run's controllers' instances: events from any other are not the run's
     * @param injections the faults, in order
     * @param steadyFrom start of the steady phase (no fault), {@link System#nanoTime()}
     * @param steadyTo its end
     * @param end when the record ends (no reply awaited after it)
     */
    static Verdict judge(List<Call> calls, List<Event> events, Set<String> instances, List<Injection> injections,
            long steadyFrom, long steadyTo, long end) {
        int answered = 0;
        int lost = 0;
        int neverTaken = 0;
        int retried = 0;
        int duplicated = 0;
        int unchanged = 0;
        Map<String, Integer> errors = new TreeMap<>();
        Map<Long, Set<String>> instancesByEpoch = new TreeMap<>();
        List<Call> mutations = new ArrayList<>();
        List<Long> steady = new ArrayList<>();
        for (Call call : calls) {
            if (call.retriedNanos != 0) {
                retried++;
            }
            if (!call.answered()) {
                if (call.acknowledged) {
                    lost++;
                } else {
                    neverTaken++;
                }
                continue;
            }
            answered++;
            if (call.error) {
                errors.merge(call.kind.name().toLowerCase(java.util.Locale.ROOT) + " " + call.errorCode, 1,
                        Integer::sum);
            } else if (call.kind == Kind.PUSH && Boolean.FALSE.equals(call.changed)) {
                duplicated++;
            } else if ((call.kind == Kind.ASSIGN || call.kind == Kind.UNASSIGN) && Boolean.FALSE.equals(call.changed)) {
                unchanged++;
            }
            if (call.mutates() && !call.error) {
                // Only the active controller runs a mutation; a standby answers reads with the epoch it saw.
                mutations.add(call);
                instancesByEpoch.computeIfAbsent(call.epoch, e -> new TreeSet<>()).add("mutation answered by "
                        + call.instance);
            }
            if (call.sentNanos >= steadyFrom && call.repliedNanos <= steadyTo) {
                steady.add(call.repliedNanos - call.sentNanos);
            }
        }
        mutations.sort(Comparator.comparingLong(c -> c.repliedNanos));
        int outOfOrder = 0;
        long highest = -1;
        for (Call mutation : mutations) {
            if (mutation.epoch < highest) {
                outOfOrder++;
            }
            highest = Math.max(highest, mutation.epoch);
        }
        int staleEvents = 0;
        long heardHighest = -1;
        for (Event event : events) {
            if (!instances.contains(event.instance())) {
                continue; // another mesh's controller on the same NATS (events carry no mesh name)
            }
            if (FAILOVER.equals(event.kind())) {
                continue; // about one controller's connection, under the epoch it knows: no claim on the plan
            }
            if (event.epoch() < heardHighest) {
                staleEvents++;
            }
            heardHighest = Math.max(heardHighest, event.epoch());
            if (event.epoch() > 0) {
                instancesByEpoch.computeIfAbsent(event.epoch(), e -> new TreeSet<>()).add("event from "
                        + event.instance());
            }
        }
        List<String> overlapping = new ArrayList<>();
        instancesByEpoch.forEach((epoch, who) -> {
            long distinct = who.stream().map(w -> w.substring(w.lastIndexOf(' ') + 1)).distinct().count();
            if (distinct > 1) {
                overlapping.add("epoch " + epoch + ": " + who);
            }
        });
        Gaps gaps = Gaps.of(calls, end);
        List<Recovery> recoveries = new ArrayList<>();
        for (int i = 0; i < injections.size(); i++) {
            Injection injection = injections.get(i);
            long to = i + 1 < injections.size() ? injections.get(i + 1).nanos() : end;
            long firstAgain = calls.stream().filter(c -> c.sentNanos >= injection.nanos() && c.answered())
                    .mapToLong(c -> c.repliedNanos).min().orElse(end);
            recoveries.add(new Recovery(injection, gaps.longestWithin(injection.nanos(), to) / 1e6,
                    (firstAgain - injection.nanos()) / 1e6));
        }
        return new Verdict(calls.size(), answered, lost, retried, errors, duplicated, outOfOrder,
                unchanged, overlapping, staleEvents, gaps.longestWithin(steadyFrom,
                steadyTo) / 1e6, gaps.longestWithin(Long.MIN_VALUE, Long.MAX_VALUE) / 1e6,
                Loopback.Latencies.of(steady).quantileMs(0.99), recoveries, neverTaken);
    }

    /**
     * The intervals with some request outstanding and no reply: each ends at a reply (or at the end of the
     * record) and starts at the reply before it or when a request was sent with none outstanding, whichever
     * is later.
     */
    record Gaps(long[] from, long[] to) {

        static Gaps of(List<Call> calls, long end) {
            // One entry per send (+1) and per first reply (-1), in time order; a send sorts before a reply at the
            // same instant.
            long[][] timeline = new long[calls.size() * 2][];
            int n = 0;
            for (Call call : calls) {
                timeline[n++] = new long[] {call.sentNanos, 1};
                if (call.answered()) {
                    timeline[n++] = new long[] {call.repliedNanos, -1};
                }
            }
            long[][] sorted = Arrays.copyOf(timeline, n);
            Arrays.sort(sorted, Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> -e[1]));
            List<long[]> intervals = new ArrayList<>();
            int outstanding = 0;
            long since = 0;
            for (long[] entry : sorted) {
                if (entry[1] > 0) {
                    if (outstanding++ == 0) {
                        since = entry[0];
                    }
                } else {
                    intervals.add(new long[] {since, entry[0]});
                    outstanding--;
                    since = entry[0];
                }
            }
            if (outstanding > 0) {
                intervals.add(new long[] {since, Math.max(since, end)});
            }
            return new Gaps(intervals.stream().mapToLong(i -> i[0]).toArray(),
                    intervals.stream().mapToLong(i -> i[1]).toArray());
        }

        /** @return the longest interval that overlaps {@code [start, stop)}, in ns; 0 when none does */
        long longestWithin(long start, long stop) {
            long longest = 0;
            for (int i = 0; i < from.length; i++) {
                if (to[i] > start && from[i] < stop) {
                    longest = Math.max(longest, to[i] - from[i]);
                }
            }
            return longest;
        }
    }
}
