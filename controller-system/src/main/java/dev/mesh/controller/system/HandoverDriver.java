package dev.mesh.controller.system;

import dev.mesh.controller.system.HandoverHistory.Injection;
import dev.mesh.controller.system.HandoverHistory.Verdict;
import dev.mesh.controller.system.VerbLoad.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Issue 13's handover driver: mesh controllers as separate processes of the bundle on the local
 * PostgreSQL, RabbitMQ and NATS ({@link HandoverMesh}), under an open-loop load of verbs over the
 * broker ({@link VerbLoad}), while one scenario injects its fault again and again; then what was
 * recorded is judged ({@link HandoverHistory}) and the store is read for what it holds: the pushed
 * versions (one per acknowledged push), the handovers, and every delivery written under an epoch after
 * the next epoch was taken (a stale write accepted).
 *
 * <p>Scenarios, each on a mesh of its own, two controllers (one active, one standby) at all times but
 * during the fault:
 * <ul>
 *   <li>{@code planned} — SIGTERM of the active; a new standby is started 2 s after the takeover;</li>
 *   <li>{@code planned-racing} — the same, the new standby started at once, during the handover;</li>
 *   <li>{@code kill-active} — SIGKILL of the active; a new standby is started;</li>
 *   <li>{@code kill-standby} — SIGKILL of the standby; a new one is started;</li>
 *   <li>{@code stop-8}, {@code stop-30} — SIGSTOP of the active for 8 s or 30 s, then SIGCONT: it must
 *       rejoin as a standby, and nothing it does after that may be accepted;</li>
 *   <li>{@code terminate-lock} — {@code pg_terminate_backend} of the active's lock session;</li>
 *   <li>{@code simultaneous} — every controller stopped, then three started at once: exactly one active
 *       and one lock holder; one of the standbys is then stopped.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar dev.mesh.controller.system.HandoverDriver [--scenarios planned,kill-active,…|all]
 *     [--repeat N] [--rate 200] [--push-every 20] [--warmup 10] [--steady 20] [--settle 3]
 *     [--bundle controller-launcher/target/mesh-controller/mesh-controller]
 * </pre>
 * {@code --repeat} overrides every scenario's count (defaults: planned 50, planned-racing 5, kill-active 20,
 * kill-standby 5,
 * stop-8 3, stop-30 2, terminate-lock 5, simultaneous 5). Prints one block per scenario and a table.
 */
public final class HandoverDriver {

    static final Map<String, Integer> SCENARIOS = scenarios();
    /** The plan lock's session: an advisory lock granted in the run's inventory database (pg_locks spans the server). */
    static final String OUR_LOCKS = "locktype = 'advisory' AND granted AND database = (SELECT oid "
            + "FROM pg_database WHERE datname = current_database())";
    /** How long after a takeover the replacement standby is started. */
    private static final Duration AFTER_TAKEOVER = Duration.ofSeconds(2);
    /** The line of a replacement standby's start among the faults. */
    static final String STARTED = "standby started";
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    static final Duration TAKEOVER_TIMEOUT = Duration.ofSeconds(60);

    /** What a run is asked to do. */
    record Options(List<String> scenarios, int repeat, double rate, int pushEvery, Duration warmup, Duration steady,
            Duration settle, Path bundle) {
    }

    /** A scenario's outcome: the verdict on the history, and what the store and the processes said. */
    record Outcome(String scenario, int cycles, Verdict verdict, long versionsStored, long pushesAcknowledged,
            int staleDeliveries, List<String> handovers, List<String> exits, List<String> problems) {

        /** @return whether nothing was lost, duplicated, overlapped or accepted stale, and no cycle went wrong */
        boolean safe() {
            return verdict.lost() == 0 && verdict.duplicatedEffects() == 0 && verdict.overlappingEpochs().isEmpty()
                    && verdict.mutationsOutOfOrder() == 0 && verdict.staleEvents() == 0 && staleDeliveries == 0
                    && versionsStored == pushesAcknowledged && problems.isEmpty();
        }
    }

    private HandoverDriver() {
    }

    /**
     * Runs the scenarios asked and prints the results.
     *
     * @param args options, see the class
     * @throws Exception when a part fails
     */
    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        List<Outcome> outcomes = new ArrayList<>();
        for (String scenario : options.scenarios()) {
            Outcome outcome = run(scenario, options);
            print(outcome);
            outcomes.add(outcome);
        }
        System.out.println();
        System.out.println(table(outcomes, options.rate()));
        if (outcomes.stream().anyMatch(o -> !o.safe())) {
            System.exit(1);
        }
    }

    /**
     * Runs one scenario on a mesh of its own.
     *
     * @param scenario one of {@link #SCENARIOS}
     * @param options the run's options ({@code repeat} 0: the scenario's own count)
     * @return what it saw
     */
    static Outcome run(String scenario, Options options) throws IOException, InterruptedException, TimeoutException,
            SQLException {
        if (!SCENARIOS.containsKey(scenario)) {
            throw new IllegalArgumentException("no scenario " + scenario + "; there are " + SCENARIOS.keySet());
        }
        int cycles = options.repeat() > 0 ? options.repeat() : SCENARIOS.get(scenario);
        String run = "ho" + UUID.randomUUID().toString().substring(0, 6);
        Path dir = Files.createTempDirectory("handover-" + scenario + "-");
        System.out.printf(Locale.ROOT, "handover %s: %d cycles at %.0f verbs/s, run %s, logs in %s%n", scenario,
                cycles, options.rate(), run, dir);
        List<ControllerProcess> all = new ArrayList<>();
        List<Injection> injections = new ArrayList<>();
        List<String> exits = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (HandoverMesh mesh = HandoverMesh.create(options.bundle(), dir)) {
            ControllerPool pool = new ControllerPool(mesh, all);
            pool.start(1);
            pool.start(1);
            try (VerbLoad load = VerbLoad.open(mesh, run, options.rate(), options.pushEvery())) {
                Call app = load.callAndWait(VerbLoad.Kind.PUSH, VerbLoad.APP_MODULE + ":1.0.0",
                        Duration.ofSeconds(20));
                if (!app.answered() || app.error) {
                    throw new IllegalStateException("the push of " + VerbLoad.APP_MODULE + " was not answered ("
                            + app.errorCode + "); the active controller's log:\n" + pool.active().log());
                }
                load.start();
                // The controllers' first seconds under load are their JIT's: the floor is measured after them.
                Thread.sleep(options.warmup().toMillis());
                long steadyFrom = System.nanoTime();
                Thread.sleep(options.steady().toMillis());
                long steadyTo = System.nanoTime();
                for (int cycle = 0; cycle < cycles; cycle++) {
                    cycle(scenario, pool, mesh, injections, exits, problems);
                    Thread.sleep(options.settle().toMillis());
                }
                List<Call> calls = load.stop(Duration.ofSeconds(20));
                long end = System.nanoTime();
                record(dir, calls, load.events(), injections);
                Set<String> instances = all.stream().map(ControllerProcess::instance).collect(Collectors.toSet());
                Verdict verdict = HandoverHistory.judge(calls, load.events(), instances, injections, steadyFrom,
                        steadyTo, end);
                return new Outcome(scenario, cycles, verdict, count(mesh, "SELECT count(*) FROM module_versions "
                        + "WHERE module = '" + VerbLoad.LOAD_MODULE + "'"), countLoadPushes(calls), (int) count(mesh,
                        "SELECT count(*) FROM deliveries d JOIN handovers h ON h.epoch_new > d.epoch "
                                + "WHERE d.delivered_at > h.taken_at"), handovers(mesh), exits, problems);
            } finally {
                for (ControllerProcess controller : all) {
                    controller.stop();
                }
            }
        }
    }

    /**
     * Writes the run's history beside its logs: {@code calls.csv} (every request: id, kind, subject, sent,
     * retried, replied in ms from the first send, replies, epoch, instance, error), {@code events.csv} (every event
     * heard: when, kind, epoch, instance, in the order heard) and {@code faults.csv}.
     */
    static void record(Path dir, List<Call> calls, List<VerbLoad.Event> events, List<Injection> injections)
            throws IOException {
        long zero = calls.isEmpty() ? 0 : calls.getFirst().sentNanos;
        StringBuilder csv = new StringBuilder("id,kind,subject,sent_ms,retried_ms,replied_ms,replies,epoch,instance,"
                + "error\n");
        for (Call c : calls) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%s,%s,%d,%d,%s,%s%n", c.id, c.kind, c.subject,
                    (c.sentNanos - zero) / 1e6, c.retriedNanos == 0 ? "" : String.format(Locale.ROOT, "%.3f",
                            (c.retriedNanos - zero) / 1e6), c.answered() ? String.format(Locale.ROOT, "%.3f",
                            (c.repliedNanos - zero) / 1e6) : "", c.replies, c.epoch, c.instance, c.errorCode));
        }
        Files.writeString(dir.resolve("calls.csv"), csv);
        StringBuilder heard = new StringBuilder("heard_ms,kind,epoch,instance\n");
        for (VerbLoad.Event e : events) {
            heard.append(String.format(Locale.ROOT, "%.3f,%s,%d,%s%n", (e.nanos() - zero) / 1e6, e.kind(), e.epoch(),
                    e.instance()));
        }
        Files.writeString(dir.resolve("events.csv"), heard);
        StringBuilder faults = new StringBuilder("what,at_ms,victim\n");
        for (Injection i : injections) {
            faults.append(String.format(Locale.ROOT, "%s,%.3f,%s%n", i.what(), (i.nanos() - zero) / 1e6, i.victim()));
        }
        Files.writeString(dir.resolve("faults.csv"), faults);
    }

    static long countLoadPushes(List<Call> calls) {
        // Any reply that succeeded: a first reply unavailable (the controller lost its lock) may be followed by
        // the retry's success from its successor.
        return calls.stream().filter(c -> c.kind == VerbLoad.Kind.PUSH && c.subject.startsWith(VerbLoad.LOAD_MODULE
                + ":") && c.succeeded).count();
    }

    /** One fault, and the wait until the mesh is whole again: one active, one standby. */
    private static void cycle(String scenario, ControllerPool pool, HandoverMesh mesh, List<Injection> injections,
            List<String> exits, List<String> problems) throws InterruptedException, SQLException {
        long epoch = leadership(mesh).epoch();
        switch (scenario) {
            case "planned" -> {
                ControllerProcess active = pool.active();
                injections.add(new Injection("SIGTERM", System.nanoTime(), active.instance()));
                active.terminate();
                exits.add("SIGTERM " + active.awaitExit(EXIT_TIMEOUT));
                pool.awaitTakeover(epoch, active, problems);
                replace(pool, injections);
            }
            case "planned-racing" -> {
                // A standby started during the handover: its JVM's start competes with the successor's first second.
                ControllerProcess active = pool.active();
                injections.add(new Injection("SIGTERM, a standby started at once", System.nanoTime(),
                        active.instance()));
                active.terminate();
                ControllerProcess next = pool.launch();
                exits.add("SIGTERM " + active.awaitExit(EXIT_TIMEOUT));
                pool.awaitTakeover(epoch, active, problems);
                next.awaitReady();
            }
            case "kill-active" -> {
                ControllerProcess active = pool.active();
                injections.add(new Injection("SIGKILL active", System.nanoTime(), active.instance()));
                active.kill();
                exits.add("SIGKILL " + active.awaitExit(EXIT_TIMEOUT));
                pool.awaitTakeover(epoch, active, problems);
                replace(pool, injections);
            }
            case "kill-standby" -> {
                ControllerProcess standby = pool.standbys().getFirst();
                injections.add(new Injection("SIGKILL standby", System.nanoTime(), standby.instance()));
                standby.kill();
                exits.add("SIGKILL " + standby.awaitExit(EXIT_TIMEOUT));
                replace(pool, injections);
                if (leadership(mesh).epoch() != epoch) {
                    problems.add("the epoch moved from " + epoch + " when only a standby was killed");
                }
            }
            case "stop-8", "stop-30" -> {
                int seconds = Integer.parseInt(scenario.substring("stop-".length()));
                ControllerProcess active = pool.active();
                injections.add(new Injection("SIGSTOP " + seconds + " s", System.nanoTime(), active.instance()));
                active.freeze();
                Thread.sleep(seconds * 1000L);
                active.thaw();
                pool.awaitTakeover(epoch, active, problems);
                // Thawed, it must rejoin as a standby: alive, not the holder.
                Thread.sleep(3_000);
                if (!active.isAlive()) {
                    exits.add("after SIGCONT " + active.awaitExit(Duration.ZERO));
                    pool.start(1);
                } else if (leadership(mesh).holder().equals(active.instance())) {
                    problems.add(active + " holds the lock again right after its freeze");
                }
            }
            case "terminate-lock" -> {
                ControllerProcess active = pool.active();
                injections.add(new Injection("pg_terminate_backend", System.nanoTime(), active.instance()));
                int terminated = (int) count(mesh, "SELECT count(pg_terminate_backend(pid)) FROM pg_locks "
                        + "WHERE " + OUR_LOCKS);
                if (terminated != 1) {
                    problems.add("terminated " + terminated + " lock sessions, not 1");
                }
                pool.awaitNewEpoch(epoch, problems);
                if (pool.live().size() < 2) {
                    pool.start(2 - pool.live().size());
                }
            }
            case "simultaneous" -> {
                for (ControllerProcess controller : pool.live()) {
                    controller.terminate();
                }
                for (ControllerProcess controller : pool.live()) {
                    exits.add("SIGTERM " + controller.awaitExit(EXIT_TIMEOUT));
                }
                injections.add(new Injection("3 started at once", System.nanoTime(), ""));
                List<ControllerProcess> started = pool.start(3);
                long active = started.stream().filter(c -> c.readyRole().equals("active")).count();
                pool.awaitNewEpoch(epoch, problems);
                Thread.sleep(2_000);
                long holders = count(mesh, "SELECT count(*) FROM pg_locks WHERE " + OUR_LOCKS);
                if (active > 1 || holders != 1) {
                    problems.add("3 started at once: " + active + " ready as active, " + holders + " lock holders");
                }
                ControllerProcess extra = pool.standbys().getFirst();
                extra.terminate();
                exits.add("SIGTERM standby " + extra.awaitExit(EXIT_TIMEOUT));
            }
            default -> throw new IllegalArgumentException(scenario);
        }
    }

    /**
     * Starts the standby that replaces the one gone, {@link #AFTER_TAKEOVER} after the takeover: on two cores
     * a JVM starting takes the CPU the successor answers with, so the fault's gap is measured before it, and
     * the start is a line of its own ({@value #STARTED}; {@code planned-racing} starts it at once instead).
     */
    private static void replace(ControllerPool pool, List<Injection> injections) throws InterruptedException {
        Thread.sleep(AFTER_TAKEOVER.toMillis());
        injections.add(new Injection(STARTED, System.nanoTime(), ""));
        pool.start(1);
    }

    /** The leadership row. */
    record Leadership(long epoch, String holder) {
    }

    static Leadership leadership(HandoverMesh mesh) throws SQLException {
        try (Connection connection = mesh.inventory().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT epoch, holder FROM leadership")) {
            row.next();
            return new Leadership(row.getLong(1), row.getString(2));
        }
    }

    static long count(HandoverMesh mesh, String sql) throws SQLException {
        try (Connection connection = mesh.inventory().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    static List<String> handovers(HandoverMesh mesh) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = mesh.inventory().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT epoch_old, epoch_new, how, gap_ms, from_instance, "
                        + "to_instance FROM handovers ORDER BY epoch_new")) {
            while (row.next()) {
                rows.add(String.format(Locale.ROOT, "%d→%d %s gap=%s %s→%s", row.getLong(1), row.getLong(2),
                        row.getString(3), row.getObject(4), row.getString(5), row.getString(6)));
            }
        }
        return rows;
    }

    static void print(Outcome outcome) {
        Verdict v = outcome.verdict();
        System.out.printf(Locale.ROOT, "handover %s: %d cycles; sent %d, answered %d, lost %d, retried %d, client errors "
                + "%d %s, duplicated effects %d, assignments unchanged %d, mutations out of epoch order %d, "
                + "overlapping epochs %s, stale events %d, stale deliveries %d, versions stored %d of %d acknowledged%n",
                outcome.scenario(), outcome.cycles(), v.sent(), v.answered(), v.lost(), v.retried(),
                v.clientErrorCount(), v.clientErrors(), v.duplicatedEffects(), v.assignmentsUnchanged(),
                v.mutationsOutOfOrder(), v.overlappingEpochs(), v.staleEvents(), outcome.staleDeliveries(),
                outcome.versionsStored(), outcome.pushesAcknowledged());
        System.out.printf(Locale.ROOT, "handover %s: floor (steady, no fault) longest gap %.1f ms, p99 %.1f ms; "
                + "after a fault: median gap %.1f ms, longest %.1f ms, answered again at most %.1f ms after it; "
                + "after a standby's start: longest gap %.1f ms%n",
                outcome.scenario(), v.floorMs(), v.steadyP99Ms(), v.medianGapMs(), v.worstGapMs(),
                v.worstAnsweredAgainMs(), v.worstStartGapMs());
        for (HandoverHistory.Recovery recovery : v.recoveries()) {
            System.out.printf(Locale.ROOT, "  %s of %s: gap %.1f ms, answered again after %.1f ms%n",
                    recovery.injection().what(), recovery.injection().victim(), recovery.gapMs(),
                    recovery.answeredAgainMs());
        }
        System.out.println("  exits: " + outcome.exits());
        System.out.println("  handovers: " + outcome.handovers());
        if (!outcome.problems().isEmpty()) {
            System.out.println("  PROBLEMS: " + outcome.problems());
        }
    }

    static String table(List<Outcome> outcomes, double rate) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "| scenario (%.0f verbs/s) | cycles | sent | "
                + "lost | client errors | duplicated effects | overlapping epochs | stale writes | floor gap (ms) | "
                + "median gap (ms) | longest gap (ms) | answered again (ms) | gap after a start (ms) |%n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", rate));
        for (Outcome o : outcomes) {
            Verdict v = o.verdict();
            table.append(String.format(Locale.ROOT, "%n| %s | %d | %,d | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f | "
                    + "%.1f | %.1f |", o.scenario(), o.cycles(), v.sent(), v.lost(), v.clientErrorCount(),
                    v.duplicatedEffects(), v.overlappingEpochs().size() + v.mutationsOutOfOrder(),
                    v.staleEvents() + o.staleDeliveries(), v.floorMs(), v.medianGapMs(), v.worstGapMs(),
                    v.worstAnsweredAgainMs(), v.worstStartGapMs()));
        }
        return table.toString();
    }

    static Options parse(String[] args) {
        List<String> scenarios = new ArrayList<>(SCENARIOS.keySet());
        int repeat = 0;
        double rate = 200;
        int pushEvery = 20;
        Duration warmup = Duration.ofSeconds(10);
        Duration steady = Duration.ofSeconds(20);
        Duration settle = Duration.ofSeconds(3);
        Path bundle = Path.of("controller-launcher/target/mesh-controller/mesh-controller");
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--scenarios" -> scenarios = value.equals("all") ? scenarios : Arrays.asList(value.split(","));
                case "--repeat" -> repeat = Integer.parseInt(value);
                case "--rate" -> rate = Double.parseDouble(value);
                case "--push-every" -> pushEvery = Integer.parseInt(value);
                case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(value));
                case "--steady" -> steady = Duration.ofSeconds(Long.parseLong(value));
                case "--settle" -> settle = Duration.ofSeconds(Long.parseLong(value));
                case "--bundle" -> bundle = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!Files.isExecutable(bundle)) {
            throw new UncheckedIOException(new IOException("no bundle launcher at " + bundle.toAbsolutePath()
                    + "; build it (bin/dev mvn -B -q -DskipTests package) or give --bundle"));
        }
        return new Options(List.copyOf(scenarios), repeat, rate, pushEvery, warmup, steady, settle, bundle);
    }

    private static Map<String, Integer> scenarios() {
        Map<String, Integer> scenarios = new LinkedHashMap<>();
        scenarios.put("planned", 50);
        scenarios.put("planned-racing", 5);
        scenarios.put("kill-active", 20);
        scenarios.put("kill-standby", 5);
        scenarios.put("stop-8", 3);
        scenarios.put("stop-30", 2);
        scenarios.put("terminate-lock", 5);
        scenarios.put("simultaneous", 5);
        return scenarios;
    }
}
