package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An {@link Inventory} in memory, for offline use and tests. Thread-safe: every method holds the
 * instance's monitor.
 */
public final class MemoryInventory implements Inventory {

    private final Map<String, Node> nodes = new TreeMap<>();
    /** Module name → version → manifest. */
    private final Map<String, Map<String, Manifest>> versions = new TreeMap<>();
    /** "MODULE@VERSION" → digest of the pushed bytes. */
    private final Map<String, String> digests = new TreeMap<>();
    /** Module name → the version pushed last. */
    private final Map<String, String> latest = new TreeMap<>();
    private final Set<Assignment> assignments = new TreeSet<>(
            Comparator.comparing(Assignment::node).thenComparing(Assignment::module));
    private final Map<String, Declaration> acknowledged = new TreeMap<>();
    private final Set<String> built = new TreeSet<>();
    private final Set<String> requested = new TreeSet<>();

    @Override
    public synchronized List<Node> nodes() {
        return List.copyOf(nodes.values());
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
    public synchronized List<Manifest> modules() {
        return latest.entrySet().stream().map(e -> versions.get(e.getKey()).get(e.getValue())).toList();
    }

    @Override
    public synchronized Optional<Manifest> module(String name) {
        String version = latest.get(name);
        return version == null ? Optional.empty() : Optional.of(versions.get(name).get(version));
    }

    @Override
    public synchronized boolean push(Manifest manifest, String digest) {
        String key = manifest.module() + "@" + manifest.version();
        String before = digests.putIfAbsent(key, digest);
        if (before != null && !before.equals(digest)) {
            throw new VerbException(VerbException.Code.CONFLICT, "version " + manifest.version() + " of module "
                    + manifest.module() + " was pushed before with other content; give the new content a new version",
                    "/manifest/version");
        }
        versions.computeIfAbsent(manifest.module(), m -> new TreeMap<>()).put(manifest.version(), manifest);
        latest.put(manifest.module(), manifest.version());
        return before == null;
    }

    @Override
    public synchronized List<Assignment> assignments() {
        return List.copyOf(assignments);
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

    /** Records what a node reports it applied. */
    public synchronized void acknowledge(Declaration declaration) {
        acknowledged.put(declaration.node(), declaration);
    }

    @Override
    public synchronized Set<String> built() {
        return Set.copyOf(built);
    }

    /** Records a finished build. */
    public synchronized void build(String buildId) {
        built.add(buildId);
        requested.remove(buildId);
    }

    @Override
    public synchronized Set<String> requested() {
        return Set.copyOf(new HashSet<>(requested));
    }

    @Override
    public synchronized boolean request(String buildId) {
        return !built.contains(buildId) && requested.add(buildId);
    }
}
