package dev.mesh.controller.core.plan;

import dev.mesh.controller.core.Plan;
import java.util.Map;

/**
 * The text form of a {@link Plan}, for people, like {@code terraform plan}: per node, {@code +}
 * create, {@code ~} change in place, {@code ↻} restart, {@code -} remove, each with its one-line
 * reason; then the builds, the orphaned directories and a summary. Derived from the plan, never the
 * reverse.
 */
public final class PlanText {

    private PlanText() {
    }

    /**
     * @param plan a plan
     * @return its text, ending with a newline
     */
    public static String of(Plan plan) {
        if (plan.isEmpty() && plan.orphans().isEmpty()) {
            return "No changes. Every node runs its declaration.\n";
        }
        StringBuilder text = new StringBuilder();
        String node = null;
        for (Plan.Change change : plan.changes()) {
            if (!change.node().equals(node)) {
                node = change.node();
                text.append(text.isEmpty() ? "" : "\n").append("node ").append(node).append('\n');
            }
            text.append("  ").append(symbol(change.actions().getFirst())).append(' ').append(change.id())
                    .append(change.actions().size() > 1 ? " (" + String.join(", ", change.actions().subList(1,
                            change.actions().size())) + ")" : "")
                    .append("\n      ").append(change.reason()).append('\n');
        }
        if (!plan.builds().isEmpty()) {
            text.append("\nbuilds\n");
            plan.builds().forEach(build -> text.append("  + ").append(build.id()).append("\n      for ")
                    .append(build.system()).append(", run on ").append(String.join(", ", build.nodes())).append('\n'));
        }
        if (!plan.orphans().isEmpty()) {
            text.append("\norphaned directories (no longer declared; left on disk)\n");
            plan.orphans().forEach(orphan -> text.append("  ! ").append(orphan.node()).append(' ')
                    .append(orphan.path()).append(" (module ").append(orphan.module()).append(")\n"));
        }
        return text.append('\n').append(summary(plan.summary())).append('\n').toString();
    }

    private static String summary(Map<String, Integer> counts) {
        int create = count(counts, "create") + count(counts, "start") + count(counts, "prepare");
        int change = count(counts, "update");
        int restart = count(counts, "restart");
        int remove = count(counts, "stop") + count(counts, "remove");
        return "Plan: " + create + " to create, " + change + " to change, " + restart + " to restart, " + remove
                + " to remove, " + count(counts, "build") + " to build.";
    }

    private static int count(Map<String, Integer> counts, String action) {
        return counts.getOrDefault(action, 0);
    }

    private static String symbol(String action) {
        return switch (action) {
            case "create", "start", "prepare" -> "+";
            case "update" -> "~";
            case "restart" -> "↻";
            case "stop", "remove" -> "-";
            default -> throw new IllegalArgumentException("unknown plan action " + action);
        };
    }

}
