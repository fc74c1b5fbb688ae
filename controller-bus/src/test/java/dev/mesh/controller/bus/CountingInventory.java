package dev.mesh.controller.bus;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.memory.ForwardingInventory;
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
final class CountingInventory extends ForwardingInventory {

    private int reportCalls;
    private int reported;

    CountingInventory() {
        super(new MemoryInventory());
    }

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
}
