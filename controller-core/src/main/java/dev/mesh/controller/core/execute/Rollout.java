package dev.mesh.controller.core.execute;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Report;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Where one node stands in carrying out the plan: the revision it is to run, the one it acknowledged,
 * the last one delivered, what its delivery waits for and the failure its host reported. A value;
 * {@link #of} computes it, for the {@link Execution} that delivers and for the verbs that show it.
 *
 * @param node the node
 * @param target the revision composed for it now ({@code ""} when its composition is blocked by problems)
 * @param acknowledged the revision it acknowledged applying, or {@code ""}
 * @param delivered the last delivery to it, if any
 * @param changes how many changes the plan has for it
 * @param waitingFor the requirements of its changes not met yet, each a change id of another node
 *     ({@code n1/process:mesh-store}, {@code …#healthy}) or a build id; empty when nothing holds it back
 * @param failure the failure its host reported and that stands, if any
 */
public record Rollout(String node, String target, String acknowledged, Optional<Delivery> delivered,
        int changes, List<String> waitingFor, Optional<Report.Failed> failure) {

    /** Checks and copies the parts. */
    public Rollout {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(acknowledged, "acknowledged");
        Objects.requireNonNull(delivered, "delivered");
        waitingFor = List.copyOf(waitingFor);
        Objects.requireNonNull(failure, "failure");
    }

    /**
     * @return whether the node's target revision is to be delivered: it differs from what was last
     *     delivered (or, never delivered, from what it acknowledged), nothing holds it back, and either
     *     the plan changes something on the node or it was sent a declaration before (a node that
     *     never ran anything is not sent an empty declaration)
     */
    public boolean due() {
        String sent = lastSent();
        return !target.isEmpty() && waitingFor.isEmpty() && !target.equals(sent) && (changes > 0 || !sent.isEmpty());
    }

    /** @return whether the node runs its target revision: acknowledged it */
    public boolean done() {
        return !target.isEmpty() && target.equals(acknowledged);
    }

    /** @return the revision last sent, or, when none was, the one acknowledged */
    String lastSent() {
        return delivered.map(Delivery::revision).orElse(acknowledged);
    }

    /** @return the JSON-able form the verbs answer: {@code target}, {@code acknowledged}, {@code delivered}, … */
    public Map<String, Object> toMap() {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("target", target);
        answer.put("acknowledged", acknowledged);
        answer.put("delivered", delivered.map(d -> {
            Map<String, Object> delivery = new LinkedHashMap<>();
            delivery.put("revision", d.revision());
            delivery.put("epoch", d.epoch());
            delivery.put("at", d.at().toString());
            return delivery;
        }).orElse(null));
        answer.put("changes", changes);
        answer.put("waitingFor", waitingFor);
        answer.put("failed", failure.map(f -> {
            Map<String, Object> failed = new LinkedHashMap<>();
            failed.put("revision", f.revision());
            failed.put("at", f.at().toString());
            failed.put("steps", f.failedSteps().stream().map(step -> Map.of("id", step.id(), "detail",
                    step.detail())).toList());
            return failed;
        }).orElse(null));
        return answer;
    }

    /**
     * What the inventory says, for computing every node's rollout at once.
     *
     * @param plan the plan from what the nodes acknowledged to what is composed now
     * @param declarations the composed declarations, by node name
     * @param acknowledged each node's acknowledged declaration, by node name
     * @param deliveries each node's last delivery, by node name
     * @param failures each node's standing failure, by node name
     * @param built the builds done, by id
     * @param facts a node's latest facts, asked only for the nodes other nodes' changes wait for
     * @param now what silence is judged against
     */
    public record Inputs(Plan plan, Map<String, Declaration> declarations, Map<String, Declaration> acknowledged,
            Map<String, Delivery> deliveries, Map<String, Report.Failed> failures, Map<String, Built> built,
            Function<String, Optional<Facts>> facts, Instant now) {

        /** Checks the parts. */
        public Inputs {
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(declarations, "declarations");
            Objects.requireNonNull(acknowledged, "acknowledged");
            Objects.requireNonNull(deliveries, "deliveries");
            Objects.requireNonNull(failures, "failures");
            Objects.requireNonNull(built, "built");
            Objects.requireNonNull(facts, "facts");
            Objects.requireNonNull(now, "now");
        }
    }

    /**
     * Every node's rollout: each node of {@code nodes}, with what its changes wait for beyond itself. A
     * change's requirement on another node's process ({@code n1/process:NAME}) is met when that node's
     * latest facts, not silent, show the process {@code running} ({@code …#healthy}: and passing
     * {@value ProcessState#HEALTHY_CHECKS} checks or more); on another change of another node, when that
     * change is no longer in the plan (the node acknowledged it); on a build, when it is done. A node's
     * own requirements are its host's to order.
     *
     * @param nodes the nodes' names
     * @param inputs what the inventory says
     * @return the rollouts, by node name, in name order
     */
    public static Map<String, Rollout> of(Iterable<String> nodes, Inputs inputs) {
        Map<String, List<Plan.Change>> changes = new TreeMap<>();
        Set<String> planned = new HashSet<>();
        for (Plan.Change change : inputs.plan().changes()) {
            changes.computeIfAbsent(change.node(), n -> new ArrayList<>()).add(change);
            planned.add(change.id());
        }
        Map<String, Optional<Facts>> facts = new TreeMap<>();
        Map<String, Rollout> rollouts = new TreeMap<>();
        for (String node : nodes) {
            Declaration declaration = inputs.declarations().get(node);
            Declaration acknowledged = inputs.acknowledged().get(node);
            List<String> waiting = new ArrayList<>();
            List<Plan.Change> own = changes.getOrDefault(node, List.of());
            for (Plan.Change change : own) {
                for (String required : change.requires()) {
                    if (!waiting.contains(required) && !met(required, node, planned, inputs, facts)) {
                        waiting.add(required);
                    }
                }
            }
            rollouts.put(node, new Rollout(node, declaration == null ? "" : declaration.revision(),
                    acknowledged == null ? "" : acknowledged.revision(),
                    Optional.ofNullable(inputs.deliveries().get(node)), own.size(), waiting,
                    standing(inputs.failures().get(node), declaration)));
        }
        return rollouts;
    }

    /**
     * A host's failure stands while the node is still to run the revision that failed; once its
     * declaration changed again (the version before pushed back, a fix), the failure is history.
     */
    private static Optional<Report.Failed> standing(Report.Failed failure, Declaration declaration) {
        return failure == null || declaration == null || !failure.revision().equals(declaration.revision())
                ? Optional.empty() : Optional.of(failure);
    }

    private static boolean met(String required, String node, Set<String> planned, Inputs inputs,
            Map<String, Optional<Facts>> facts) {
        if (required.startsWith("build:")) {
            return inputs.built().containsKey(required);
        }
        int slash = required.indexOf('/');
        String other = slash < 0 ? node : required.substring(0, slash);
        if (other.equals(node)) {
            return true;
        }
        String change = required.substring(slash + 1);
        boolean healthy = change.endsWith("#healthy");
        if (healthy) {
            change = change.substring(0, change.length() - "#healthy".length());
        }
        if (!change.startsWith("process:")) {
            return !planned.contains(other + "/" + change);
        }
        String process = change.substring("process:".length());
        Optional<Facts> seen = facts.computeIfAbsent(other, inputs.facts());
        return seen.filter(f -> !f.silentAt(inputs.now())).stream().flatMap(f -> f.processes().stream())
                .anyMatch(p -> p.name().equals(process) && p.state() == ProcessState.State.RUNNING
                        && (!healthy || p.healthy()));
    }
}
