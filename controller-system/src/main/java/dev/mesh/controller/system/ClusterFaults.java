package dev.mesh.controller.system;

import dev.mesh.controller.system.HandoverHistory.Injection;
import dev.mesh.controller.system.VerbLoad.Call;
import dev.mesh.controller.testing.ClusterScript;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The cluster driver's faults ({@link ClusterDriver}): one cycle of a scenario, through the cluster's script, each
 * step written down (an {@link Injection} for the verdict's gaps, a line of what the cluster and the controllers
 * did), and the wait until the mesh is whole again. Used by one thread.
 */
final class ClusterFaults {

    private static final Duration ARRIVE_WITHIN = Duration.ofSeconds(30);
    private static final String VERBS = VerbLoad.QUEUE;

    private final ClusterScript script;
    private final HandoverMesh mesh;
    private final ControllerPool pool;
    private final VerbLoad load;
    private final Duration down;
    private final List<Injection> injections;
    private final List<String> problems;
    private final List<String> observations;
    private final Set<ControllerProcess> exited = new HashSet<>();

    ClusterFaults(ClusterScript script, HandoverMesh mesh, ControllerPool pool, VerbLoad load, Duration down,
            List<Injection> injections, List<String> problems, List<String> observations) {
        this.script = script;
        this.mesh = mesh;
        this.pool = pool;
        this.load = load;
        this.down = down;
        this.injections = injections;
        this.problems = problems;
        this.observations = observations;
    }

    /** Runs cycle {@code cycle} (from 1) of {@code scenario}. */
    void inject(String scenario, int cycle) throws InterruptedException, SQLException, IOException {
        switch (scenario) {
            case "broker-leader" -> {
                String leader = script.run("leader", VERBS, mesh.broker().vhost());
                killAndStart(cycle, leader, "leader of " + VERBS);
            }
            case "broker-connected" -> {
                ControllerProcess active = pool.active();
                String member = statusOf(active).path("bus").path("brokerNode").asString();
                String node = Integer.toString(members().indexOf(member) + 1);
                if (node.equals("0")) {
                    problems.add("cycle " + cycle + ": the active's brokerNode " + member + " is none of " + members());
                    return;
                }
                killAndStart(cycle, node, "the active controller " + active + "'s");
            }
            case "broker-rolling" -> {
                for (String node : List.of("1", "2", "3")) {
                    inject("rolling restart: node " + node + " stopped", "node " + node);
                    script.run("stop", node);
                    script.run("start", node);
                    observations.add(String.format(Locale.ROOT, "cycle %d: node %s stopped and started again; "
                            + "leader of %s now node %s", cycle, node, VERBS, script.run("leader", VERBS,
                            mesh.broker().vhost())));
                }
            }
            case "broker-majority" -> {
                String leader = script.run("leader", VERBS, mesh.broker().vhost());
                String next = Integer.toString(Integer.parseInt(leader) % 3 + 1);
                inject("two of three killed", "nodes " + leader + ", " + next);
                script.run("kill", leader);
                script.run("kill", next);
                Thread.sleep(down.toMillis());
                long from = System.nanoTime();
                script.run("start", leader);
                script.run("start", next);
                observations.add(String.format(Locale.ROOT, "cycle %d: nodes %s and %s killed (%s the leader of %s), "
                        + "down %d s, started again in %.1f s; running %s, leader now node %s", cycle, leader, next,
                        leader, VERBS, down.toSeconds(), (System.nanoTime() - from) / 1e9, script.run("running"),
                        script.run("leader", VERBS, mesh.broker().vhost())));
            }
            case "store-failover" -> failover(cycle);
            case "nats-server" -> natsServer(cycle);
            default -> throw new IllegalArgumentException(scenario);
        }
    }

    private void killAndStart(int cycle, String node, String whose) throws InterruptedException {
        String driver = load.member();
        inject("SIGKILL of node " + node + " (" + whose + ")", "node " + node);
        script.run("kill", node);
        Thread.sleep(down.toMillis());
        long from = System.nanoTime();
        script.run("start", node);
        observations.add(String.format(Locale.ROOT, "cycle %d: node %s (%s) killed, down %d s, started again in "
                + "%.1f s; leader of %s now node %s; the driver's connection was on node %d", cycle, node, whose,
                down.toSeconds(), (System.nanoTime() - from) / 1e9, VERBS, script.run("leader", VERBS,
                mesh.broker().vhost()), members().indexOf(driver) + 1));
    }

    /** The primary killed and the standby promoted; then until a controller holds the lock with a new epoch. */
    private void failover(int cycle) throws InterruptedException {
        long epoch = leadership().epoch();
        long from = System.nanoTime();
        inject("SIGKILL of the primary a, b promoted", "a");
        script.run("kill", "a");
        script.run("promote", "b");
        double promotedMs = (System.nanoTime() - from) / 1e6;
        long deadline = System.nanoTime() + HandoverDriver.TAKEOVER_TIMEOUT.toNanos();
        HandoverDriver.Leadership now = leadership();
        while (System.nanoTime() < deadline && (now.epoch() <= epoch || !holderPresent())) {
            Thread.sleep(50);
            now = leadership();
        }
        if (now.epoch() <= epoch) {
            problems.add("cycle " + cycle + ": no new epoch after " + epoch + " within "
                    + HandoverDriver.TAKEOVER_TIMEOUT.toSeconds() + " s of the failover");
        }
        observations.add(String.format(Locale.ROOT, "cycle %d: a killed, b promoted %.0f ms after the kill (b %s); "
                + "epoch %d -> %d held by %s, %.0f ms after the kill", cycle, promotedMs, script.run("role", "b"),
                epoch, now.epoch(), now.holder(), (System.nanoTime() - from) / 1e6));
    }

    /** The NATS server the active's facts connection is on killed; facts and events must come through it. */
    private void natsServer(int cycle) throws InterruptedException, SQLException, IOException {
        ControllerProcess active = pool.active();
        JsonNode bus = statusOf(active).path("bus");
        String server = bus.path("facts").path("server").asString();
        List<String> servers = List.of(mesh.nats().split(","));
        int n = servers.indexOf(server) + 1;
        if (n == 0) {
            problems.add("cycle " + cycle + ": the active's facts server " + server + " is none of " + servers);
            return;
        }
        Instant killedAt = Instant.now();
        long killed = System.nanoTime();
        inject("SIGKILL of nats-server " + n + " (the active's facts connection's)", "server " + n);
        script.run("kill", Integer.toString(n));
        String known = "SELECT count(*) FROM nodes WHERE last_seen_at > '" + killedAt + "'::timestamptz AND name IN ('"
                + String.join("', '", load.nodes()) + "')";
        long deadline = killed + ARRIVE_WITHIN.toNanos();
        double factsMs = -1;
        double eventsMs = -1;
        while (System.nanoTime() < deadline && (factsMs < 0 || eventsMs < 0)) {
            if (factsMs < 0 && HandoverDriver.count(mesh, known) == load.nodes().size()) {
                factsMs = (System.nanoTime() - killed) / 1e6;
            }
            if (eventsMs < 0) {
                eventsMs = load.events().stream().filter(e -> e.nanos() > killed && !e.kind().equals("failover"))
                        .mapToDouble(e -> (e.nanos() - killed) / 1e6).min().orElse(-1);
            }
            Thread.sleep(50);
        }
        if (factsMs < 0 || eventsMs < 0) {
            problems.add(String.format(Locale.ROOT, "cycle %d: within %d s of killing server %d, %s", cycle,
                    ARRIVE_WITHIN.toSeconds(), n, factsMs < 0 ? "not every node's facts arrived" : "no event heard"));
        }
        long failovers = load.events().stream().filter(e -> e.nanos() > killed && e.kind().equals("failover")).count();
        long remaining = down.toMillis() - (System.nanoTime() - killed) / 1_000_000;
        if (remaining > 0) {
            Thread.sleep(remaining);
        }
        script.run("start", Integer.toString(n));
        observations.add(String.format(Locale.ROOT, "cycle %d: server %d (%s; the active's events connection on %s) "
                + "killed; every node's facts in the inventory again %.0f ms after, an event heard %.0f ms after, "
                + "%d failover events; started again", cycle, n, server, bus.path("events").path("server").asString(),
                factsMs, eventsMs, failovers));
    }

    /** Waits until one live controller holds the lock and two are alive, replacing those that exited. */
    void awaitWhole(List<String> exits, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            for (ControllerProcess controller : pool.all()) {
                if (!controller.isAlive() && exited.add(controller)) {
                    exits.add(controller + " exited " + controller.awaitExit(Duration.ZERO));
                }
            }
            int live = pool.live().size();
            if (live < 2) {
                injections.add(new Injection(HandoverDriver.STARTED, System.nanoTime(), ""));
                pool.start(2 - live);
            }
            if (holderPresent() && pool.live().size() >= 2) {
                return;
            }
            Thread.sleep(100);
        }
        problems.add("the mesh was not whole (one controller holding the lock, two alive) " + within.toSeconds()
                + " s after the fault; live " + pool.live());
    }

    private void inject(String what, String victim) {
        injections.add(new Injection(what, System.nanoTime(), victim));
    }

    private List<String> members() {
        return List.of(mesh.broker().members().split(","));
    }

    /** @return {@code status}'s answer from the active controller, asked over the broker until it answers */
    private JsonNode statusOf(ControllerProcess active) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 20; attempt++) {
            Call call = load.callAndWait(VerbLoad.Kind.READ, "", Duration.ofSeconds(5));
            if (call.answered() && !call.error && call.instance.equals(active.instance())) {
                return call.answer;
            }
        }
        throw new IllegalStateException("the active controller " + active + " did not answer status in 20 tries");
    }

    /** @return the leadership row, read again until the store answers (it fails over in some scenarios) */
    private HandoverDriver.Leadership leadership() throws InterruptedException {
        long deadline = System.nanoTime() + HandoverDriver.TAKEOVER_TIMEOUT.toNanos();
        while (true) {
            try {
                return HandoverDriver.leadership(mesh);
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the store did not answer for "
                            + HandoverDriver.TAKEOVER_TIMEOUT.toSeconds() + " s: " + e.getMessage(), e);
                }
                Thread.sleep(100);
            }
        }
    }

    private boolean holderPresent() {
        try {
            return pool.holder().isPresent();
        } catch (SQLException e) {
            return false; // the store failing over: asked again
        }
    }
}
