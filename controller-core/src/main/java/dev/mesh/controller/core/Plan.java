package dev.mesh.controller.core;

import dev.mesh.controller.core.internal.collect.PlanInputs;
import dev.mesh.controller.manifest.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The ordered changes that take every node from what it last acknowledged to its new declaration,
 * and the builds those changes need (docs/design.md section 6). A versioned document: {@code format}
 * is 1, and {@code inputs} holds the digests of what it was computed from, so that a plan computed
 * against stale inputs can be refused, naming the input that changed.
 *
 * @param format the document version, {@value #FORMAT}
 * @param inputs digest of each input: {@code mesh}, and {@code acknowledged/NODE} per node
 * @param changes per node, in the order they are to be made
 * @param builds each (module, version, artifact) to build once, for its system
 * @param orphans directories no longer declared; reported, never deleted
 * @param summary counts of changes by action
 */
public record Plan(int format, Map<String, String> inputs, List<Change> changes, List<Build> builds,
        List<Orphan> orphans, Map<String, Integer> summary) {

    /** The current plan format. */
    public static final int FORMAT = 1;

    /** The actions a change can begin with, in the order summaries count them. */
    public static final List<String> ACTIONS = List.of("create", "update", "prepare", "start", "restart", "stop",
            "remove");

    /**
     * Checks and copies the parts; the inputs an {@code IncrementalPlanner} made are immutable
     * already, and shared between its plans rather than copied ({@link PlanInputs}).
     */
    public Plan {
        inputs = inputs instanceof PlanInputs ? inputs : Map.copyOf(inputs);
        changes = List.copyOf(changes);
        builds = List.copyOf(builds);
        orphans = List.copyOf(orphans);
        summary = Map.copyOf(summary);
    }

    /** @return {@code true} when nothing is to be changed or built */
    public boolean isEmpty() {
        return changes.isEmpty() && builds.isEmpty();
    }

    /**
     * One change on one node.
     *
     * @param id {@code NODE/KIND:NAME}, stable across plans
     * @param node the node
     * @param actions what to do: {@code create}, {@code update}, {@code prepare}, {@code start},
     *     {@code restart}, {@code stop}, {@code remove}; a start that replaces a container also says
     *     {@code overlap} or {@code gap}, and a restart of a process safe to run twice says
     *     {@code overlap} (the new one starts beside the old one)
     * @param reason which input changed and how, in one line
     * @param requires ids of changes or builds this one waits for; {@code …#healthy} for "has
     *     stayed up across two checks"
     */
    public record Change(String id, String node, List<String> actions, String reason, List<String> requires) {
        /** Checks and copies the parts. */
        public Change {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(node, "node");
            actions = List.copyOf(actions);
            Objects.requireNonNull(reason, "reason");
            requires = List.copyOf(requires);
        }
    }

    /**
     * An artifact to build once and share with every node that runs it.
     *
     * @param id {@code build:MODULE@VERSION/ARTIFACT}
     * @param module the module
     * @param version its version
     * @param artifact the artifact's name
     * @param system the system it is built for
     * @param nodes the nodes that will run it
     */
    public record Build(String id, String module, String version, String artifact, String system,
            List<String> nodes) {
        /** Copies the parts. */
        public Build {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * A directory a node had and no longer declares: left on disk, reported.
     *
     * @param node the node
     * @param module the module that declared it
     * @param path its path
     */
    public record Orphan(String node, String module, String path) {
    }

    /**
     * @param manifest the module version
     * @param artifact one of its artifacts
     * @return the build's id, {@code build:MODULE@VERSION/ARTIFACT}
     */
    public static String buildId(Manifest manifest, Declaration.Artifact artifact) {
        return BuildOrder.id(manifest.module(), manifest.version(), artifact.name());
    }
}
