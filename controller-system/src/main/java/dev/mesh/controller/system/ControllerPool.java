package dev.mesh.controller.system;

import dev.mesh.controller.system.HandoverDriver.Leadership;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The controllers of a driver's run: started, found by the lock they hold (as the store says), replaced. Used by one
 * thread.
 */
record ControllerPool(HandoverMesh mesh, List<ControllerProcess> all) {

    ControllerProcess launch() {
        ControllerProcess controller = ControllerProcess.launch(mesh, "c" + (all.size() + 1));
        all.add(controller);
        return controller;
    }

    /** Starts {@code count} at once and waits for their ready lines. */
    List<ControllerProcess> start(int count) {
        List<ControllerProcess> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(launch());
        }
        started.forEach(ControllerProcess::awaitReady);
        return started;
    }

    List<ControllerProcess> live() {
        return all.stream().filter(ControllerProcess::isAlive).toList();
    }

    /** @return the controller holding the lock, as the store says, waiting for one for a while */
    ControllerProcess active() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + HandoverDriver.TAKEOVER_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ControllerProcess> holder = holder();
            if (holder.isPresent()) {
                return holder.get();
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no live controller holds the lock; leadership " + HandoverDriver.leadership(mesh));
    }

    List<ControllerProcess> standbys() throws SQLException, InterruptedException {
        ControllerProcess active = active();
        return live().stream().filter(c -> c != active).toList();
    }

    /** @return the live controller holding the lock, when one does */
    Optional<ControllerProcess> holder() throws SQLException {
        Leadership leadership = HandoverDriver.leadership(mesh);
        if (HandoverDriver.count(mesh, "SELECT count(*) FROM pg_locks WHERE " + HandoverDriver.OUR_LOCKS) != 1) {
            return Optional.empty();
        }
        return live().stream().filter(c -> c.instance().equals(leadership.holder())).findFirst();
    }

    /** Waits until a live controller other than {@code victim} holds the lock with an epoch after {@code epoch}. */
    void awaitTakeover(long epoch, ControllerProcess victim, List<String> problems)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + HandoverDriver.TAKEOVER_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ControllerProcess> holder = holder();
            if (holder.isPresent() && holder.get() != victim && HandoverDriver.leadership(mesh).epoch() > epoch) {
                return;
            }
            Thread.sleep(20);
        }
        problems.add("no takeover from " + victim + " within " + HandoverDriver.TAKEOVER_TIMEOUT.toSeconds() + " s; leadership "
                + HandoverDriver.leadership(mesh));
    }

    void awaitNewEpoch(long epoch, List<String> problems) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + HandoverDriver.TAKEOVER_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (holder().isPresent() && HandoverDriver.leadership(mesh).epoch() > epoch) {
                return;
            }
            Thread.sleep(20);
        }
        problems.add("no new epoch after " + epoch + " within " + HandoverDriver.TAKEOVER_TIMEOUT.toSeconds() + " s; leadership "
                + HandoverDriver.leadership(mesh));
    }
}
