package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Delivery;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.PlanLock;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.handover.ControllerLifecycle;
import dev.mesh.controller.handover.FeedRule;
import dev.mesh.controller.handover.Handover;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.manifest.Layout;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two controllers, each {@link BrokerConsumers} driven by the real {@link Handover}, on one virtual host and one
 * in-memory leadership: the broker's single active consumer makes exactly one active, and a planned stop of
 * that one makes the other active, with a verb sent in between answered once.
 */
class BrokerConsumersIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ASSIGN = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": "
            + "{\"name\": \"assign\", \"arguments\": {\"module\": \"mesh-store\", \"node\": \"alpha\"}}}";

    private final LocalPlanLock.Leadership leadership = new LocalPlanLock.Leadership();
    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryIdentity identity = new MemoryIdentity();
    private final MemoryEvents events = new MemoryEvents();
    private final List<Controller> controllers = new ArrayList<>();
    private RabbitVhost vhost;
    private Broker admin;

    /** One controller: its life cycle on the shared leadership, its connection, its consumers and handover. */
    final class Controller {
        final String instance;
        final ControllerLifecycle lifecycle;
        final Broker broker;
        final BrokerConsumers consumers;
        final Handover handover;

        Controller(String instance) {
            this.instance = instance;
            this.lifecycle = ControllerLifecycle.standby(LocalPlanLock.sharing(leadership, instance, Clock.systemUTC()),
                    instance, Clock.systemUTC());
            Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, events,
                    new MemoryRequestRecords(), Layout.DEFAULT, Clock.systemUTC()));
            this.broker = Broker.connect(vhost.settings(), instance);
            this.consumers = BrokerConsumers.of(broker, verbs, identity, Controllers.VERSION, lifecycle,
                    FeedRule.of(HandoverSettings.DEFAULTS));
            this.handover = Handover.start(lifecycle, consumers, Duration.ofSeconds(5), events);
        }

        Role role() {
            return lifecycle.status().role();
        }

        void close() {
            handover.stop();
            consumers.close();
            broker.close();
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
        controllers.forEach(Controller::close);
        admin.close();
        vhost.close();
    }

    private Controller controller(String instance) {
        Controller controller = new Controller(instance);
        controllers.add(controller);
        return controller;
    }

    @Test
    void oneActiveWithinASecond_aPlannedStopMakesTheOtherActiveWithinASecond_andAVerbInBetweenIsAnsweredOnce()
            throws Exception {
        long started = System.nanoTime();
        Controller a = controller("it-a:1");
        Controller b = controller("it-b:2");

        waitFor(1_000, () -> a.role() == Role.ACTIVE || b.role() == Role.ACTIVE);
        System.out.printf("BrokerConsumersIT: one active %.0f ms after the first start%n",
                (System.nanoTime() - started) / 1e6);
        Controller active = a.role() == Role.ACTIVE ? a : b;
        Controller standby = active == a ? b : a;
        holdsFor(1_000, "exactly one active, during a second", () -> active.role() == Role.ACTIVE
                && standby.role() == Role.STANDBY);

        pushMeshStore();
        try (Caller guest = new Caller(vhost.name(), "guest", "guest")) {
            // The planned release, with a verb sent while it is under way.
            long stopping = System.nanoTime();
            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(active.handover::stop);
            Delivery reply = guest.call(guest.request("assign-between").build(), ASSIGN);
            assertThat(stopped.get(5, TimeUnit.SECONDS)).as("settled: nothing held when the lock was released")
                    .isTrue();
            waitFor(1_000, () -> standby.role() == Role.ACTIVE);
            System.out.printf("BrokerConsumersIT: %s active %.0f ms after %s's stop began%n", standby.instance,
                    (System.nanoTime() - stopping) / 1e6, active.instance);

            JsonNode answer = JSON.readTree(reply.getBody());
            assertThat(answer.at("/result/isError").asBoolean()).as(answer.toString()).isFalse();
            assertThat(answer.at("/result/structuredContent/changed").asBoolean()).isTrue();
            assertThat(guest.poll(1_000)).as("answered once").isNull();
        }
        assertThat(standby.lifecycle.status().epoch()).isEqualTo(2);
        assertThat(standby.lifecycle.status().previous()).isEqualTo(active.instance);
        assertThat(active.role()).as("stopped for good after its planned release").isEqualTo(Role.STOPPED);
        assertThat(events.events().stream().filter(e -> e.kind().equals(Lifecycle.HANDOVER)).count())
                .as("a handover event per taking of the lock").isEqualTo(2);
        assertThat(Topology.deadLetters(admin)).isZero();
    }

    @Test
    void fedWhileThePreviousActiveStillHoldsTheLock_staysStandby_andIsActiveWithinASecondOfItsRelease()
            throws Exception {
        // The previous active, not on the broker: it holds the lock while this controller is fed.
        PlanLock previous = LocalPlanLock.sharing(leadership, "it-old:0", Clock.systemUTC());
        previous.acquire();
        Controller next = controller("it-next:3");
        waitFor(2_000, () -> next.consumers.verbs().orElseThrow().fed());
        holdsFor(500, "fed, but the lock is held: a standby", () -> next.role() == Role.STANDBY);

        long released = System.nanoTime();
        previous.release();
        waitFor(1_000, () -> next.role() == Role.ACTIVE);
        System.out.printf("BrokerConsumersIT: %s active %.0f ms after the previous one released the lock, fed "
                + "all along%n", next.instance, (System.nanoTime() - released) / 1e6);
        assertThat(next.lifecycle.status().previous()).isEqualTo("it-old:0");
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

    private static void waitFor(long ms, BooleanSupplier condition) {
        Awaitility.await("within " + ms + " ms").atMost(Duration.ofMillis(ms)).pollInterval(Duration.ofMillis(5))
                .until(condition::getAsBoolean);
    }

    /** Holds for {@code ms}: what must not change in that time. */
    private static void holdsFor(long ms, String what, BooleanSupplier condition) {
        Awaitility.await(what).during(Duration.ofMillis(ms)).atMost(Duration.ofMillis(ms + 1_000))
                .pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }
}
