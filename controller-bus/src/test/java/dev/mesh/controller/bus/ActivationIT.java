package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.handover.FeedRule;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two controllers' {@link BrokerVerbs} on one virtual host, each on a connection of its own, over core's
 * in-memory ports sharing one leadership: which one the broker's single active consumer feeds is found out
 * from the ticks alone, with no verb sent, and again after the fed one's connection is closed.
 */
class ActivationIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ASSIGN = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-store\", \"node\": \"alpha\"}}}";
    private static final String STATUS = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"status\", \"arguments\": {}}}";

    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryIdentity identity = new MemoryIdentity();
    private final List<Controller> controllers = new ArrayList<>();
    private RabbitVhost vhost;
    private Broker admin;

    /** A feed event: which controller, fed or not, when. */
    record Event(String instance, boolean fed, long nanos) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    /** One controller: its life cycle on the shared leadership, its connection, its transport. */
    final class Controller implements Feeding {
        final String instance;
        final LocalLifecycle lifecycle;
        final Verbs verbs;
        /** Open when this controller may take the lock: a test holds it shut to keep the controller a standby. */
        final CountDownLatch lockTakeable;
        Broker broker;
        BrokerVerbs transport;
        volatile boolean fed;

        Controller(String instance, CountDownLatch lockTakeable) {
            this.instance = instance;
            this.lockTakeable = lockTakeable;
            this.lifecycle = LocalLifecycle.standby(LocalPlanLock.sharing(leadership, instance, Clock.systemUTC()),
                    instance, Clock.systemUTC());
            this.verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                    new MemoryRequestRecords(), Layout.DEFAULT, Clock.systemUTC()));
        }

        Controller start() {
            broker = Broker.connect(vhost.settings(), instance);
            transport = BrokerVerbs.start(broker, verbs, identity, Controllers.VERSION, lifecycle, this,
                    FeedRule.of(HandoverSettings.DEFAULTS));
            return this;
        }

        /**
         * As a handover would: take the lock, trying again while the previous active still holds it; a slow one
         * (a lock that takes long to get) only once the test opens {@link #lockTakeable}.
         */
        @Override
        public void fed() {
            fed = true;
            events.add(new Event(instance, true, System.nanoTime()));
            try {
                lockTakeable.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            Awaitility.await(instance + " active, or no longer fed").pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20)).atMost(Duration.ofSeconds(30)).until(this::activeOrStarved);
        }

        /** One try at the lock: whether it is active now, or no longer fed (nothing to take then). */
        private boolean activeOrStarved() {
            if (fed && lifecycle.status().role() != Role.ACTIVE) {
                try {
                    lifecycle.activate();
                } catch (VerbException e) {
                    // The previous active still holds it: the next poll tries again.
                }
            }
            return !fed || lifecycle.status().role() == Role.ACTIVE;
        }

        @Override
        public void starved() {
            fed = false;
            events.add(new Event(instance, false, System.nanoTime()));
            lifecycle.release();
        }

        void close() {
            if (transport != null) {
                transport.close();
            }
            if (broker != null) {
                broker.close();
            }
        }
    }

    @BeforeEach
    void start() {
        vhost = RabbitVhost.create();
        identity.add("guest");
        identity.grant("guest", "tools", "status", "nodes", "assign");
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        admin = Broker.connect(vhost.settings(), "it-admin");
        Topology.declare(admin);
    }

    @AfterEach
    void stop() {
        controllers.forEach(controller -> controller.lockTakeable.countDown()); // none left waiting to take it
        controllers.forEach(Controller::close);
        admin.close();
        vhost.close();
    }

    private Controller controller(String instance) {
        return controller(instance, new CountDownLatch(0));
    }

    private Controller controller(String instance, CountDownLatch lockTakeable) {
        Controller controller = new Controller(instance, lockTakeable);
        controllers.add(controller);
        return controller.start();
    }

    private Event next(long timeoutMs) throws InterruptedException {
        return events.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Test
    void exactlyOneIsFedWithoutVerbs_andTheOtherWithinASecondOfTheFedOnesConnectionClosing() throws Exception {
        long started = System.nanoTime();
        Controller a = controller("it-a:1");
        Controller b = controller("it-b:2");

        Event first = next(1_000);
        assertThat(first).as("one controller told fed within 1 s of starting, no verb sent").isNotNull();
        assertThat(first.fed()).isTrue();
        System.out.printf("ActivationIT: %s fed %.0f ms after the first start%n", first.instance(),
                (first.nanos() - started) / 1e6);
        assertThat(next(1_500)).as("nothing more: the other stays unfed, the fed one stays fed").isNull();
        Controller fed = first.instance().equals(a.instance) ? a : b;
        Controller other = fed == a ? b : a;
        assertThat(fed.transport.fed()).isTrue();
        assertThat(other.transport.fed()).isFalse();
        assertThat(fed.lifecycle.status().role()).isEqualTo(Role.ACTIVE);
        assertThat(other.lifecycle.status().role()).isEqualTo(Role.STANDBY);

        // The fault: the broker closes the fed one's connection (a broker restart, a cut network).
        AtomicLong closed = new AtomicLong();
        fed.broker.connection().addShutdownListener(cause -> closed.compareAndSet(0, System.nanoTime()));
        vhost.closeConnection(((com.rabbitmq.client.impl.NetworkConnection) fed.broker.connection()).getLocalPort());

        List<Event> seen = new ArrayList<>();
        Event promoted = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (promoted == null && System.nanoTime() < deadline) {
            Event event = next(100);
            if (event != null) {
                seen.add(event);
                if (event.fed() && event.instance().equals(other.instance)) {
                    promoted = event;
                }
            }
        }
        assertThat(promoted).as("the other told fed; events " + seen).isNotNull();
        double promotedMs = (promoted.nanos() - closed.get()) / 1e6;
        System.out.printf("ActivationIT: %s fed %.0f ms after %s's connection closed%n", other.instance, promotedMs,
                fed.instance);
        assertThat(promotedMs).as("fed within 1 s of the broker closing the other's connection").isLessThan(1_000);
        Event starved = seen.stream().filter(e -> e.instance().equals(fed.instance)).findFirst()
                .orElseGet(() -> poll(fed.instance));
        assertThat(starved).as("the closed one told starved").isNotNull();
        assertThat(starved.fed()).isFalse();
        System.out.printf("ActivationIT: %s starved %.0f ms after its connection closed%n", fed.instance,
                (starved.nanos() - closed.get()) / 1e6);

        // A verb sent now is answered by the new one, active by then.
        waitFor(() -> other.lifecycle.status().role() == Role.ACTIVE);
        pushMeshStore();
        try (Caller guest = new Caller(vhost.name(), "guest", "guest")) {
            Delivery reply = guest.call(guest.request("assign-1").build(), ASSIGN);
            assertThat(reply.getProperties().getHeaders().get("instance")).hasToString(other.instance);
            assertThat(JSON.readTree(reply.getBody()).at("/result/isError").asBoolean()).as(new String(reply.getBody()))
                    .isFalse();
            Delivery status = guest.call(guest.request("s-1").build(), STATUS);
            assertThat(status.getProperties().getHeaders().get("instance")).hasToString(other.instance);
        }
        // The recovered connection consumes again, as a standby: it is not fed again.
        Awaitility.await("the recovered one, a standby consumer now, is not fed; the other one is")
                .during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> !fed.transport.fed() && other.transport.fed());
        assertThat(Topology.deadLetters(admin)).as("no tick, no verb dead-lettered").isZero();
    }

    @Test
    void queueDeletedAndDeclaredAgainAtOnce_isConsumedAgain_andTheVerbSentMeanwhileIsAnswered() throws Exception {
        Controller a = controller("it-a:5");
        Controller b = controller("it-b:6");
        Event first = next(1_000);
        assertThat(first).as("one controller fed").isNotNull();
        Controller fed = first.instance().equals(a.instance) ? a : b;
        waitFor(() -> fed.lifecycle.status().role() == Role.ACTIVE);

        // Injected: the verbs' queue deleted and declared again at once, with the same arguments, on a channel of
        // the admin's (as a user with configure permission on it could). RabbitMQ 3.10 cancels no consumer then.
        try (Channel channel = admin.connection().createChannel()) {
            channel.queueDelete(Topology.VERBS);
            channel.queueDeclare(Topology.VERBS, true, false, false, Topology.controllerQueueArguments());
        }
        long injected = System.nanoTime();
        try (Caller guest = new Caller(vhost.name(), "guest", "guest")) {
            // Sent at once, while no live consumer is fed: it must wait in the queue, not vanish.
            Delivery reply = guest.call(guest.request("status-q").build(), STATUS);
            double ms = (System.nanoTime() - injected) / 1e6;
            System.out.printf("ActivationIT: status sent just after the queue was deleted and declared again "
                    + "answered after %.0f ms (renewal after %d ms without a delivery)%n", ms,
                    FeedRule.of(HandoverSettings.DEFAULTS).renewAfter().toMillis());
            assertThat(reply).as("the status sent after the queue was declared again is answered").isNotNull();
            assertThat(JSON.readTree(reply.getBody()).at("/result/isError").asBoolean()).as(new String(reply.getBody()))
                    .isFalse();
        }
        // And a controller is fed and active again, on the new queue: a mutating verb runs.
        waitFor(() -> a.lifecycle.status().role() == Role.ACTIVE || b.lifecycle.status().role() == Role.ACTIVE);
        pushMeshStore();
        try (Caller guest = new Caller(vhost.name(), "guest", "guest")) {
            Delivery assigned = guest.call(guest.request("assign-q").build(), ASSIGN);
            assertThat(assigned).isNotNull();
            assertThat(JSON.readTree(assigned.getBody()).at("/result/isError").asBoolean())
                    .as(new String(assigned.getBody())).isFalse();
        }
        assertThat(Topology.deadLetters(admin)).isZero();
    }

    @Test
    void mutatingVerbBeforeTheLockIsTaken_waitsForActivation_andRuns() throws Exception {
        CountDownLatch lockTakeable = new CountDownLatch(1);
        Controller slow = controller("it-slow:3", lockTakeable); // fed, it takes the lock once the test says so
        pushMeshStore();
        try (Caller guest = new Caller(vhost.name(), "guest", "guest")) {
            CompletableFuture<Delivery> assign = CompletableFuture.supplyAsync(() -> {
                try {
                    return guest.call(guest.request("assign-w").build(), ASSIGN);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            waitFor(() -> slow.fed);
            Awaitility.await("the assign waits while the controller is a standby").during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(2)).until(() -> !assign.isDone());
            long opened = System.nanoTime();
            lockTakeable.countDown();
            Delivery reply = assign.get(10, TimeUnit.SECONDS);
            System.out.printf("ActivationIT: assign sent to a standby answered %.0f ms after it could take the "
                    + "lock%n", (System.nanoTime() - opened) / 1e6);
            assertThat(JSON.readTree(reply.getBody()).at("/result/isError").asBoolean()).as(new String(reply.getBody()))
                    .isFalse();
            assertThat(slow.lifecycle.status().role()).isEqualTo(Role.ACTIVE);
        }
        assertThat(Topology.deadLetters(admin)).isZero();
    }

    @Test
    void readSentAfterAMutationWaitingForActivation_isAnsweredBeforeIt_notBehindIt() throws Exception {
        CountDownLatch lockTakeable = new CountDownLatch(1);
        Controller slow = controller("it-slow:4", lockTakeable); // fed, it takes the lock once the test says so
        pushMeshStore();
        try (Caller writer = new Caller(vhost.name(), "guest", "guest");
                Caller reader = new Caller(vhost.name(), "guest", "guest")) {
            CompletableFuture<Delivery> assign = CompletableFuture.supplyAsync(() -> {
                try {
                    return writer.call(writer.request("assign-r").build(), ASSIGN);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            waitFor(() -> slow.fed); // the assign (or a tick) arrived: the assign now waits for the lock
            long sent = System.nanoTime();
            Delivery status = reader.call(reader.request("status-r").build(), STATUS);
            double ms = (System.nanoTime() - sent) / 1e6;
            System.out.printf("ActivationIT: status beside a waiting assign answered after %.0f ms%n", ms);

            assertThat(JSON.readTree(status.getBody()).at("/result/structuredContent/role").asString())
                    .as("answered while the controller was still a standby").isEqualTo("standby");
            assertThat(assign).as("the assign still waits for the lock").isNotDone();
            lockTakeable.countDown();
            Delivery assigned = assign.get(10, TimeUnit.SECONDS);
            assertThat(JSON.readTree(assigned.getBody()).at("/result/isError").asBoolean())
                    .as(new String(assigned.getBody())).isFalse();
            assertThat(slow.lifecycle.status().role()).isEqualTo(Role.ACTIVE);
        }
        assertThat(Topology.deadLetters(admin)).isZero();
    }

    private Event poll(String instance) {
        try {
            for (Event event = next(2_000); event != null; event = next(2_000)) {
                if (event.instance().equals(instance)) {
                    return event;
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Pushes the module through verbs of their own on the same inventory, active on a lock of their own. */
    private void pushMeshStore() {
        Lifecycle own = LocalLifecycle.active(LocalPlanLock.create(), "it-pusher:9", Clock.systemUTC());
        Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, own, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, Clock.systemUTC()));
        ObjectNode arguments = JSON.createObjectNode();
        arguments.set("manifest", JSON.readTree(Path.of("../examples/modules/mesh-store.json").toFile()));
        verbs.call("push", arguments);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) {
        Awaitility.await("within 5 s").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }

}
