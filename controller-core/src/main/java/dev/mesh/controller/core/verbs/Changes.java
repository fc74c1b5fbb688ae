package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The mutating verbs' checks and writes: what must hold before the inventory changes (the names
 * exist, no seat gets a second holder, the licence allows it, the manifest is valid), then the
 * change. The caller holds the plan lock and plans afterwards ({@link Verbs}).
 */
final class Changes {

    private final Inventory inventory;
    private final Licences licences;
    private final Events events;
    private final Clock clock;

    Changes(Inventory inventory, Licences licences, Events events, Clock clock) {
        this.inventory = inventory;
        this.licences = licences;
        this.events = events;
        this.clock = clock;
    }

    /**
     * @param before the inventory as it is
     * @return whether the assignment is new (assigning what is assigned changes nothing)
     * @throws VerbException {@code not-found} for an unknown module or node, {@code conflict} for a
     *     seat it would hold twice or a licence it would exceed
     */
    boolean assign(State before, String module, String node) {
        Reads.require(before, module, node);
        Assignment assignment = new Assignment(module, node);
        if (before.mesh().assignments().contains(assignment)) {
            return false;
        }
        List<Assignment> after = new ArrayList<>(before.mesh().assignments());
        after.add(assignment);
        Seating seating = Seating.of(before.mesh().nodes(), before.mesh().modulesByName(), after);
        List<Problem> conflicts = seating.conflicts().stream()
                .filter(p -> !before.seating().conflicts().contains(p)).toList();
        if (!conflicts.isEmpty()) {
            throw new VerbException(VerbException.Code.CONFLICT, conflicts.getFirst().message(), "/module");
        }
        licences.licence(module).ifPresent(licence -> checkLicence(licence, node, before.mesh().assignments()));
        return inventory.assign(assignment);
    }

    /**
     * @return whether the assignment existed
     * @throws VerbException {@code not-found} when the module is neither pushed nor assigned anywhere
     */
    boolean unassign(String module, String node) {
        boolean changed = inventory.unassign(new Assignment(module, node));
        if (!changed && inventory.assignments().stream().noneMatch(a -> a.module().equals(module))
                && inventory.module(module).isEmpty()) {
            throw new VerbException(VerbException.Code.NOT_FOUND, "there is no module \"" + module + "\"", "/module");
        }
        return changed;
    }

    /**
     * @param document the manifest's JSON text
     * @return the module, version and whether it is new, and its {@code warnings} when it has some
     *     (they do not refuse it)
     * @throws VerbException {@code invalid} with every problem of the manifest, {@code conflict} for
     *     other content under a version pushed before
     */
    Map<String, Object> push(String document) {
        Manifest.Checked checked;
        try {
            checked = Manifest.check(document.getBytes(StandardCharsets.UTF_8), "manifest");
        } catch (ManifestException e) {
            Problem first = e.problems().stream().filter(Problem::isError).findFirst().orElse(e.problems().getFirst());
            throw new VerbException(VerbException.Code.INVALID, problems(e.problems()),
                    "/manifest" + first.location().pointer(), e);
        }
        ModuleVersion version = ModuleVersion.from(checked.manifest(), document);
        boolean changed = inventory.push(version);
        if (changed) {
            events.publish("plan", Map.of("verb", "push", "module", version.module(), "version", version.version()));
        }
        if (checked.warnings().isEmpty()) {
            return Map.of("module", version.module(), "version", version.version(), "changed", changed);
        }
        // Warnings do not refuse a push; the caller is told of them.
        return Map.of("module", version.module(), "version", version.version(), "changed", changed,
                "warnings", checked.warnings().stream().map(Changes::line).toList());
    }

    /**
     * @return the ids of the builds requested
     * @throws VerbException {@code not-found} for an unknown module or artifact
     */
    Map<String, Object> build(String module, String artifact) {
        Manifest manifest = inventory.module(module).orElseThrow(() -> new VerbException(
                VerbException.Code.NOT_FOUND, "there is no module \"" + module + "\"; push it first", "/module"));
        List<String> requested = new ArrayList<>();
        manifest.artifacts().stream().filter(a -> artifact == null || a.name().equals(artifact)).forEach(a -> {
            String id = BuildOrder.id(manifest.module(), manifest.version(), a.name());
            inventory.request(id);
            events.publish("build", Map.of("build", id, "state", "requested"));
            requested.add(id);
        });
        if (requested.isEmpty()) {
            throw new VerbException(VerbException.Code.NOT_FOUND, "module " + module + " has no artifact \""
                    + artifact + "\"", "/artifact");
        }
        return Map.of("requested", requested);
    }

    /** A new assignment must fit the module's licence: before it expires, on no more nodes than it allows. */
    private void checkLicence(Licences.Licence licence, String node, List<Assignment> assignments) {
        List<String> nodes = assignments.stream().filter(a -> a.module().equals(licence.module()))
                .map(Assignment::node).distinct().sorted().toList();
        List<String> why = new ArrayList<>();
        if (!clock.instant().isBefore(licence.expires())) {
            why.add("its licence expired at " + licence.expires() + "; renew the licence");
        }
        if (nodes.size() >= licence.nodes()) {
            why.add("its licence allows " + licence.nodes() + " node" + (licence.nodes() == 1 ? "" : "s")
                    + " and it is assigned to " + nodes.size() + (nodes.isEmpty() ? "" : " (" + String.join(", ", nodes)
                    + ")") + "; unassign it from one, or extend the licence");
        }
        if (!why.isEmpty()) {
            throw new VerbException(VerbException.Code.CONFLICT, "module " + licence.module() + " cannot be assigned "
                    + "to " + node + ": " + String.join("; and ", why), "/module");
        }
    }

    /** Every problem, as {@code validate} lists them: line and column, pointer below {@code /manifest}, message, hint. */
    private static String problems(List<Problem> problems) {
        StringBuilder message = new StringBuilder("the manifest has ").append(problems.size())
                .append(problems.size() == 1 ? " problem:" : " problems:");
        for (Problem problem : problems) {
            message.append("\n  ").append(problem.isError() ? "" : "warning: ").append(line(problem));
        }
        return message.toString();
    }

    /** {@code LINE:COLUMN: /manifest/POINTER: MESSAGE (HINT)}. */
    private static String line(Problem problem) {
        return problem.location().line() + ":" + problem.location().column() + ": /manifest"
                + problem.location().pointer() + ": " + problem.message()
                + (problem.hint() == null ? "" : " (" + problem.hint() + ")");
    }
}
