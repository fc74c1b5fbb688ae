package dev.mesh.controller.simhost;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mesh host that runs nothing but speaks docs/design.md section 8's wire contract exactly: it publishes
 * its facts on NATS {@code <prefix>mesh.nodes.<node>.facts} every facts interval, consumes its
 * declarations from {@code mesh-host.<node>} (manual acknowledgements, one at a time), "applies" each
 * — its processes {@code starting}, then {@code running} with checks counting up — and reports
 * {@code applied} (or, when {@link #failing(boolean) failing}, {@code failed}) to
 * {@code mesh-controller.reports}, acknowledging the declaration only after the broker confirmed the
 * report. A revision already applied is acknowledged without applying it again.
 *
 * <p>It never declares its queue (the controller does, with its own arguments): until the queue
 * exists it tries to consume it again every 500 ms. Unreadable declarations, or one for another
 * node, are rejected without requeue.
 *
 * <p>Thread-safe: every method may be called from any thread. The host's work runs on one thread of
 * its own; {@link #start()}, {@link #stop()} and {@link #close()} wait for it to take effect.
 */
public final class SimulatedHost implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedHost.class);
    private static final long RETRY_MS = 500;
    private static final Duration FLUSH = Duration.ofSeconds(2);

    private final HostSettings settings;
    private final Connection amqp;
    private final io.nats.client.Connection nats;
    private final Reporter reporter;
    private final ScheduledExecutorService worker;
    private final String queue;
    private final String subject;
    private final Clock clock = Clock.systemUTC();
    private final RealRun realRun;
    /** The processes run for real, and the thread that applies them; null when it runs nothing for real. */
    private final RealProcesses real;
    private final java.util.concurrent.ExecutorService applier;

    // Touched on the worker thread only.
    private Channel consuming;
    private ScheduledFuture<?> facts;
    private ScheduledFuture<?> retry;
    private long generation;
    private boolean waitLogged;

    // Read by callers; guarded by lock.
    private final Object lock = new Object();
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final List<String> received = new ArrayList<>();
    private String applied;
    private int reports;
    private boolean running;
    private boolean closed;
    private volatile boolean failing;
    /** The highest epoch of a declaration accepted, and how many were ignored as untrusted; guarded by {@link #lock}. */
    private long lastEpoch;
    private int ignored;

    private record Process(String name, String state, Instant since) {
    }

    private SimulatedHost(HostSettings settings, RealRun realRun, Connection amqp, io.nats.client.Connection nats) {
        this.settings = settings;
        this.real = realRun.modules().isEmpty() ? null : new RealProcesses(realRun, settings.checkInterval());
        this.realRun = realRun;
        this.applier = real == null ? null : Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "simhost-" + settings.node() + "-real");
            thread.setDaemon(true);
            return thread;
        });
        this.amqp = amqp;
        this.nats = nats;
        this.reporter = new Reporter(amqp, settings.broker().user());
        this.queue = "mesh-host." + settings.node();
        this.subject = settings.nats().subjectPrefix() + "mesh.nodes." + settings.node() + ".facts";
        this.failing = settings.failing();
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "simhost-" + settings.node());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Connects to the broker and NATS and starts the host: facts at once and every interval, its queue
     * consumed (or waited for).
     *
     * @throws SimulationException when the broker or NATS cannot be reached, or refuses the user
     */
    public static SimulatedHost open(HostSettings settings) {
        return open(settings, RealRun.NONE);
    }

    /**
     * Like {@link #open(HostSettings)}, running the processes of some modules for real ({@link RealRun}).
     *
     * @throws SimulationException when the broker or NATS cannot be reached, or refuses the user
     */
    public static SimulatedHost open(HostSettings settings, RealRun realRun) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(realRun, "realRun");
        String name = "simhost-" + settings.node();
        Connection amqp = Connections.amqp(settings.broker(), name);
        io.nats.client.Connection nats;
        try {
            nats = Connections.nats(settings.nats(), name);
        } catch (SimulationException e) {
            Connections.close(amqp);
            throw e;
        }
        SimulatedHost host = new SimulatedHost(settings, realRun, amqp, nats);
        host.start();
        LOG.info("simulated host opened node={} broker={} nats={} subject={}", settings.node(),
                settings.broker().where(), settings.nats().url(), host.subject);
        return host;
    }

    /**
     * Starts the host again after {@link #stop()}: facts resume (with the same applied revision and
     * processes) and its queue is consumed again. Does nothing when it runs.
     *
     * @throws IllegalStateException when it is closed
     */
    public void start() {
        onWorker(() -> {
            synchronized (lock) {
                if (running) {
                    return;
                }
                running = true;
            }
            long current = ++generation;
            facts = worker.scheduleAtFixedRate(this::publishFacts, 0, settings.factsInterval().toNanos(),
                    TimeUnit.NANOSECONDS);
            consume(current);
        });
    }

    /**
     * Stops the host, as a host that went down would: no more facts, its consumer gone (a declaration
     * it was applying and had not acknowledged goes back to its queue, and is applied after
     * {@link #start()}). What it published before is at the NATS server when this returns. Does nothing
     * when it is stopped.
     *
     * @throws IllegalStateException when it is closed
     */
    public void stop() {
        onWorker(() -> {
            synchronized (lock) {
                if (!running) {
                    return;
                }
                running = false;
            }
            generation++;
            cancel(facts);
            cancel(retry);
            Connections.close(consuming);
            consuming = null;
        });
        try {
            nats.flush(FLUSH);
        } catch (TimeoutException e) {
            LOG.warn("simulated host facts not flushed node={} nats={} waitedMs={}", settings.node(),
                    settings.nats().url(), FLUSH.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the host and closes its connections. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
        }
        stop();
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        worker.shutdownNow();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (real != null) {
            applier.shutdownNow();
            real.close();
        }
        reporter.close();
        Connections.close(amqp);
        Connections.close(nats);
        LOG.info("simulated host closed node={}", settings.node());
    }

    /**
     * Makes a process the lab started stand for the container of that name: a process run for real
     * that {@code replaces} it stops it (SIGTERM, then a wait) once it has stayed ready across two checks.
     *
     * @throws IllegalStateException when the host runs nothing for real
     */
    public void adopt(String container, java.lang.Process process) {
        requireReal().adopt(container, process);
    }

    /**
     * @return how the processes run for real that this host stopped ended, in order: name, version, exit
     *     code, whether they had to be killed
     * @throws IllegalStateException when the host runs nothing for real
     */
    public List<String> realExits() {
        return requireReal().exits().stream().map(exit -> exit.name() + " " + exit.version() + " exit="
                + exit.exitCode() + (exit.killed() ? " killed" : "")).toList();
    }

    /**
     * @return when this host sent SIGTERM to each process run for real that it stopped, in the order of
     *     {@link #realExits()}, as {@link System#nanoTime()}
     * @throws IllegalStateException when the host runs nothing for real
     */
    public List<Long> realSignalled() {
        return requireReal().exits().stream().map(RealProcesses.Exit::signalledNanos).toList();
    }

    /**
     * @return the version each process run for real runs now, by process name
     * @throws IllegalStateException when the host runs nothing for real
     */
    public Map<String, String> realVersions() {
        return requireReal().versions();
    }

    /**
     * @return the process id of each process run for real now, by process name
     * @throws IllegalStateException when the host runs nothing for real
     */
    public Map<String, Long> realPids() {
        return requireReal().pids();
    }

    /**
     * @return the version of each live process this host started for real, by process id: a new version
     *     started beside an old one is here from its start, while {@link #realVersions} still names the old
     * @throws IllegalStateException when the host runs nothing for real
     */
    public Map<Long, String> realLiveVersions() {
        return requireReal().liveVersions();
    }

    /**
     * @return where the time of each real process's last start went, by process name: {@code fetch and
     *     unpack}, {@code prepare}, {@code ready} (start to ready), {@code old stopped}, in ms
     * @throws IllegalStateException when the host runs nothing for real
     */
    public Map<String, Map<String, Long>> realTimings() {
        return requireReal().timings();
    }

    private RealProcesses requireReal() {
        if (real == null) {
            throw new IllegalStateException("simulated host " + settings.node() + " runs nothing for real; open it "
                    + "with a RealRun naming the modules");
        }
        return real;
    }

    /** Makes every declaration applied from now on fail ({@code true}) or succeed ({@code false}). */
    public void failing(boolean fail) {
        failing = fail;
    }

    /** @return its settings */
    public HostSettings settings() {
        return settings;
    }

    /** @return whether it runs: started and not stopped or closed */
    public boolean running() {
        synchronized (lock) {
            return running;
        }
    }

    /** @return the revisions of the declarations it received, in order, repeats included (not the unreadable ones) */
    public List<String> received() {
        synchronized (lock) {
            return List.copyOf(received);
        }
    }

    /** @return how many declarations it ignored: not from the controller's user, or from an older epoch */
    public int ignored() {
        synchronized (lock) {
            return ignored;
        }
    }

    /** @return the revision it last applied (and reported {@code applied}), or empty before the first */
    public Optional<String> applied() {
        synchronized (lock) {
            return Optional.ofNullable(applied);
        }
    }

    /** @return how many reports the broker confirmed, {@code applied} and {@code failed} */
    public int reports() {
        synchronized (lock) {
            return reports;
        }
    }

    /** @return its processes now, as its next facts will tell them */
    public List<HostProcess> processes() {
        return snapshot(clock.instant());
    }

    /**
     * Waits until the host applied {@code revision} (its report confirmed), at most {@code timeout}.
     *
     * @return whether it did; {@code false} also when interrupted (the flag restored) or closed
     */
    public boolean awaitApplied(String revision, Duration timeout) {
        Objects.requireNonNull(revision, "revision");
        return await(() -> revision.equals(applied), timeout);
    }

    /**
     * Waits until the host received {@code count} declarations (repeats included), at most {@code timeout}.
     *
     * @return whether it did; {@code false} also when interrupted (the flag restored) or closed
     */
    public boolean awaitReceived(int count, Duration timeout) {
        return await(() -> received.size() >= count, timeout);
    }

    /**
     * Waits until the broker confirmed {@code count} of its reports, at most {@code timeout}.
     *
     * @return whether it did; {@code false} also when interrupted (the flag restored) or closed
     */
    public boolean awaitReports(int count, Duration timeout) {
        return await(() -> reports >= count, timeout);
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "SimulatedHost[node=" + settings.node() + " running=" + running + " applied=" + applied
                    + " received=" + received.size() + " reports=" + reports + "]";
        }
    }

    private boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private void onWorker(Runnable task) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("simulated host " + settings.node() + " is closed; open another");
            }
        }
        try {
            worker.submit(task).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("simulated host " + settings.node() + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void consume(long current) {
        if (current != generation) {
            return;
        }
        Channel channel = null;
        try {
            channel = amqp.createChannel();
            channel.basicQos(1);
            channel.basicConsume(queue, false, new Declarations(channel, current));
            consuming = channel;
            waitLogged = false;
            LOG.info("simulated host consuming node={} queue={}", settings.node(), queue);
        } catch (IOException | ShutdownSignalException e) {
            // Most often 404: the controller has not declared the queue yet.
            Connections.close(channel);
            if (!waitLogged) {
                LOG.info("simulated host waiting for its queue node={} queue={} retryMs={} reason={}", settings.node(),
                        queue, RETRY_MS, reason(e));
                waitLogged = true;
            }
            retry = worker.schedule(() -> consume(current), RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void receive(Channel channel, long current, long tag, AMQP.BasicProperties properties, byte[] body) {
        if (current != generation || !channel.isOpen()) {
            return;
        }
        String refused = untrusted(properties);
        if (refused != null) {
            synchronized (lock) {
                ignored++;
            }
            LOG.warn("simulated host ignored a declaration node={} queue={} reason=\"{}\"", settings.node(), queue,
                    refused);
            settle(channel, tag, refused.startsWith("epoch") ? Settle.ACK : Settle.REJECT);
            return;
        }
        Wire.Declaration declaration;
        try {
            declaration = Wire.declaration(body, header(properties, "revision"));
            if (!declaration.node().equals(settings.node())) {
                throw new IllegalArgumentException("it is node " + declaration.node() + "'s");
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("simulated host rejected a declaration node={} queue={} reason={}", settings.node(), queue,
                    e.getMessage());
            settle(channel, tag, Settle.REJECT);
            return;
        }
        boolean repeat;
        synchronized (lock) {
            lastEpoch = Math.max(lastEpoch, epoch(properties));
            received.add(declaration.revision());
            repeat = declaration.revision().equals(applied);
            lock.notifyAll();
        }
        LOG.debug("simulated host received node={} revision={} epoch={} repeat={}", settings.node(),
                declaration.revision(), header(properties, "epoch"), repeat);
        if (repeat) {
            settle(channel, tag, Settle.ACK);
            return;
        }
        Instant now = clock.instant();
        List<Wire.Process> realOnes = real == null ? List.of() : declaration.declared().stream()
                .filter(process -> realRun.runs(process.module())).toList();
        List<String> simulated = declaration.processes().stream()
                .filter(name -> realOnes.stream().noneMatch(process -> process.name().equals(name))).toList();
        synchronized (lock) {
            processes.clear();
            for (String name : simulated) {
                processes.put(name, new Process(name, "starting", now));
            }
        }
        if (real == null) {
            worker.schedule(() -> finish(channel, current, tag, declaration, simulated, List.of()),
                    settings.applyTime().toNanos(), TimeUnit.NANOSECONDS);
            return;
        }
        applier.execute(() -> {
            List<Wire.Step> realSteps = real.apply(settings.node(), realOnes);
            try {
                worker.execute(() -> finish(channel, current, tag, declaration, simulated, realSteps));
            } catch (RejectedExecutionException e) {
                LOG.debug("simulated host closed while applying node={}", settings.node());
            }
        });
    }

    private void finish(Channel channel, long current, long tag, Wire.Declaration declaration, List<String> simulated,
            List<Wire.Step> realSteps) {
        if (current != generation || !channel.isOpen()) {
            return;
        }
        Instant now = clock.instant();
        List<Wire.Step> steps = new ArrayList<>(Wire.steps(settings.node(), simulated, failing));
        steps.addAll(realSteps);
        boolean fail = steps.stream().anyMatch(step -> step.status().equals("failed"));
        synchronized (lock) {
            for (int i = 0; i < simulated.size(); i++) {
                String name = simulated.get(i);
                processes.put(name, new Process(name, steps.get(i).status().equals("failed") ? "failed" : "running", now));
            }
        }
        String kind = fail ? "failed" : "applied";
        byte[] report = Wire.hostReport(kind, settings.node(), declaration.revision(), steps, now);
        if (!reporter.report(report, kind + " node=" + settings.node() + " revision=" + declaration.revision())) {
            settle(channel, tag, Settle.REQUEUE);
            return;
        }
        synchronized (lock) {
            reports++;
            if (!fail) {
                applied = declaration.revision();
            }
            lock.notifyAll();
        }
        LOG.info("simulated host reported node={} kind={} revision={}", settings.node(), kind, declaration.revision());
        settle(channel, tag, Settle.ACK);
    }

    private void publishFacts() {
        String revision;
        synchronized (lock) {
            revision = applied;
        }
        Instant now = clock.instant();
        try {
            nats.publish(subject, Wire.facts(settings, revision, snapshot(now), now));
        } catch (IllegalStateException e) {
            // The connection is closed or reconnecting with a full buffer: the next interval tries again.
            LOG.debug("simulated host facts not published node={} error={}", settings.node(), e.getMessage());
        }
    }

    private List<HostProcess> snapshot(Instant now) {
        long every = settings.checkInterval().toNanos();
        synchronized (lock) {
            List<HostProcess> list = new ArrayList<>(processes.size());
            if (real != null) {
                list.addAll(real.states(now));
            }
            for (Process process : processes.values()) {
                int checks = process.state().equals("running")
                        ? (int) Math.min(Integer.MAX_VALUE, Duration.between(process.since(), now).toNanos() / every)
                        : 0;
                list.add(new HostProcess(process.name(), process.state(), process.since(), Math.max(0, checks)));
            }
            return List.copyOf(list);
        }
    }

    private enum Settle { ACK, REQUEUE, REJECT }

    private void settle(Channel channel, long tag, Settle how) {
        try {
            switch (how) {
                case ACK -> channel.basicAck(tag, false);
                case REQUEUE -> channel.basicNack(tag, false, true);
                case REJECT -> channel.basicReject(tag, false);
            }
        } catch (IOException | ShutdownSignalException e) {
            // The channel is gone: the broker delivers the declaration again.
            LOG.warn("simulated host could not settle a declaration node={} how={} error={}", settings.node(), how, e.toString());
        }
    }

    /**
     * @return why a declaration is not to be trusted, or {@code null} when it is: it must come from the controller's
     *     user ({@code user_id}, which the broker checks is the publisher's) with an epoch no older than the last one
     *     accepted (a controller that lost its lock may still have published)
     */
    private String untrusted(AMQP.BasicProperties properties) {
        String from = properties.getUserId();
        if (!settings.controller().equals(from)) {
            return from == null ? "no user_id: only the controller's user " + settings.controller() + " declares"
                    : "from user " + from + ", not the controller's user " + settings.controller();
        }
        long epoch = epoch(properties);
        if (epoch < 1) {
            return "no epoch header: a declaration carries the epoch of the controller that sent it";
        }
        synchronized (lock) {
            if (epoch < lastEpoch) {
                return "epoch " + epoch + " is older than " + lastEpoch + ", the last accepted";
            }
        }
        return null;
    }

    private static long epoch(AMQP.BasicProperties properties) {
        String epoch = header(properties, "epoch");
        try {
            return epoch == null ? 0 : Long.parseLong(epoch);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String header(AMQP.BasicProperties properties, String name) {
        Map<String, Object> headers = properties.getHeaders();
        Object value = headers == null ? null : headers.get(name);
        return value == null ? null : value.toString();
    }

    private static String reason(Exception e) {
        Throwable cause = e instanceof ShutdownSignalException ? e : e.getCause();
        return cause instanceof ShutdownSignalException signal && signal.getReason() instanceof AMQP.Channel.Close close
                ? close.getReplyText() : e.toString();
    }

    private static void cancel(ScheduledFuture<?> future) {
        if (future != null) {
            future.cancel(false);
        }
    }

    /** The consumer of {@code mesh-host.<node>}: hands each delivery to the worker thread. */
    private final class Declarations extends DefaultConsumer {

        private final long current;

        Declarations(Channel channel, long current) {
            super(channel);
            this.current = current;
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
            long tag = envelope.getDeliveryTag();
            try {
                worker.execute(() -> receive(getChannel(), current, tag, properties, body));
            } catch (RejectedExecutionException e) {
                // Closing: the connection's end puts the declaration back in the queue.
            }
        }

        @Override
        public void handleCancel(String consumerTag) {
            // The queue was deleted: wait for it again, as at the start.
            try {
                worker.execute(() -> {
                    if (current == generation) {
                        Connections.close(consuming);
                        consuming = null;
                        consume(current);
                    }
                });
            } catch (RejectedExecutionException e) {
                // Closing.
            }
        }
    }
}
