package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * An {@link Inventory} in memory, for offline use and tests. Thread-safe: every method holds the
 * instance's monitor.
 */
public final class MemoryInventory implements Inventory {

    private static final Pattern BUILD_ID = Pattern.compile("build:[^@/]+@[^@/]+/[^@/]+");

    private final NavigableMap<String, Node> nodes = new TreeMap<>();
    /** "MODULE@VERSION" → the version as first pushed. */
    private final Map<String, ModuleVersion> versions = new TreeMap<>();
    /** Module name → the version pushed last. */
    private final Map<String, String> latest = new TreeMap<>();
    private final Set<Assignment> assignments = new TreeSet<>(
            Comparator.comparing(Assignment::node).thenComparing(Assignment::module));
    private final Map<String, Declaration> acknowledged = new TreeMap<>();
    /** Node name → its latest facts, whose node may be older than the one in {@link #nodes}. */
    private final NavigableMap<String, Facts> facts = new TreeMap<>();
    private final Map<String, Declaration> desired = new TreeMap<>();
    private final Map<String, Built> built = new TreeMap<>();
    private final Set<String> requested = new TreeSet<>();
    private final Set<String> unsent = new TreeSet<>();
    private final Set<String> failedBuilds = new TreeSet<>();
    private final Map<String, Delivery> deliveries = new TreeMap<>();
    private final Map<String, Report.Failed> failures = new TreeMap<>();

    @Override
    public synchronized List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    @Override
    public synchronized List<Node> nodes(String after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a page holds at least 1 node, not " + limit);
        }
        return nodes.tailMap(after, false).values().stream().limit(limit).toList();
    }

    @Override
    public synchronized Optional<Node> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    @Override
    public synchronized void report(Node node) {
        nodes.put(node.name(), node);
    }

    @Override
    public synchronized void report(Collection<Facts> reported) {
        for (Facts one : List.copyOf(reported)) {
            String name = one.node().name();
            Facts latest = facts.get(name);
            if (latest == null || !one.at().isBefore(latest.at())) {
                facts.put(name, one);
                nodes.put(name, one.node());
            }
        }
    }

    @Override
    public synchronized void seen(Map<String, Instant> seen) {
        Map.copyOf(seen).forEach((name, at) -> {
            Facts latest = facts.get(name);
            Facts again = latest == null ? null : new Facts(latest.node(), latest.revision(), latest.processes(), at);
            if (again != null && again.at().isAfter(latest.at())) {
                facts.put(name, again);
            }
        });
    }

    @Override
    public synchronized Map<String, Facts> facts() {
        Map<String, Facts> now = new TreeMap<>();
        facts.keySet().forEach(name -> now.put(name, facts(name).orElseThrow()));
        return Map.copyOf(now);
    }

    @Override
    public synchronized Optional<Facts> facts(String node) {
        Facts one = facts.get(node);
        return one == null ? Optional.empty()
                : Optional.of(new Facts(nodes.get(node), one.revision(), one.processes(), one.at()));
    }

    @Override
    public synchronized Map<String, Sighting> sightings() {
        Map<String, Sighting> sightings = new TreeMap<>();
        facts.forEach((name, one) -> sightings.put(name, one.sighting()));
        return Map.copyOf(sightings);
    }

    @Override
    public synchronized Map<String, Sighting> sightings(String after, String last) {
        Map<String, Sighting> sightings = new TreeMap<>();
        if (after.compareTo(last) < 0) {
            facts.subMap(after, false, last, true).forEach((name, one) -> sightings.put(name, one.sighting()));
        }
        return Map.copyOf(sightings);
    }

    @Override
    public synchronized List<Manifest> modules() {
        return latest.entrySet().stream().map(e -> versions.get(e.getKey() + "@" + e.getValue()).manifest()).toList();
    }

    @Override
    public synchronized Optional<Manifest> module(String name) {
        String version = latest.get(name);
        return version == null ? Optional.empty() : Optional.of(versions.get(name + "@" + version).manifest());
    }

    @Override
    public synchronized boolean push(ModuleVersion version) {
        ModuleVersion before = versions.putIfAbsent(version.module() + "@" + version.version(), version);
        if (before != null && !before.digest().equals(version.digest())) {
            throw new VerbException(VerbException.Code.CONFLICT, "version " + version.version() + " of module "
                    + version.module() + " was pushed before with other content; give the new content a new version",
                    "/manifest/version");
        }
        latest.put(version.module(), version.version());
        return before == null;
    }

    @Override
    public synchronized List<Assignment> assignments() {
        return List.copyOf(assignments);
    }

    @Override
    public synchronized List<Assignment> assignments(Set<String> modules) {
        return assignments.stream().filter(a -> modules.contains(a.module())).toList();
    }

    @Override
    public synchronized List<Assignment> assignments(Set<String> modules, String after, String last) {
        return assignments.stream().filter(a -> modules.contains(a.module()) && a.node().compareTo(after) > 0
                && a.node().compareTo(last) <= 0).toList();
    }

    @Override
    public synchronized boolean assign(Assignment assignment) {
        return assignments.add(assignment);
    }

    @Override
    public synchronized boolean unassign(Assignment assignment) {
        return assignments.remove(assignment);
    }

    @Override
    public synchronized Map<String, Declaration> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    @Override
    public synchronized void acknowledge(Declaration declaration) {
        acknowledged.put(declaration.node(), declaration);
    }

    @Override
    public synchronized boolean desire(Declaration declaration) {
        if (declaration.revision().isEmpty()) {
            throw new IllegalArgumentException("the declaration of node " + declaration.node()
                    + " has no revision; record a composed declaration");
        }
        Declaration before = desired.put(declaration.node(), declaration);
        return before == null || !before.revision().equals(declaration.revision());
    }

    @Override
    public synchronized Map<String, Declaration> desired() {
        return Map.copyOf(desired);
    }

    @Override
    public synchronized boolean acknowledge(String node, String revision) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        Declaration wanted = desired.get(node);
        if (wanted == null || !wanted.revision().equals(revision)) {
            return false;
        }
        acknowledged.put(node, wanted);
        failures.remove(node);
        return true;
    }

    @Override
    public synchronized void delivered(Delivery delivery) {
        deliveries.put(delivery.node(), Objects.requireNonNull(delivery, "delivery"));
    }

    @Override
    public synchronized Map<String, Delivery> deliveries() {
        return Map.copyOf(deliveries);
    }

    @Override
    public synchronized void failed(Report.Failed report) {
        failures.put(report.node(), report);
    }

    @Override
    public synchronized Map<String, Report.Failed> failures() {
        return Map.copyOf(failures);
    }

    @Override
    public synchronized Map<String, Built> built() {
        return Map.copyOf(built);
    }

    @Override
    public synchronized void finish(Report.Build report) {
        String buildId = report.build();
        checkBuildId(buildId);
        if (report.usable() != report) {
            throw new IllegalArgumentException(report.problem().orElseThrow());
        }
        requested.remove(buildId);
        unsent.remove(buildId);
        if (built.containsKey(buildId)) {
            return; // built stays built: a late failure report does not undo it
        }
        if (report.succeeded()) {
            built.put(buildId, report.artifact().orElseThrow());
            failedBuilds.remove(buildId);
        } else {
            failedBuilds.add(buildId);
        }
    }

    @Override
    public synchronized Set<String> requested() {
        return Set.copyOf(new HashSet<>(requested));
    }

    @Override
    public synchronized boolean request(String buildId) {
        checkBuildId(buildId);
        if (built.containsKey(buildId)) {
            return false;
        }
        failedBuilds.remove(buildId);
        unsent.add(buildId);
        return requested.add(buildId);
    }

    @Override
    public synchronized Set<String> unsentBuilds() {
        return Set.copyOf(unsent);
    }

    @Override
    public synchronized void sent(String buildId, long epoch) {
        checkBuildId(buildId);
        if (epoch < 1) {
            throw new IllegalArgumentException("a build is sent with the epoch of the plan lock taken, at least 1, not "
                    + epoch);
        }
        unsent.remove(buildId);
    }

    @Override
    public synchronized Set<String> failedBuilds() {
        return Set.copyOf(failedBuilds);
    }

    private static void checkBuildId(String buildId) {
        if (!BUILD_ID.matcher(buildId).matches()) {
            throw new IllegalArgumentException("build id \"" + buildId
                    + "\" is not of the form build:MODULE@VERSION/ARTIFACT");
        }
    }
}
