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
import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An {@link Inventory} that hands every call to another: the base of the inventories tests wrap
 * around {@link MemoryInventory} to count calls or make them fail, overriding only those. As
 * thread-safe as the inventory it forwards to.
 */
public abstract class ForwardingInventory implements Inventory {

    /** The inventory every call goes to. */
    protected final Inventory delegate;

    /** @param delegate the inventory every call goes to */
    protected ForwardingInventory(Inventory delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public List<Node> nodes() {
        return delegate.nodes();
    }

    @Override
    public List<Node> nodes(String after, int limit) {
        return delegate.nodes(after, limit);
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
    public void report(Collection<Facts> facts) {
        delegate.report(facts);
    }

    @Override
    public void seen(Map<String, Instant> seen) {
        delegate.seen(seen);
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
    public Map<String, Sighting> sightings(String after, String last) {
        return delegate.sightings(after, last);
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
    public List<Assignment> assignments(Set<String> modules, String after, String last) {
        return delegate.assignments(modules, after, last);
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
    public void delivered(Delivery delivery) {
        delegate.delivered(delivery);
    }

    @Override
    public Map<String, Delivery> deliveries() {
        return delegate.deliveries();
    }

    @Override
    public void failed(Report.Failed report) {
        delegate.failed(report);
    }

    @Override
    public Map<String, Report.Failed> failures() {
        return delegate.failures();
    }

    @Override
    public Map<String, Built> built() {
        return delegate.built();
    }

    @Override
    public void finish(Report.Build report) {
        delegate.finish(report);
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
    public Set<String> unsentBuilds() {
        return delegate.unsentBuilds();
    }

    @Override
    public void sent(String buildId, long epoch) {
        delegate.sent(buildId, epoch);
    }

    @Override
    public Set<String> failedBuilds() {
        return delegate.failedBuilds();
    }
}
