package dev.mesh.controller.core.execute;

import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Builders;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import dev.mesh.controller.core.plan.Planning;
import dev.mesh.controller.manifest.Artifact;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.MeshException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Carries out the plan, one round at a time (docs/design.md sections 6 and 8): delivers each node whose
 * {@link Rollout#due() rollout is due} its new declaration, sends the builds the plan needs, and
 * records both in the inventory with the epoch they carried — so a successor reads what was sent and
 * neither skips nor repeats it. It also records what hosts and builders report.
 *
 * <p>A round is plan work: the caller runs it only while it holds the plan lock, with that lock's
 * epoch ({@link Executor} does). Per node, the inventory records the declaration as desired (a fenced
 * write: a controller that lost its lock stops there), then the transport sends it, then the
 * inventory records the delivery. A crash between the send and the record makes the successor send
 * it again; a host applies a revision once, so a second copy changes nothing.
 *
 * <p>A node that was silent and is heard from again still on an older revision than the one delivered
 * is sent it again (its host may have lost it). Silence is what this controller saw in its earlier
 * rounds: a successor sends again only to nodes it saw come back.
 *
 * <p>Thread-safe: rounds hold the instance's monitor; {@link #record} does not wait for a round.
 */
public final class Execution {

    /**
     * What an execution works with: every part given.
     *
     * @param inventory the record of the mesh, where deliveries and reports are recorded
     * @param deliveries where declarations are sent
     * @param builders where builds are sent
     * @param events where what happened is told
     * @param layout the directory roots of the mesh, for composing it
     * @param clock when a delivery happened, and whether a node is silent
     */
    public record Ports(Inventory inventory, Deliveries deliveries, Builders builders, Events events, Layout layout,
            Clock clock) {

        /** Checks that every part is given. */
        public Ports {
            Objects.requireNonNull(inventory, "inventory");
            Objects.requireNonNull(deliveries, "deliveries");
            Objects.requireNonNull(builders, "builders");
            Objects.requireNonNull(events, "events");
            Objects.requireNonNull(layout, "layout");
            Objects.requireNonNull(clock, "clock");
        }
    }

    /**
     * What one round did.
     *
     * @param delivered the deliveries made, in node order
     * @param sent the ids of the builds sent
     * @param waiting the nodes whose delivery waits, with what each waits for
     * @param failed the nodes and builds the transport could not send (or, for a node, prepare), with why:
     *     tried again next round
     */
    public record Round(List<Delivery> delivered, List<String> sent, Map<String, List<String>> waiting,
            Map<String, String> failed) {

        /** Copies the parts. */
        public Round {
            delivered = List.copyOf(delivered);
            sent = List.copyOf(sent);
            waiting = Map.copyOf(waiting);
            failed = Map.copyOf(failed);
        }

        /** @return whether the round sent nothing and nothing failed */
        public boolean idle() {
            return delivered.isEmpty() && sent.isEmpty() && failed.isEmpty();
        }
    }

    private final Ports ports;
    private final Inventory inventory;
    private final IncrementalPlanner planner = new IncrementalPlanner();
    /** Nodes whose transport this execution readied, or delivered to. */
    private final Set<String> prepared = new HashSet<>();
    /** Nodes sent their target revision and not applying it yet, at the end of the last round. */
    private Set<String> awaiting = Set.of();
    /**
     * Those of {@link #awaiting} silent (or never heard from) at the end of the last round: to send
     * their declaration again when they are heard from.
     */
    private Set<String> silent = Set.of();
    private boolean first = true;

    private Execution(Ports ports) {
        this.ports = ports;
        this.inventory = ports.inventory();
    }

    /**
     * @param ports what it works with
     * @return an execution that has run no round yet
     */
    public static Execution of(Ports ports) {
        return new Execution(Objects.requireNonNull(ports, "ports"));
    }

    /**
     * Runs one round: composes and plans the mesh as the inventory has it, delivers what is due,
     * {@linkplain Deliveries#prepare prepares} every node never delivered to that this execution has
     * not prepared yet, sends the builds needed and not sent.
     *
     * @param epoch the epoch of the plan lock the caller holds
     * @return what it did
     * @throws IllegalArgumentException when the epoch is below 1
     * @throws VerbException {@code unavailable} when the inventory is fenced (the lock was lost) or
     *     does not answer: nothing more is sent this round
     */
    public synchronized Round run(long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("a round runs under the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
        Mesh mesh = new Mesh(inventory.nodes(), inventory.modules(), inventory.assignments(), ports.layout());
        Map<String, Declaration> acknowledged = inventory.acknowledged();
        Map<String, Built> built = inventory.built();
        Planning planning = planner.plan(mesh, acknowledged, built);
        Instant now = ports.clock().instant();
        Map<String, Declaration> declarations = planning.composition().declarations().stream()
                .collect(Collectors.toMap(Declaration::node, Function.identity()));
        Map<String, Delivery> deliveriesMade = inventory.deliveries();
        Map<String, Rollout> rollouts = Rollout.of(declarations.keySet(), new Rollout.Inputs(planning.plan(),
                declarations, acknowledged, deliveriesMade, Map.of(), built, inventory::facts, now));
        Map<String, Sighting> sightings = inventory.sightings();

        List<Delivery> delivered = new ArrayList<>();
        Map<String, List<String>> waiting = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (Rollout rollout : rollouts.values()) {
            Sighting sighting = sightings.get(rollout.node());
            boolean back = !first && silent.contains(rollout.node()) && sighting != null && !sighting.silentAt(now)
                    && !sighting.revision().equals(rollout.target());
            if (!rollout.waitingFor().isEmpty() && !rollout.target().equals(rollout.lastSent())) {
                waiting.put(rollout.node(), rollout.waitingFor());
            }
            if (rollout.due()) {
                deliver(declarations.get(rollout.node()), epoch, false, delivered, failed);
            } else if (back && rollout.target().equals(rollout.lastSent()) && !rollout.done()) {
                deliver(declarations.get(rollout.node()), epoch, true, delivered, failed);
            }
        }
        // Sent and not applied yet: a node to watch, and, silent, to send it again when it is heard from.
        Set<String> sentNow = delivered.stream().map(Delivery::node).collect(Collectors.toSet());
        awaiting = rollouts.values().stream().filter(rollout -> !rollout.target().isEmpty() && !rollout.done()
                && (rollout.target().equals(rollout.lastSent()) || sentNow.contains(rollout.node())))
                .map(Rollout::node).collect(Collectors.toUnmodifiableSet());
        silent = awaiting.stream().filter(node -> {
            Sighting sighting = sightings.get(node);
            return sighting == null || sighting.silentAt(now);
        }).collect(Collectors.toUnmodifiableSet());
        first = false;
        delivered.forEach(delivery -> prepared.add(delivery.node()));
        prepare(mesh, deliveriesMade.keySet(), failed);
        List<String> sent = sendBuilds(planning.plan(), mesh, epoch, failed);
        return new Round(delivered, sent, waiting, failed);
    }

    /**
     * @return whether the last round left nodes that were sent their revision and do not run it yet:
     *     facts alone may then make a round send something (such a node falls silent, then is heard
     *     from again without it), so the rounds must go on seeing them
     */
    public synchronized boolean watching() {
        return !awaiting.isEmpty();
    }

    /**
     * Records what a host or a builder reported: {@code applied} acknowledges the revision (a revision
     * the node is not desired to run acknowledges nothing), {@code failed} makes it the node's standing
     * failure, a build report finishes the build. Tells the mesh ({@code node} and {@code build} events).
     *
     * @param report what was reported
     * @return whether the inventory changed ({@code false} for an {@code applied} of a revision not desired)
     * @throws VerbException {@code unavailable} when the inventory does not answer
     */
    public boolean record(Report report) {
        Objects.requireNonNull(report, "report");
        return switch (report) {
            case Report.Applied applied -> {
                boolean acknowledged = inventory.acknowledge(applied.node(), applied.revision());
                ports.events().publish("node", Map.of("node", applied.node(), "revision", applied.revision(),
                        "state", acknowledged ? "applied" : "applied-not-desired"));
                yield acknowledged;
            }
            case Report.Failed failure -> {
                inventory.failed(failure);
                ports.events().publish("node", Map.of("node", failure.node(), "revision", failure.revision(),
                        "state", "failed", "steps", failure.failedSteps().stream().map(Report.Step::id).toList()));
                yield true;
            }
            case Report.Build reported -> {
                Report.Build build = reported.usable();
                inventory.finish(build);
                Map<String, Object> event = new LinkedHashMap<>(Map.of("build", build.build(), "state",
                        build.succeeded() ? "succeeded" : "failed", "detail", build.detail()));
                build.artifact().ifPresent(made -> {
                    event.put("sha256", made.sha256());
                    event.put("location", made.location());
                });
                ports.events().publish("build", event);
                yield true;
            }
        };
    }

    /**
     * Readies the transport for every node of the mesh that was never delivered to and that this
     * execution has not readied yet (docs/design.md section 8: a host's queue exists as soon as the
     * controller knows the node), in name order; a failure is kept in {@code failed} and tried again
     * next round.
     */
    private void prepare(Mesh mesh, Set<String> everDelivered, Map<String, String> failed) {
        for (String node : mesh.nodes().stream().map(Node::name).sorted().toList()) {
            if (prepared.contains(node) || everDelivered.contains(node)) {
                continue;
            }
            try {
                ports.deliveries().prepare(node);
                prepared.add(node);
            } catch (MeshException e) {
                failed.put(node, e.getMessage());
            }
        }
    }

    /**
     * Desires, sends and records one declaration; a transport failure is kept in {@code failed}. A
     * declaration one of whose processes runs an artifact that is not built is never sent: a host
     * runs only an archive whose digest its declaration pins.
     */
    private void deliver(Declaration declaration, long epoch, boolean again, List<Delivery> delivered,
            Map<String, String> failed) {
        for (Declaration.Process process : declaration.processes()) {
            if (!process.artifact().pinned()) {
                failed.put(declaration.node(), "process " + process.name() + " runs "
                        + BuildOrder.id(process.artifact().module(), process.artifact().version(),
                        process.artifact().name()) + ", which has no successful build yet; it is delivered once "
                        + "the build succeeds");
                return;
            }
        }
        inventory.desire(declaration);
        try {
            ports.deliveries().deliver(declaration, epoch);
        } catch (MeshException e) {
            failed.put(declaration.node(), e.getMessage());
            return;
        }
        Delivery delivery = new Delivery(declaration.node(), declaration.revision(), epoch, ports.clock().instant());
        inventory.delivered(delivery);
        ports.events().publish("delivery", Map.of("node", delivery.node(), "revision", delivery.revision(),
                "again", again));
        delivered.add(delivery);
    }

    /**
     * Requests every build the plan needs that is neither requested nor failed, then sends every
     * requested build not sent yet, recording each as sent.
     */
    private List<String> sendBuilds(Plan plan, Mesh mesh, long epoch, Map<String, String> failed) {
        Set<String> requested = inventory.requested();
        Set<String> failedBuilds = plan.builds().isEmpty() ? Set.of() : inventory.failedBuilds();
        for (Plan.Build build : plan.builds()) {
            if (!requested.contains(build.id()) && !failedBuilds.contains(build.id())) {
                inventory.request(build.id());
            }
        }
        Set<String> unsent = new HashSet<>(inventory.unsentBuilds());
        List<String> sent = new ArrayList<>();
        Map<String, Manifest> modules = mesh.modulesByName();
        for (String id : unsent.stream().sorted().toList()) {
            Optional<BuildOrder> order = order(id, modules);
            if (order.isEmpty()) {
                failed.put(id, "the module version of " + id + " is no longer the latest pushed; push it again or "
                        + "request the build of the latest");
                continue;
            }
            try {
                ports.builders().request(order.get(), epoch);
            } catch (MeshException e) {
                failed.put(id, e.getMessage());
                continue;
            }
            inventory.sent(id, epoch);
            ports.events().publish("build", Map.of("build", id, "state", "sent"));
            sent.add(id);
        }
        return sent;
    }

    private static Optional<BuildOrder> order(String id, Map<String, Manifest> modules) {
        for (Manifest manifest : modules.values()) {
            for (Artifact artifact : manifest.artifacts()) {
                if (BuildOrder.id(manifest.module(), manifest.version(), artifact.name()).equals(id)) {
                    return Optional.of(BuildOrder.of(manifest, artifact));
                }
            }
        }
        return Optional.empty();
    }
}
