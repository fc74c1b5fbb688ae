package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Plan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The order of one node's changes once {@link Requirements} added what they wait for: a change
 * whose requirements now include the start of a seat's holder on the same node must come after it.
 */
final class ChangeOrder {

    private ChangeOrder() {
    }

    /**
     * Keeps the step order, except that a change moves after the changes of its own node that it
     * requires (a process that needs a seat held on its own node starts after the holder's). A
     * cycle keeps the step order for what remains of it. Kahn's algorithm, always taking the
     * earliest ready change, so the step order holds where it can.
     */
    static List<Plan.Change> topological(List<Plan.Change> changes) {
        if (inOrder(changes)) {
            return changes;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < changes.size(); i++) {
            index.put(changes.get(i).id(), i);
        }
        int[] waiting = new int[changes.size()];
        List<List<Integer>> dependents = new ArrayList<>(changes.size());
        changes.forEach(change -> dependents.add(new ArrayList<>()));
        for (int i = 0; i < changes.size(); i++) {
            for (String required : changes.get(i).requires()) {
                Integer before = index.get(withoutHealthy(required));
                if (before != null) {
                    waiting[i]++;
                    dependents.get(before).add(i);
                }
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < changes.size(); i++) {
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<Plan.Change> ordered = new ArrayList<>(changes.size());
        boolean[] placed = new boolean[changes.size()];
        while (ordered.size() < changes.size()) {
            int next = ready.isEmpty() ? firstUnplaced(placed) : ready.poll();
            if (placed[next]) {
                continue;
            }
            placed[next] = true;
            ordered.add(changes.get(next));
            for (int dependent : dependents.get(next)) {
                if (--waiting[dependent] == 0) {
                    ready.add(dependent);
                }
            }
        }
        return ordered;
    }

    /**
     * Whether every change comes after the changes of its node it requires, as it usually does: then
     * Kahn's algorithm, taking the earliest ready change, would give the same order back.
     */
    private static boolean inOrder(List<Plan.Change> changes) {
        String node = changes.getFirst().node() + "/";
        Set<String> placed = new HashSet<>(2 * changes.size());
        for (Plan.Change change : changes) {
            for (String required : change.requires()) {
                if (required.startsWith(node) && !placed.contains(withoutHealthy(required))) {
                    return false;
                }
            }
            placed.add(change.id());
        }
        return true;
    }

    private static String withoutHealthy(String required) {
        return required.endsWith("#healthy") ? required.substring(0, required.length() - "#healthy".length())
                : required;
    }

    /** In a cycle nothing is ready: take the earliest change left. */
    private static int firstUnplaced(boolean[] placed) {
        for (int i = 0; i < placed.length; i++) {
            if (!placed[i]) {
                return i;
            }
        }
        throw new IllegalStateException("every change is placed");
    }
}
