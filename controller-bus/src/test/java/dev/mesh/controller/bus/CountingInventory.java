package dev.mesh.controller.bus;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Manifest;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Core's in-memory inventory, counting the calls of {@link #report(Collection)} and the facts they
 * carried, and letting a test wait (without sleeping) until enough facts were recorded.
 */
final class CountingInventory implements Inventory {

    private final MemoryInventory delegate = new MemoryInventory();
    private int reportCalls;
    private int reported;

    @Override
    public synchronized void report(Collection<Facts> facts) {
        delegate.report(facts);
        reportCalls++;
        reported += facts.size();
        notifyAll();
    }

    /** @return how many times {@link #report(Collection)} was called */
    synchronized int reportCalls() {
        return reportCalls;
    }

    /**
     * Waits until the facts recorded so far satisfy {@code enough}, at most {@code timeout}.
     *
     * @return whether they did
     */
    synchronized boolean awaitReported(IntPredicate enough, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!enough.test(reported)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    @Override
    public List<Node> nodes() {
        return delegate.nodes();
    }

    @Override
    public Optional<Node> node(String name) {
        return delegate.node(name);
    }

    @Override
    public void report(Node node) {
        delegate.report(node);
    }

    @Override
    public Map<String, Facts> facts() {
        return delegate.facts();
    }

    @Override
    public Optional<Facts> facts(String node) {
        return delegate.facts(node);
    }

    @Override
    public Map<String, Sighting> sightings() {
        return delegate.sightings();
    }

    @Override
    public List<Manifest> modules() {
        return delegate.modules();
    }

    @Override
    public Optional<Manifest> module(String name) {
        return delegate.module(name);
    }

    @Override
    public boolean push(ModuleVersion version) {
        return delegate.push(version);
    }

    @Override
    public List<Assignment> assignments() {
        return delegate.assignments();
    }

    @Override
    public List<Assignment> assignments(Set<String> modules) {
        return delegate.assignments(modules);
    }

    @Override
    public boolean assign(Assignment assignment) {
        return delegate.assign(assignment);
    }

    @Override
    public boolean unassign(Assignment assignment) {
        return delegate.unassign(assignment);
    }

    @Override
    public Map<String, Declaration> acknowledged() {
        return delegate.acknowledged();
    }

    @Override
    public void acknowledge(Declaration declaration) {
        delegate.acknowledge(declaration);
    }

    @Override
    public boolean desire(Declaration declaration) {
        return delegate.desire(declaration);
    }

    @Override
    public Map<String, Declaration> desired() {
        return delegate.desired();
    }

    @Override
    public boolean acknowledge(String node, String revision) {
        return delegate.acknowledge(node, revision);
    }

    @Override
    public Set<String> built() {
        return delegate.built();
    }

    @Override
    public Set<String> requested() {
        return delegate.requested();
    }

    @Override
    public boolean request(String buildId) {
        return delegate.request(buildId);
    }

    @Override
    public void finish(String buildId, boolean succeeded, String detail) {
        delegate.finish(buildId, succeeded, detail);
    }
}
