package dev.mesh.controller.launcher;

import dev.mesh.controller.bus.BrokerConsumers;
import dev.mesh.controller.bus.BusWire;
import dev.mesh.controller.bus.LoggedRounds;
import dev.mesh.controller.bus.MeshBus;
import dev.mesh.controller.cli.CommandException;
import dev.mesh.controller.cli.GenesisImport;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.core.Closer;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.execute.Executor;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.handover.ControllerLifecycle;
import dev.mesh.controller.handover.FeedRule;
import dev.mesh.controller.handover.Handover;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.handover.Instance;
import dev.mesh.controller.handover.LeaseRenewal;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.mcp.PrometheusMetrics;
import dev.mesh.controller.mcp.StandbyWarmup;
import dev.mesh.controller.store.ConnectionPool;
import dev.mesh.controller.store.KnownNodes;
import dev.mesh.controller.store.PgIdentity;
import dev.mesh.controller.store.StorePorts;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mesh's controller (docs/design.md sections 7 to 11): the store's three databases, the broker's verbs,
 * reports, declarations and builds, the bus's facts and events, and the executor that carries out the
 * plan while this controller holds the plan lock; optionally the verbs over loopback HTTP too. What
 * {@code serve} without {@code --dev} runs.
 *
 * <p>The life cycle is docs/design.md section 10's, run by {@link Handover} on the broker's single-active
 * consumer of the verbs' queue ({@link BrokerConsumers}): every controller starts a standby; the one the
 * broker feeds takes the plan lock and becomes active; the others answer reads, refuse what needs the
 * lock and plan nothing. {@link #close()} (SIGTERM) is the planned release: the next controller is fed
 * and takes over as soon as this one has let go of the lock.
 */
final class MeshController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MeshController.class);
    /** How long an answer of the identity store is remembered: a grant or a revoke takes effect within it. */
    static final Duration IDENTITY_TTL = Duration.ofSeconds(1);
    /** How soon the executor takes up what facts may have settled (see {@link Executor}). */
    static final Duration EXECUTOR_TICK = Duration.ofMillis(500);

    private final String instance;
    private final Lifecycle lifecycle;
    private final Handover handover;
    private final Duration settle;
    private final Optional<McpHttpServer> http;
    private final Closer opened;

    private MeshController(String instance, Lifecycle lifecycle, Handover handover, Duration settle,
            Optional<McpHttpServer> http, Closer opened) {
        this.instance = instance;
        this.settle = settle;
        this.lifecycle = lifecycle;
        this.handover = handover;
        this.http = http;
        this.opened = opened;
    }

    /**
     * Connects to everything, checks the schemas and the broker's topology, and starts serving.
     *
     * @param config the checked environment
     * @param http where to serve the verbs over HTTP too, with its token; empty for no HTTP
     * @return the running controller
     * @throws dev.mesh.controller.manifest.MeshException when a part cannot be reached or refuses (the
     *     store's, the bus's category), or a schema is behind; what was opened is closed again
     * @throws CommandException when {@code MESH_GENESIS_FILE} names a file with problems (its located problems
     *     are the cause): before anything connects. Once active, the controller imports that file into an
     *     inventory without assignments ({@link GenesisImport})
     */
    static MeshController start(Config.Serve config, Optional<McpHttpServer.Config> http) {
        // Before anything connects: a genesis file with problems stops the start with them.
        Optional<GenesisImport> genesis = GenesisImport.read(config.genesis());
        Closer opened = new Closer();
        Clock clock = Clock.systemUTC();
        String instance = Instance.id();
        AtomicReference<Runnable> onActivated = new AtomicReference<>(() -> { });
        try {
            config.stores().requireUpToDate();
            HandoverSettings timings = config.handover();
            StorePorts store = opened.open(StorePorts.open(config.stores().inventory(), config.stores().licences(),
                    instance, Optional.of(timings.lease())));
            store.lock().warm();
            ControllerLifecycle lifecycle = opened.open(ControllerLifecycle.standby(store.lock(), instance, clock));
            ConnectionPool identityPool = opened.open(ConnectionPool.open(config.stores().identity(), 2));
            // Every verb and report asks who may: the store is asked once a second per principal and verb.
            PgIdentity principals = new PgIdentity(identityPool.dataSource());
            Identity identity = Identity.remembering(principals, IDENTITY_TTL, clock);

            MeshBus bus = opened.open(MeshBus.open(new MeshBus.Settings(config.broker().settings(config.certificate()),
                    config.management(), config.nats().settings(), instance, timings.heartbeat()), principals::enabled,
                    store.inventory(), lifecycle, clock));
            Execution execution = Execution.of(new Execution.Ports(store.inventory(), bus.deliveries(),
                    bus.builders(), bus.events(), Layout.DEFAULT, clock));
            PrometheusMetrics metrics = new PrometheusMetrics(lifecycle);
            Executor executor = Executor.start(execution, lifecycle, EXECUTOR_TICK,
                    metrics.counting(new LoggedRounds()));
            opened.onClose(executor::close);
            Events events = (kind, payload) -> {
                if (Lifecycle.HANDOVER.equals(kind)) {
                    LOG.info("handover activated instance={} epoch={} previous={} how={} gapMs={}", instance,
                            payload.get("epochNew"), payload.get("from"), payload.get("how"), payload.get("gapMs"));
                    onActivated.get().run();
                    bus.activated();
                }
                // Events are not fenced: one a thawed controller holds from before its freeze would go out under
                // an epoch that has ended. The plan's events go out only while the store confirms the lock within
                // its lease (asked again when the last confirmation is older); docs/handover.md, "Events".
                if (!store.lock().confirmed()) {
                    LOG.warn("event not published kind={} epoch={} reason=\"the plan lock is no longer confirmed "
                            + "within its lease: another controller may be active\"", kind, lifecycle.status().epoch());
                    return;
                }
                bus.events().publish(kind, payload);
                executor.changed();
            };
            store.lock().onFailover((from, to) -> bus.failover("store", from, to));
            StoreMetrics.register(metrics.registry(), PrometheusMetrics.PREFIX, store.lock());
            // Reports and facts in before the verbs: status's bus counts them (BusWire), and neither needs a verb.
            // Facts only from a known principal or a node the inventory holds (docs/security.md).
            KnownNodes known = opened.open(KnownNodes.start(principals, store.inventory()));
            BusWire wire = bus.listen(identity, executor::record, known, store.inventory(), metrics.registry(),
                    PrometheusMetrics.PREFIX);
            Assembly assembly = opened.open(Assembly.of(new Verbs.Ports(store.inventory(), store.licences(),
                    lifecycle, events, store.requests(), Layout.DEFAULT, clock, wire.with("store",
                    store.lock()::primary), metrics), identity,
                    JarVersion.version()));
            assembly.renewStatus(Assembly.STATUS_EVERY);
            opened.open(LeaseRenewal.start(lifecycle, timings.leaseRenewal(),
                    e -> LOG.warn("plan lock check failed reason=\"{}\"", e.getMessage())));
            // Only the active controller writes: the first import of the genesis file follows an activation.
            genesis.ifPresent(g -> onActivated.set(() -> g.activated(store.inventory(), assembly.verbs())));

            // A standby until the broker feeds it; each activation publishes mesh.events.handover and starts a round.
            BrokerConsumers consumers = bus.serve(assembly.verbs(), identity, JarVersion.version(), lifecycle,
                    FeedRule.of(timings));
            Handover handover = Handover.start(lifecycle, consumers, timings.settle(), events);
            opened.onClose(handover::stop);
            Thread warmup = StandbyWarmup.start(assembly.verbs(), identity, JarVersion.version(), lifecycle);
            Optional<McpHttpServer> server = http.map(listen -> assembly.serveHttp(listen, metrics.exposition()));
            awaitReady(lifecycle, warmup, timings.readyWait(), timings.holderLookEvery());
            Lifecycle.Status status = lifecycle.status();
            LOG.info("controller started mode=mesh instance={} role={} epoch={} broker={} nats={}{}", instance,
                    status.role().label(), status.epoch(), bus.broker().where(), config.nats().url(),
                    server.map(s -> " url=" + s.endpoint()).orElse(""));
            return new MeshController(instance, lifecycle, handover, timings.settle(), server, opened);
        } catch (RuntimeException e) {
            opened.closeAll().forEach(e::addSuppressed);
            throw e;
        }
    }

    /**
     * Waits at most {@code wait} for the broker to make this controller active: a standby stays one. A standby
     * beside another controller that holds the plan lock is ready once it is warm ({@link StandbyWarmup}): the
     * broker feeds the holder, not it, and a host stops the old one when the new one is ready (an upgrade's
     * overlap), so the new one must by then answer as fast as the old one did, not take over cold
     * (docs/handover.md, "Warm standby").
     */
    private static void awaitReady(ControllerLifecycle lifecycle, Thread warmup, Duration wait, Duration lookEvery) {
        long started = System.nanoTime();
        try {
            // The warm-up ends by itself once the broker made this controller active.
            warmup.join(wait);
            Duration left = wait.minusNanos(System.nanoTime() - started);
            if (!left.isNegative()) {
                lifecycle.awaitSettled(left, lookEvery);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the line {@code serve} prints once it serves */
    String readyLine() {
        Lifecycle.Status status = lifecycle.status();
        return "mesh-controller ready: " + instance + " " + status.role().label() + " (epoch " + status.epoch() + ")"
                + http.map(s -> ", verbs also on " + s.endpoint()).orElse("");
    }

    /**
     * The planned release (SIGTERM), docs/design.md section 10: the handover stops plan work, hands the verbs'
     * queue over to the next controller, waits at most the settle time ({@link HandoverSettings#settle()}) for what this one holds, releases
     * the lock; then every connection is closed, the last opened first.
     *
     * @throws CommandException when it did not stop cleanly: verbs were still held
     *     after the settle time (the broker gives them to the next controller once the connection closes),
     *     or something did not close; everything else is closed all the same
     */
    @Override
    public void close() {
        Lifecycle.Status before = lifecycle.status();
        long started = System.nanoTime();
        boolean settled = handover.stop();
        LOG.info("handover released instance={} role={} epoch={} settled={} tookMs={}", instance,
                before.role().label(), before.epoch(), settled, (System.nanoTime() - started) / 1_000_000);
        List<Exception> failures = new ArrayList<>();
        if (!settled) {
            failures.add(new CommandException("verbs this controller held were still unanswered "
                    + HandoverSettings.text(settle) + " after it handed the queue over; the broker gives them to the "
                    + "next controller"));
        }
        failures.addAll(opened.closeAll());
        LOG.info("controller stopped mode=mesh instance={}", instance);
        Closer.throwIfAny(failures, (first, cause) -> new CommandException("the controller stopped, but not cleanly: "
                + first, cause));
    }
}
