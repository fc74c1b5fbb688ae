package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of one node, from its last acknowledged declaration (possibly none) to its new one,
 * in the order of docs/design.md section 6, each requiring what must be in place before it on the same
 * node — always changes of an earlier step, so every change comes after what it requires.
 * Requirements across nodes and on builds are added by {@link Requirements}.
 *
 * @param node the node, empty for {@link #NONE}
 * @param changes the changes, in step order
 * @param orphans directories the node had and no longer declares
 * @param runs the changes that start, restart or prepare a declared process, with that process, in
 *     the order of {@code changes}: what {@link Requirements} links to builds and seat holders
 * @param counts how many changes begin with each of {@link Plan#ACTIONS}, in that order:
 *     counted here, while the changes are at hand, so that a plan's summary need not visit each
 *     change again; never modified
 */
public record NodeChanges(String node, List<Plan.Change> changes, List<Plan.Orphan> orphans, List<Run> runs,
        int[] counts) {

    /** The actions a change can begin with, in the order of {@link #counts}. */
    public static final List<String> ACTIONS = Plan.ACTIONS;

    /** Nothing to change. */
    public static final NodeChanges NONE = new NodeChanges("", List.of(), List.of(), List.of(), new int[ACTIONS.size()]);

    public NodeChanges {
        changes = List.copyOf(changes);
        orphans = List.copyOf(orphans);
        runs = List.copyOf(runs);
    }

    /** Adds {@link #counts} to {@code into}. */
    public void count(int[] into) {
        for (int i = 0; i < counts.length; i++) {
            into[i] += counts[i];
        }
    }

    /**
     * A change that runs a declared process.
     *
     * @param at the change's place in {@code changes}
     * @param change the change
     * @param process the process as the new declaration declares it
     * @param starts whether the change starts or restarts it; else it prepares it
     */
    record Run(int at, Plan.Change change, Declaration.Process process, boolean starts) {
    }

    /**
     * The reasons of new directories and processes, made once per module and shared by the nodes of
     * a plan (or by the plans of an {@link IncrementalPlanner}). Why: in the 10,000-node benchmark
     * mesh they are the reasons of two changes in three, and a plan keeps every one of them.
     *
     * <p>Not thread-safe.
     */
    public static final class Reasons {
        private final Map<String, String> newDirectory = new HashMap<>();
        private final Map<String, String> newProcess = new HashMap<>();

        String newDirectory(String module) {
            return newDirectory.computeIfAbsent(module, m -> "new directory of module " + m);
        }

        String newProcess(String module) {
            return newProcess.computeIfAbsent(module, m -> "new process of module " + m);
        }
    }

    /** {@link #of(Declaration, Declaration, Reasons)} with reasons of its own. */
    public static NodeChanges of(Declaration before, Declaration after) {
        return of(before, after, new Reasons());
    }

    /**
     * The changes of a node, sorted by step, then id. Equal declarations have none: every step
     * below compares the two sides and finds nothing, so the comparison is skipped.
     *
     * @param reasons where the reasons shared between nodes are kept
     */
    public static NodeChanges of(Declaration before, Declaration after, Reasons reasons) {
        if (after.equals(before)) {
            return NONE;
        }
        return NodeDiff.of(before, after, reasons);
    }

    /** The id of a step: {@code NODE/KIND:NAME}. */
    static String id(String node, String kind, String name) {
        return node + "/" + kind + ":" + name;
    }
}
