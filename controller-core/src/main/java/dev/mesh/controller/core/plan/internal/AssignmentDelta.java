package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Assignment;
import java.util.ArrayList;
import java.util.List;

/**
 * How one list of assignments became another: the entries taken out and the entries put in, so
 * that {@code before} without {@code removed}, plus {@code added}, holds the same entries as
 * {@code after} (counting repeats).
 *
 * @param removed entries of {@code before} not matched in {@code after}
 * @param added entries of {@code after} not matched in {@code before}
 */
public record AssignmentDelta(List<Assignment> removed, List<Assignment> added) {

    public AssignmentDelta {
        removed = List.copyOf(removed);
        added = List.copyOf(added);
    }

    /**
     * Walks both lists in order, matching equal entries; an entry that does not match is taken as
     * removed or added when the next one on the other side matches, else as replaced. A controller
     * changes a few assignments at a time and keeps the others in their order, so this finds them
     * in one pass of reference comparisons, where hashing them all would cost an order of magnitude
     * more (docs/benchmarks.md). An unusual edit, such as a reordering, gives more entries than
     * needed — each taken out and put in again — which costs time, never correctness.
     */
    public static AssignmentDelta between(List<Assignment> before, List<Assignment> after) {
        List<Assignment> removed = new ArrayList<>();
        List<Assignment> added = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < before.size() && j < after.size()) {
            if (same(before.get(i), after.get(j))) {
                i++;
                j++;
            } else if (i + 1 < before.size() && same(before.get(i + 1), after.get(j))) {
                removed.add(before.get(i++));
            } else if (j + 1 < after.size() && same(before.get(i), after.get(j + 1))) {
                added.add(after.get(j++));
            } else {
                removed.add(before.get(i++));
                added.add(after.get(j++));
            }
        }
        removed.addAll(before.subList(i, before.size()));
        added.addAll(after.subList(j, after.size()));
        return new AssignmentDelta(removed, added);
    }

    /** Equal; the reference comparison first, as a controller passes mostly the same instances. */
    private static boolean same(Assignment one, Assignment other) {
        return one == other || one.equals(other);
    }
}
