package dev.mesh.controller.system;

import dev.mesh.controller.system.HandoverHistory.Injection;
import dev.mesh.controller.system.HandoverHistory.Verdict;
import dev.mesh.controller.system.VerbLoad.Call;
import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.simhost.Archive;
import dev.mesh.controller.simhost.HostSettings;
import dev.mesh.controller.simhost.LabBundles;
import dev.mesh.controller.simhost.NatsSettings;
import dev.mesh.controller.simhost.RealRun;
import dev.mesh.controller.simhost.SimulatedBuilder;
import dev.mesh.controller.simhost.SimulatedHost;
import dev.mesh.controller.simhost.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The controller upgrading itself through its own plan, with real processes (docs/upgrade.md): a
 * controller standing for the old container {@code server} is active under the handover driver's
 * load ({@link VerbLoad}); the controller's module is pushed and assigned to a node whose lab host
 * runs its processes for real ({@link SimulatedHost} with a {@link RealRun}), and whose builder hands
 * out this build's bundle and the same raised to the next version ({@link LabBundles}). Four steps,
 * each a push through the verbs, each done once the node runs the version and a process of it holds
 * the plan lock:
 *
 * <ol>
 *   <li>{@code move}: version 1 (this build) replaces the container: started beside it, standing by,
 *       then the container is stopped with SIGTERM and hands over;
 *   <li>{@code upgrade}: version 2 (raised, one migration more): prepared while version 1 is active,
 *       started beside it, then version 1 stopped with SIGTERM, exiting 0;
 *   <li>{@code rollback}: version 1 again, on the schema version 2 migrated;
 *   <li>{@code failed}: version 3, whose environment names a file that is not there: it exits before it
 *       stands by, the host reports {@code failed}, version 1 stays active; then version 1 is pushed again.
 * </ol>
 *
 * The history is judged as the handover driver's is ({@link HandoverHistory}): every request answered,
 * no effect twice, no epoch shared, the longest gap of each step beside the steady floor.
 */
public final class UpgradeDriver {

    static final String MODULE = "mesh-controller";
    /** The line of a SIGTERM the host sent, among the injections. */
    static final String SIGTERM = "SIGTERM";
    static final String PROCESS = "mesh-controller";
    private static final String SYSTEM = "debian-12";
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(180);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * What a run is asked to do.
     *
     * @param trainCaches whether the raised bundle's ahead-of-time caches are trained as a release's are
     *     ({@link LabBundles#raised}); the benchmark does, CI's test does not (the training's runs of the
     *     controller are half a minute on its machine, and the upgrade is the same without them)
     */
    record Options(double rate, int pushEvery, Duration warmup, Duration steady, Path bundle, boolean trainCaches) {
    }

    /**
     * One step: when it was pushed, when each of its milestones was first seen, in ms after the push.
     *
     * @param name the step
     * @param version the module version pushed
     * @param milestones {@code built}, {@code delivered}, {@code running} (the node runs it),
     *     {@code active} (a process of it holds the lock), {@code applied}, as far as the step got
     * @param host where the host's time went (fetch, unpack, prepare, ready, old stopped), ms
     * @param outcome what the step ended with, in a line
     */
    record Step(String name, String version, Map<String, Long> milestones, Map<String, Long> host, String outcome) {
    }

    /** A run's outcome. */
    record Outcome(Verdict verdict, List<Step> steps, List<String> exits, List<String> handovers,
            long versionsStored, long pushesAcknowledged, List<String> problems, Path dir) {
    }

    private UpgradeDriver() {
    }

    /**
     * Runs it once and prints the outcome ({@code bin/dev lab upgrade}); exits 1 when something was lost
     * or a step went wrong. Arguments: {@code [--rate VERBS_PER_SECOND] [BUNDLE_LAUNCHER]}.
     */
    public static void main(String[] args) throws Exception {
        double rate = 200;
        Path bundle = Path.of("controller-launcher/target/mesh-controller/mesh-controller");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rate") && i + 1 < args.length) {
                rate = Double.parseDouble(args[++i]);
            } else {
                bundle = Path.of(args[i]);
            }
        }
        Outcome outcome = run(new Options(rate, 20, Duration.ofSeconds(5), Duration.ofSeconds(10), bundle, true));
        print(outcome);
        System.exit(outcome.problems().isEmpty() && outcome.verdict().lost() == 0 ? 0 : 1);
    }

    static Outcome run(Options options) throws IOException, InterruptedException, TimeoutException, SQLException {
        String run = "up" + UUID.randomUUID().toString().substring(0, 6);
        Path dir = Files.createTempDirectory("upgrade-");
        System.out.printf(Locale.ROOT, "upgrade: %.0f verbs/s, run %s, logs in %s%n", options.rate(), run, dir);
        try {
            return run(options, run, dir);
        } finally {
            prune(dir);
        }
    }

    /**
     * Removes what a run unpacked and built, about 850 MB, and keeps what tells how it went: the logs, the
     * calls and the faults.
     */
    private static void prune(Path dir) throws IOException {
        Path versions = dir.resolve("host/versions");
        List<Path> unpacked = new ArrayList<>();
        if (Files.isDirectory(versions)) {
            try (Stream<Path> processes = Files.list(versions)) {
                for (Path process : processes.filter(Files::isDirectory).toList()) {
                    try (Stream<Path> each = Files.list(process)) {
                        each.filter(Files::isDirectory).forEach(unpacked::add);
                    }
                }
            }
        }
        try (Stream<Path> raised = Files.list(dir)) {
            raised.filter(path -> path.getFileName().toString().startsWith("bundle-")
                    || path.getFileName().toString().endsWith(".tar.zst")).forEach(unpacked::add);
        }
        for (Path path : unpacked) {
            Trees.delete(path);
        }
    }

    private static Outcome run(Options options, String run, Path dir)
            throws IOException, InterruptedException, TimeoutException, SQLException {
        Path archive = LabBundles.built(options.bundle().toAbsolutePath().getParent().getParent());
        Archive one = LabBundles.of(archive);
        System.out.printf(Locale.ROOT, "upgrade: the builder hands out %s (%,d KiB) and the same raised%s%n",
                archive.getFileName(), Files.size(archive) / 1024, options.trainCaches() ? "" : " (its caches not trained)");
        // The launcher is controller-launcher/target/mesh-controller/mesh-controller in the checkout.
        Path repository = archive.getParent().getParent().getParent();
        Archive two = LabBundles.raised(archive, "0.2.0-lab", dir, repository, options.trainCaches());
        List<String> problems = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        List<Injection> injections = new ArrayList<>();
        Set<String> instances = new HashSet<>();
        try (HandoverMesh mesh = HandoverMesh.create(options.bundle(), dir)) {
            ControllerProcess server = ControllerProcess.launch(mesh, "server").awaitReady();
            instances.add(server.instance());
            String node = run + "-ctl";
            mesh.enroll(List.of(node));
            Map<String, Archive> bundles = Map.of("1", one, "2", two, "3", one);
            try (SimulatedBuilder builder = SimulatedBuilder.open(SYSTEM, mesh.loopback().simhost());
                    SimulatedHost host = SimulatedHost.open(HostSettings.of(node, "127.0.0.1", SYSTEM,
                            mesh.loopback().addUser(node), NatsSettings.of(HandoverMesh.NATS_URL), Loopback.USER)
                            .withFactsInterval(Duration.ofMillis(500)).withCheckInterval(Duration.ofMillis(250)),
                            RealRun.of(dir.resolve("host"), MODULE));
                    BrokerUpstream verbs = BrokerUpstream.connect(mesh.loopback().broker(), Duration.ofSeconds(20));
                    VerbLoad load = VerbLoad.open(mesh, run, options.rate(), options.pushEvery())) {
                builder.archives(build -> {
                    Archive made = bundles.get(build.substring(build.indexOf('@') + 1, build.indexOf('/')));
                    if (made == null) {
                        throw new IllegalArgumentException("the lab builds no " + build);
                    }
                    return made;
                });
                host.adopt("server", server.process());
                Call app = load.callAndWait(VerbLoad.Kind.PUSH, VerbLoad.APP_MODULE + ":1.0.0", Duration.ofSeconds(20));
                if (!app.answered() || app.error) {
                    throw new IllegalStateException("the push of " + VerbLoad.APP_MODULE + " was not answered ("
                            + app.errorCode + "); the server's log:\n" + server.log());
                }
                load.start();
                Thread.sleep(options.warmup().toMillis());
                long steadyFrom = System.nanoTime();
                Thread.sleep(options.steady().toMillis());
                long steadyTo = System.nanoTime();

                Lab lab = new Lab(mesh, host, builder, verbs, node, dir, instances, injections, problems);
                steps.add(lab.step("move", "1", Map.of(), true));
                steps.add(lab.step("upgrade", "2", Map.of(), true));
                steps.add(lab.step("rollback", "1", Map.of(), true));
                steps.add(lab.step("failed", "3", Map.of("MESH_BUS_NATS_FILE", dir.resolve("missing.json").toString()),
                        false));
                steps.add(lab.step("again", "1", Map.of(), true));
                Thread.sleep(2_000);

                List<Call> calls = load.stop(Duration.ofSeconds(20));
                long end = System.nanoTime();
                // Each SIGTERM the host sent is a line of its own: the gap from it is the handover's, apart
                // from the gap while the new version prepared and started beside the old one.
                List<String> exits = host.realExits();
                List<Long> signalled = host.realSignalled();
                for (int i = 0; i < exits.size(); i++) {
                    injections.add(new Injection(SIGTERM, signalled.get(i), exits.get(i)));
                }
                injections.sort(java.util.Comparator.comparingLong(Injection::nanos));
                HandoverDriver.record(dir, calls, load.events(), injections);
                Verdict verdict = HandoverHistory.judge(calls, load.events(), instances, injections, steadyFrom,
                        steadyTo, end);
                return new Outcome(verdict, steps, host.realExits(), HandoverDriver.handovers(mesh),
                        HandoverDriver.count(mesh, "SELECT count(*) FROM module_versions WHERE module = '"
                                + VerbLoad.LOAD_MODULE + "'"), HandoverDriver.countLoadPushes(calls), problems, dir);
            } finally {
                server.stop();
            }
        }
    }

    /** The run's lab: pushes the controller's module and follows each step to its end. */
    private record Lab(HandoverMesh mesh, SimulatedHost host, SimulatedBuilder builder, BrokerUpstream verbs,
            String node, Path dir, Set<String> instances, List<Injection> injections, List<String> problems) {

        /**
         * Pushes the module at {@code version} (assigning it to the node the first time) and waits until
         * the node runs it and it holds the lock — or, for a version that must not start, until the host
         * reported it failed while the version before stays active.
         */
        Step step(String name, String version, Map<String, String> envChanges, boolean starts)
                throws InterruptedException, SQLException {
            Map<String, String> env = new LinkedHashMap<>(mesh.env());
            env.putAll(envChanges);
            long pushed = System.nanoTime();
            injections.add(new Injection(name, pushed, "version " + version));
            String holderBefore = HandoverDriver.leadership(mesh).holder();
            int ordersBefore = builder.orders().size();
            int receivedBefore = host.received().size();
            int reportsBefore = host.reports();
            // Pushed back to the version it runs (after a failed one): nothing is delivered, nothing applied.
            boolean running = version.equals(host.realVersions().get(PROCESS));
            JsonNode push = call("push", Map.of("manifest", manifest(version, env)));
            if (push.path("isError").asBoolean()) {
                problems.add(name + ": push refused: " + push);
            }
            if (injections.size() == 1) {
                call("assign", Map.of("module", MODULE, "node", node));
            }
            Map<String, Long> milestones = new LinkedHashMap<>();
            String build = "build:" + MODULE + "@" + version + "/controller";
            long deadline = pushed + STEP_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                long now = System.nanoTime();
                mark(milestones, "built", pushed, now, () -> builder.orders().stream().skip(ordersBefore)
                        .anyMatch(build::equals));
                mark(milestones, "delivered", pushed, now, () -> host.received().size() > receivedBefore);
                // The report first, then the version: the host names the version running before it reports the
                // step applied, so a round that sees the report sees the version too, and "running" is marked no
                // later than the round that ends the step (read the other way round, it was not, once in CI).
                boolean applied = host.reports() > reportsBefore;
                boolean runsIt = version.equals(host.realVersions().get(PROCESS));
                mark(milestones, "running", pushed, now, () -> runsIt);
                String holder = HandoverDriver.leadership(mesh).holder();
                // Active: a live process of this version holds the plan lock, from the moment it took it (the
                // host names it the running version only once the old one has exited, some 0.8 s later).
                Optional<String> holding = host.realLiveVersions().entrySet().stream()
                        .filter(live -> holder.endsWith(":" + live.getKey())).map(Map.Entry::getValue).findFirst();
                mark(milestones, "active", pushed, now, () -> holding.filter(version::equals).isPresent());
                mark(milestones, "applied", pushed, now, () -> applied);
                if (holding.isPresent()) {
                    instances.add(holder);
                }
                boolean done = starts ? milestones.containsKey("active") && (running || milestones.containsKey("applied"))
                        && planEmpty() : milestones.containsKey("applied");
                if (done) {
                    break;
                }
                Thread.sleep(20);
            }
            String outcome;
            if (starts && !(milestones.containsKey("active") && (running || milestones.containsKey("applied")))) {
                outcome = "not done within " + STEP_TIMEOUT.toSeconds() + " s";
                problems.add(name + " (version " + version + "): " + outcome + "; milestones " + milestones
                        + "; the host's log: " + dir.resolve("host/logs"));
            } else if (!starts) {
                String holder = HandoverDriver.leadership(mesh).holder();
                JsonNode rollout = call("node", Map.of("name", node)).path("structuredContent");
                outcome = "failed as it must: " + rollout.path("rollout").path("failed");
                if (!holder.equals(holderBefore)) {
                    problems.add(name + ": the lock moved from " + holderBefore + " to " + holder
                            + " although version " + version + " cannot start");
                }
                if (!milestones.containsKey("applied")) {
                    problems.add(name + ": the host reported nothing about version " + version);
                }
            } else {
                JsonNode failure = call("node", Map.of("name", node)).at("/structuredContent/rollout/failed");
                outcome = "version " + version + " active, plan empty" + (failure.isMissingNode() || failure.isNull()
                        ? "" : ", and a failure still stands: " + failure);
                if (!failure.isMissingNode() && !failure.isNull()) {
                    problems.add(name + ": " + outcome);
                }
            }
            return new Step(name, version, milestones, host.realTimings().getOrDefault(PROCESS, Map.of()), outcome);
        }

        private boolean planEmpty() {
            return call("plan", Map.of()).at("/structuredContent/plan/changes").isEmpty();
        }

        private static void mark(Map<String, Long> milestones, String name, long since, long now,
                BooleanSupplier reached) {
            if (!milestones.containsKey(name) && reached.getAsBoolean()) {
                milestones.put(name, (now - since) / 1_000_000);
            }
        }

        private JsonNode call(String verb, Map<String, Object> arguments) {
            Map<String, Object> request = Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call", "params",
                    Map.of("name", verb, "arguments", arguments));
            return verbs.exchange(JSON.valueToTree(request)).orElseThrow().path("result");
        }

        /**
         * The controller's module as the lab runs it: the process and artifact of the project's
         * {@code manifest.json} (overlap, replaces {@code server}, prepares), with this lab's addresses
         * and credentials files as its environment, and the lab's own account.
         */
        private ObjectNode manifest(String version, Map<String, String> env) {
            ObjectNode manifest = JSON.createObjectNode();
            manifest.put("module", MODULE).put("version", version).put("prepares", true);
            manifest.putArray("claims").addObject().put("name", "mesh-controller").put("scope", "mesh");
            var resources = manifest.putArray("resources");
            String user = System.getProperty("user.name");
            if (!user.equals("root")) {
                resources.addObject().put("id", "account").put("type", "user").put("name", user);
            }
            ObjectNode process = resources.addObject().put("id", "controller").put("type", "process")
                    .put("name", PROCESS).put("artifact", "controller").put("user", user).put("overlap", true);
            process.putArray("run").add("./mesh-controller").add("serve");
            process.putArray("replaces").add("server");
            ObjectNode variables = process.putObject("env");
            env.forEach(variables::put);
            manifest.putObject("build").putArray("artifacts").addObject().put("name", "controller").put("kind", "bundle")
                    .put("language", "java").put("system", SYSTEM).put("from", "controller-launcher")
                    .put("binary", "mesh-controller");
            return manifest;
        }
    }

    static void print(Outcome outcome) {
        Verdict v = outcome.verdict();
        System.out.printf(Locale.ROOT, "upgrade: sent %d, answered %d, lost %d, retried %d, client errors %d %s, "
                + "duplicated effects %d, overlapping epochs %s, stale events %d; floor gap %.1f ms, steady p99 %.1f ms%n",
                v.sent(), v.answered(), v.lost(), v.retried(), v.clientErrorCount(), v.clientErrors(),
                v.duplicatedEffects(), v.overlappingEpochs(), v.staleEvents(), v.floorMs(), v.steadyP99Ms());
        for (Step step : outcome.steps()) {
            System.out.printf(Locale.ROOT, "  %-9s version %s: milestones %s; host %s; %s%n", step.name(),
                    step.version(), step.milestones(), step.host(), step.outcome());
        }
        for (HandoverHistory.Recovery recovery : v.recoveries()) {
            System.out.printf(Locale.ROOT, "  gap from %s (%s) to the next: %.1f ms%n", recovery.injection().what(),
                    recovery.injection().victim(), recovery.gapMs());
        }
        System.out.println("  exits: " + outcome.exits());
        System.out.println("  handovers: " + outcome.handovers());
        System.out.println("  pushes stored " + outcome.versionsStored() + " of " + outcome.pushesAcknowledged()
                + " acknowledged; problems: " + outcome.problems() + "; logs in " + outcome.dir());
    }
}
