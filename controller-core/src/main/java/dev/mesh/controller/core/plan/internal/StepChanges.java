package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Plan;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The changes of one step of a node's changes ({@link NodeChanges}), by the name their id ends
 * with: a change put again under its name replaces the first, and {@link #sort} puts them in name
 * order. Within a step every id has the same {@code NODE/KIND:} before the name, so name order is
 * id order.
 *
 * <p>Why not a sorted map: the changes mostly come in name order already (a declaration lists its
 * parts sorted), so a change whose name follows the last one's is appended after one comparison,
 * and names are found by binary search. Only once a name comes out of order are the names indexed
 * by place, and sorted at the end.
 *
 * <p>Not thread-safe.
 */
final class StepChanges {

    private String[] names;
    private Plan.Change[] changes;
    private int size;
    /** Name → place in {@link #names}, once a name came out of order; null while they are in order. */
    private Map<String, Integer> places;

    StepChanges() {
        names = new String[8];
        changes = new Plan.Change[names.length];
    }

    /** Adds the change under its name, or replaces the change of that name in its place. */
    void put(String name, Plan.Change change) {
        if (places == null && (size == 0 || names[size - 1].compareTo(name) < 0)) {
            append(name, change);
            return;
        }
        int at = placeOf(name);
        if (at >= 0) {
            changes[at] = change;
            return;
        }
        if (places == null) {
            places = new HashMap<>();
            for (int i = 0; i < size; i++) {
                places.put(names[i], i);
            }
        }
        places.put(name, size);
        append(name, change);
    }

    /** @return the change of that name, or null */
    Plan.Change get(String name) {
        int at = placeOf(name);
        return at < 0 ? null : changes[at];
    }

    int size() {
        return size;
    }

    /** Puts the changes in name order; after this, nothing more is put. */
    void sort() {
        if (places == null) {
            return;
        }
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> names[a].compareTo(names[b]));
        String[] sortedNames = new String[size];
        Plan.Change[] sortedChanges = new Plan.Change[size];
        for (int i = 0; i < size; i++) {
            sortedNames[i] = names[order[i]];
            sortedChanges[i] = changes[order[i]];
        }
        names = sortedNames;
        changes = sortedChanges;
        places = null;
    }

    /** @return the name of the change at {@code at} */
    String name(int at) {
        return names[at];
    }

    /** @return the change at {@code at} */
    Plan.Change change(int at) {
        return changes[at];
    }

    private void append(String name, Plan.Change change) {
        if (size == names.length) {
            names = Arrays.copyOf(names, 2 * size);
            changes = Arrays.copyOf(changes, 2 * size);
        }
        names[size] = name;
        changes[size] = change;
        size++;
    }

    private int placeOf(String name) {
        if (places != null) {
            Integer at = places.get(name);
            return at == null ? -1 : at;
        }
        return Math.max(-1, Arrays.binarySearch(names, 0, size, name));
    }
}
