package dev.mesh.controller.system;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.system.HandoverDriver.Outcome;
import dev.mesh.controller.system.HandoverHistory.Injection;
import dev.mesh.controller.system.HandoverHistory.Verdict;
import dev.mesh.controller.system.VerbLoad.Call;
import dev.mesh.controller.testing.ClusterScript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Issue 25's faults of the clusters under the handover driver's load: two mesh controllers as processes of the
 * bundle ({@link ControllerProcess}, {@link ControllerPool}), the open-loop load of verbs over the broker
 * ({@link VerbLoad}), a member of a cluster made by the repository's scripts ({@code bin/clusters/rabbitmq},
 * {@code postgresql}, {@code nats}) taken away again and again, then the handover driver's verdict
 * ({@link HandoverHistory}; {@link HandoverDriver#print}). The controllers are given every member of the cluster as
 * docs/cli.md tells an operator to: {@code MESH_BROKER_ADDRESS_PORT=127.0.0.1:5681,127.0.0.1:5682,127.0.0.1:5683},
 * {@code MESH_STORE_<DB>_PORT=127.0.0.1:5441,127.0.0.1:5442}, the NATS file's {@code "url"} the three servers'.
 *
 * <p>The load's client is on the cluster too, and a member going may take its connection along, with the replies
 * on their way: it sends with publisher confirms and sends a request again every 2 s until it is answered
 * ({@link VerbLoad.Sending#UNTIL_ANSWERED}). <b>Lost</b> is then a request the broker confirmed and that no reply
 * came to; <b>never taken</b> a request the broker never confirmed (no member took it), shown apart.
 *
 * <p>Scenarios, each on a mesh of its own:
 * <ul>
 *   <li>{@code broker-leader} — SIGKILL of the Erlang VM of the node leading {@code mesh-controller.verbs}, started
 *       again after {@code --down} seconds;</li>
 *   <li>{@code broker-connected} — the same of the node the active controller's connection is on ({@code status}'s
 *       {@code bus.brokerNode}, asked of the active);</li>
 *   <li>{@code broker-rolling} — a rolling restart: each node in turn stopped cleanly and started again;</li>
 *   <li>{@code broker-majority} — two of the three killed (the queue's leader and the next), the third pausing
 *       ({@code pause_minority}), then both started again: every request answered or refused {@code unavailable},
 *       none acknowledged and lost, none applied twice;</li>
 *   <li>{@code store-failover} — on {@code bin/clusters/postgresql up --sync}'s pair, the primary SIGKILLed and the
 *       standby promoted: the lock and the epoch continue on it, no epoch twice. One cycle: the pair is made afresh
 *       for each run (the old primary is not made a standby of the new), so run the command again for more;</li>
 *   <li>{@code nats-server} — SIGKILL of the NATS server the active controller's facts connection is on
 *       ({@code status}'s {@code bus.facts.server}), started again after {@code --down} seconds: the driver's
 *       nodes' facts (it publishes them every 2 s, as the lab's hosts do, given the three servers) must reach the
 *       inventory again, and the controllers' events the driver, each within 30 s.</li>
 * </ul>
 * After each cycle the driver waits until the mesh is whole again (one controller holding the lock, two alive; a
 * controller that exited is written down and replaced). The clusters are removed ({@code down}) at the end.
 *
 * <pre>
 * java -cp controller-bench/target/benchmarks.jar dev.mesh.controller.system.ClusterDriver
 *     [--scenarios broker-leader,…|all] [--repeat N] [--rate 100] [--push-every 20] [--warmup 10] [--steady 20]
 *     [--settle 3] [--down 5] [--bundle controller-launcher/target/mesh-controller/mesh-controller]
 * </pre>
 * {@code --repeat} overrides every scenario's count (defaults: broker-leader 3, broker-connected 3, broker-rolling 1,
 * broker-majority 2, store-failover 1 — and only 1 —, nats-server 3). Run it from the repository (the scripts are
 * found from the working directory up), as root. Prints one block per scenario and a table; exits 1 when a scenario
 * was not safe.
 */
public final class ClusterDriver {

    static final Map<String, Integer> SCENARIOS = scenarios();
    /** How long after a cycle the mesh may take to be whole again: a majority's return takes RabbitMQ a while. */
    private static final Duration WHOLE_WITHIN = Duration.ofSeconds(120);

    /** What a run is asked to do. */
    record Options(List<String> scenarios, int repeat, double rate, int pushEvery, Duration warmup, Duration steady,
            Duration settle, Duration down, Path bundle) {
    }

    /** A scenario's outcome, and what each cycle saw of the cluster. */
    record ClusterOutcome(Outcome outcome, List<String> observations) {
    }

    private ClusterDriver() {
    }

    /**
     * Runs the scenarios asked, prints the results, removes the clusters.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        List<ClusterOutcome> outcomes = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        try {
            for (String scenario : options.scenarios()) {
                used.add(cluster(scenario));
                ClusterOutcome outcome = run(scenario, options);
                print(outcome);
                outcomes.add(outcome);
            }
        } finally {
            for (String cluster : used) {
                ClusterScript.named(cluster).run("down");
            }
        }
        System.out.println();
        System.out.println(table(outcomes, options.rate()));
        if (outcomes.stream().anyMatch(o -> !o.outcome().safe())) {
            System.exit(1);
        }
    }

    /** @return the script whose cluster the scenario breaks: {@code rabbitmq}, {@code postgresql} or {@code nats} */
    static String cluster(String scenario) {
        if (!SCENARIOS.containsKey(scenario)) {
            throw new IllegalArgumentException("no scenario " + scenario + "; there are " + SCENARIOS.keySet());
        }
        return scenario.startsWith("broker-") ? "rabbitmq" : scenario.startsWith("store-") ? "postgresql" : "nats";
    }

    /**
     * Runs one scenario on a mesh of its own, on its cluster (made, or found made, by its script).
     *
     * @param scenario one of {@link #SCENARIOS}
     * @param options the run's options ({@code repeat} 0: the scenario's own count)
     */
    static ClusterOutcome run(String scenario, Options options) throws IOException, InterruptedException,
            TimeoutException, SQLException {
        int cycles = options.repeat() > 0 ? options.repeat() : SCENARIOS.get(scenario);
        ClusterScript script = ClusterScript.named(cluster(scenario));
        if (scenario.equals("store-failover") && cycles != 1) {
            throw new IllegalArgumentException("store-failover runs one cycle (the pair is made afresh for each run); "
                    + "run the command again for another, not --repeat " + cycles);
        }
        HandoverMesh.Services services = switch (cluster(scenario)) {
            case "rabbitmq" -> HandoverMesh.Services.local().withBroker(ClusterBroker::open);
            case "postgresql" -> HandoverMesh.Services.local().withStore(new Endpoint(Arrays.stream(
                    script.run("up", "--sync").split(",")).map(ClusterDriver::address).toList(), "postgres",
                    "postgres", Secret.of("")));
            default -> HandoverMesh.Services.local().withNats(script.run("up"));
        };
        String run = "cl" + UUID.randomUUID().toString().substring(0, 6);
        Path dir = Files.createTempDirectory("cluster-" + scenario + "-");
        System.out.printf(Locale.ROOT, "cluster %s: %d cycles at %.0f verbs/s, run %s, logs in %s%n", scenario, cycles,
                options.rate(), run, dir);
        List<ControllerProcess> all = new ArrayList<>();
        List<Injection> injections = new ArrayList<>();
        List<String> exits = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> observations = new ArrayList<>();
        try (HandoverMesh mesh = HandoverMesh.create(options.bundle(), dir, services)) {
            ControllerPool pool = new ControllerPool(mesh, all);
            pool.start(1);
            pool.start(1);
            try (VerbLoad load = VerbLoad.open(mesh, run, options.rate(), options.pushEvery(),
                    VerbLoad.Sending.UNTIL_ANSWERED)) {
                Call app = load.callAndWait(VerbLoad.Kind.PUSH, VerbLoad.APP_MODULE + ":1.0.0", Duration.ofSeconds(20));
                if (!app.answered() || app.error) {
                    throw new IllegalStateException("the push of " + VerbLoad.APP_MODULE + " was not answered ("
                            + app.errorCode + "); the active controller's log:\n" + pool.active().log());
                }
                load.start();
                Thread.sleep(options.warmup().toMillis());
                long steadyFrom = System.nanoTime();
                Thread.sleep(options.steady().toMillis());
                long steadyTo = System.nanoTime();
                ClusterFaults faults = new ClusterFaults(script, mesh, pool, load, options.down(), injections,
                        problems, observations);
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    faults.inject(scenario, cycle);
                    faults.awaitWhole(exits, WHOLE_WITHIN);
                    Thread.sleep(options.settle().toMillis());
                }
                List<Call> calls = load.stop(Duration.ofSeconds(60));
                long end = System.nanoTime();
                HandoverDriver.record(dir, calls, load.events(), injections);
                Set<String> instances = all.stream().map(ControllerProcess::instance).collect(Collectors.toSet());
                Verdict verdict = HandoverHistory.judge(calls, load.events(), instances, injections, steadyFrom,
                        steadyTo, end);
                Outcome outcome = new Outcome(scenario, cycles, verdict, HandoverDriver.count(mesh, "SELECT count(*) "
                        + "FROM module_versions WHERE module = '" + VerbLoad.LOAD_MODULE + "'"),
                        HandoverDriver.countLoadPushes(calls), (int) HandoverDriver.count(mesh, "SELECT count(*) FROM "
                        + "deliveries d JOIN handovers h ON h.epoch_new > d.epoch WHERE d.delivered_at > h.taken_at"),
                        HandoverDriver.handovers(mesh), exits, problems);
                return new ClusterOutcome(outcome, observations);
            } finally {
                for (ControllerProcess controller : all) {
                    controller.stop();
                }
            }
        }
    }

    private static Address address(String text) {
        int colon = text.lastIndexOf(':');
        return new Address(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
    }

    static void print(ClusterOutcome cluster) {
        HandoverDriver.print(cluster.outcome());
        System.out.printf(Locale.ROOT, "cluster %s: never taken by the broker %d; floor (steady, no fault) p99 %.1f ms%n",
                cluster.outcome().scenario(), cluster.outcome().verdict().neverTaken(),
                cluster.outcome().verdict().steadyP99Ms());
        cluster.observations().forEach(line -> System.out.println("  " + line));
    }

    static String table(List<ClusterOutcome> outcomes, double rate) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "| scenario (%.0f verbs/s) | cycles | sent | "
                + "lost | never taken | client errors | duplicated effects | overlapping epochs | stale writes | "
                + "stored / acknowledged pushes | floor p99 (ms) | floor gap (ms) | median gap (ms) | longest gap (ms) | "
                + "answered again (ms) |%n|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                rate));
        for (ClusterOutcome cluster : outcomes) {
            Outcome o = cluster.outcome();
            Verdict v = o.verdict();
            table.append(String.format(Locale.ROOT, "%n| %s | %d | %,d | %d | %d | %d %s | %d | %d | %d | %d / %d | "
                    + "%.1f | %.1f | %.1f | %.1f | %.1f |", o.scenario(), o.cycles(), v.sent(), v.lost(),
                    v.neverTaken(), v.clientErrorCount(), v.clientErrors(), v.duplicatedEffects(),
                    v.overlappingEpochs().size() + v.mutationsOutOfOrder(), v.staleEvents() + o.staleDeliveries(),
                    o.versionsStored(), o.pushesAcknowledged(), v.steadyP99Ms(), v.floorMs(), v.medianGapMs(),
                    v.worstGapMs(), v.worstAnsweredAgainMs()));
        }
        return table.toString();
    }

    static Options parse(String[] args) {
        List<String> scenarios = new ArrayList<>(SCENARIOS.keySet());
        int repeat = 0;
        double rate = 100;
        int pushEvery = 20;
        Duration warmup = Duration.ofSeconds(10);
        Duration steady = Duration.ofSeconds(20);
        Duration settle = Duration.ofSeconds(3);
        Duration down = Duration.ofSeconds(5);
        Path bundle = Path.of("controller-launcher/target/mesh-controller/mesh-controller");
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 == args.length) {
                throw new IllegalArgumentException("option " + args[i] + " has no value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--scenarios" -> scenarios = value.equals("all") ? scenarios : Arrays.asList(value.split(","));
                case "--repeat" -> repeat = Integer.parseInt(value);
                case "--rate" -> rate = Double.parseDouble(value);
                case "--push-every" -> pushEvery = Integer.parseInt(value);
                case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(value));
                case "--steady" -> steady = Duration.ofSeconds(Long.parseLong(value));
                case "--settle" -> settle = Duration.ofSeconds(Long.parseLong(value));
                case "--down" -> down = Duration.ofSeconds(Long.parseLong(value));
                case "--bundle" -> bundle = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; see the class's "
                        + "Javadoc or docs/handover.md");
            }
        }
        scenarios.forEach(ClusterDriver::cluster);
        if (!Files.isExecutable(bundle)) {
            throw new UncheckedIOException(new IOException("no bundle launcher at " + bundle.toAbsolutePath()
                    + "; build it (bin/dev mvn -B -q -DskipTests package) or give --bundle"));
        }
        return new Options(List.copyOf(scenarios), repeat, rate, pushEvery, warmup, steady, settle, down, bundle);
    }

    private static Map<String, Integer> scenarios() {
        Map<String, Integer> scenarios = new LinkedHashMap<>();
        scenarios.put("broker-leader", 3);
        scenarios.put("broker-connected", 3);
        scenarios.put("broker-rolling", 1);
        scenarios.put("broker-majority", 2);
        scenarios.put("store-failover", 1);
        scenarios.put("nats-server", 3);
        return scenarios;
    }
}
