package dev.mesh.controller.core.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.BuildOrder;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.Delivery;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.compose.ComposerTest;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.MemoryBuilders;
import dev.mesh.controller.core.memory.MemoryDeliveries;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.plan.Planner;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.MeshException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The execution on core's in-memory ports, over the example mesh: the store on alpha, the broker and
 * the bus on beta, the controller on gamma, a host on each. Every process needs its artifact built,
 * the hosts and the controller need the broker's seat, the controller the store's.
 */
class ExecutionTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Node ALPHA = new Node("alpha", "10.0.0.1", "debian-12");
    private static final Node BETA = new Node("beta", "10.0.0.2", "debian-12");
    private static final Node GAMMA = new Node("gamma", "10.0.0.3", "debian-12");

    private final Hands clock = new Hands(T0);
    private final MemoryInventory inventory = new MemoryInventory();
    private final MemoryDeliveries deliveries = new MemoryDeliveries();
    private final MemoryBuilders builders = new MemoryBuilders();
    private final MemoryEvents events = new MemoryEvents();
    private Execution execution;

    @BeforeEach
    void pushTheExampleMesh() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("../examples/modules"))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                inventory.push(ModuleVersion.parse(Files.readString(file), file.toString()));
            }
        }
        ComposerTest.assignments().forEach(inventory::assign);
        for (Node node : List.of(ALPHA, BETA, GAMMA)) {
            seen(node, "");
        }
        execution = execution(inventory);
    }

    private Execution execution(dev.mesh.controller.core.Inventory on) {
        return Execution.of(new Execution.Ports(on, deliveries, builders, events, Layout.DEFAULT, clock));
    }

    @Test
    void run_sendsEveryBuildOnce_andDeliversNothingBeforeTheyAreDone() {
        Execution.Round first = execution.run(1);

        assertThat(first.sent()).as("one order per artifact").hasSize(5).doesNotHaveDuplicates();
        assertThat(builders.requested()).extracting(r -> r.order().build()).containsExactlyElementsOf(first.sent());
        assertThat(builders.requested()).allSatisfy(r -> assertThat(r.epoch()).isEqualTo(1));
        assertThat(first.delivered()).isEmpty();
        assertThat(first.waiting()).containsOnlyKeys("alpha", "beta", "gamma");
        assertThat(first.waiting().get("beta")).allSatisfy(id -> assertThat(id).startsWith("build:"));

        assertThat(execution.run(1).sent()).as("sent once, not every round").isEmpty();
        assertThat(inventory.unsentBuilds()).isEmpty();
    }

    @Test
    void run_preparesEveryKnownNode_onceAndBeforeAnyDelivery_andANodeAsSoonAsItIsKnown() {
        Execution.Round first = execution.run(1);

        assertThat(first.delivered()).as("nothing delivered yet").isEmpty();
        assertThat(deliveries.prepared()).containsExactly("alpha", "beta", "gamma");
        execution.run(1);
        assertThat(deliveries.prepared()).as("once per node").containsExactly("alpha", "beta", "gamma");

        seen(new Node("delta", "10.0.0.4", "debian-12"), "");
        assertThat(execution.run(1).idle()).as("readying a node is not a send").isTrue();
        assertThat(deliveries.prepared()).containsExactly("alpha", "beta", "gamma", "delta");
    }

    @Test
    void run_aNodeDeliveredBefore_isNotPrepared_byASuccessor() {
        execution.run(1);
        buildAll();
        assertThat(execution.run(1).delivered()).extracting(Delivery::node).containsExactly("beta");
        MemoryDeliveries successors = new MemoryDeliveries();

        Execution.of(new Execution.Ports(inventory, successors, builders, events, Layout.DEFAULT, clock)).run(2);

        assertThat(successors.prepared()).containsExactly("alpha", "gamma");
    }

    @Test
    void run_aPrepareThatFails_isInTheRoundsFailures_andTriedAgainNextRound() {
        List<String> prepared = new ArrayList<>();
        boolean[] down = {true};
        Execution failing = Execution.of(new Execution.Ports(inventory, new Deliveries() {
            @Override
            public void deliver(Declaration declaration, long epoch) {
            }

            @Override
            public void prepare(String node) {
                if (down[0]) {
                    throw new MeshException("the broker is gone") {
                    };
                }
                prepared.add(node);
            }
        }, builders, events, Layout.DEFAULT, clock));

        Execution.Round round = failing.run(1);
        assertThat(round.failed()).containsEntry("alpha", "the broker is gone").containsKeys("beta", "gamma");
        down[0] = false;
        assertThat(failing.run(1).failed()).isEmpty();
        assertThat(prepared).containsExactly("alpha", "beta", "gamma");
    }

    @Test
    void run_deliversInTheOrderTheRequiresDemand_thenReportsMakeThePlanEmpty() {
        execution.run(1);
        buildAll();

        Execution.Round broker = execution.run(2);
        assertThat(broker.delivered()).extracting(Delivery::node).as("only beta needs nothing of another node")
                .containsExactly("beta");
        assertThat(broker.delivered().getFirst().epoch()).isEqualTo(2);
        assertThat(broker.waiting().get("alpha")).containsExactly("beta/process:mesh-broker");
        assertThat(broker.waiting().get("gamma")).contains("alpha/process:mesh-store", "beta/process:mesh-broker");

        running(BETA, "mesh-broker", "mesh-bus");
        assertThat(execution.run(2).delivered()).extracting(Delivery::node).containsExactly("alpha");
        assertThat(execution.run(2).delivered()).as("delivered once").isEmpty();

        running(ALPHA, "mesh-store");
        assertThat(execution.run(2).delivered()).extracting(Delivery::node).containsExactly("gamma");

        for (Declaration declaration : inventory.desired().values()) {
            assertThat(execution.record(new Report.Applied(declaration.node(), declaration.revision(), List.of(),
                    clock.instant()))).isTrue();
        }
        assertThat(Planner.plan(mesh(), inventory.acknowledged(), inventory.built()).plan().isEmpty())
                .as("the plan after every node applied").isTrue();
        assertThat(execution.run(2).idle()).isTrue();
        assertThat(deliveries.delivered()).extracting(d -> d.declaration().node())
                .containsExactly("beta", "alpha", "gamma");
        assertThat(inventory.deliveries().get("gamma").revision())
                .isEqualTo(inventory.acknowledged().get("gamma").revision());
        assertThat(events.events()).extracting(e -> e.kind()).contains("delivery", "build", "node");
    }

    @Test
    void run_aNodeBackFromSilenceOnAnOlderRevision_isDeliveredAgain_once() {
        execution.run(1);
        buildAll();
        running(BETA, "mesh-broker", "mesh-bus");
        execution.run(1);
        execution.run(1);
        assertThat(inventory.deliveries()).containsKeys("alpha", "beta");

        clock.advance(Duration.ofSeconds(16));
        seen(GAMMA, "");
        running(BETA, "mesh-broker", "mesh-bus");
        assertThat(execution.run(1).delivered()).as("alpha is silent: nothing to send yet").isEmpty();

        seen(ALPHA, "");
        Execution.Round back = execution.run(1);
        assertThat(back.delivered()).extracting(Delivery::node).containsExactly("alpha");
        assertThat(events.events().getLast().payload()).containsEntry("again", true);
        assertThat(execution.run(1).delivered()).as("not again while it stays heard from").isEmpty();
    }

    @Test
    void run_aTransportThatFails_isTriedAgainNextRound_andNothingIsRecordedDelivered() {
        execution.run(1);
        buildAll();
        Execution failing = Execution.of(new Execution.Ports(inventory, (declaration, epoch) -> {
            throw new MeshException("the broker is gone") {
            };
        }, builders, events, Layout.DEFAULT, clock));

        Execution.Round round = failing.run(1);
        assertThat(round.failed()).containsEntry("beta", "the broker is gone");
        assertThat(inventory.deliveries()).isEmpty();

        assertThat(execution.run(1).delivered()).extracting(Delivery::node).containsExactly("beta");
    }

    @Test
    void run_onAFencedInventory_sendsNothing() {
        execution.run(1);
        buildAll();
        Execution fenced = execution(new ForwardingInventory(inventory) {
            @Override
            public boolean desire(Declaration declaration) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, "the plan lock was lost", "");
            }
        });

        assertThatThrownBy(() -> fenced.run(3)).isInstanceOf(VerbException.class).hasMessageContaining("lost");
        assertThat(deliveries.delivered()).isEmpty();
    }

    @Test
    void record_aFailedBuildIsNotSentAgain_untilRequested() {
        Execution.Round first = execution.run(1);
        String id = first.sent().getFirst();

        execution.record(new Report.Build(id, false, "compiler crashed", null, null, clock.instant()));
        assertThat(inventory.failedBuilds()).containsExactly(id);
        assertThat(execution.run(1).sent()).as("a failed build waits for the build verb").isEmpty();

        inventory.request(id);
        assertThat(execution.run(1).sent()).containsExactly(id);
    }

    @Test
    void record_aSuccessNamingNoArchive_isAFailedBuild_andNoDeclarationRunningItIsDelivered() {
        Execution.Round first = execution.run(1);
        for (String id : first.sent()) {
            execution.record(new Report.Build(id, true, "", null, null, clock.instant()));
        }

        assertThat(inventory.built()).isEmpty();
        assertThat(inventory.failedBuilds()).containsExactlyInAnyOrderElementsOf(first.sent());
        assertThat(events.events()).filteredOn(e -> e.kind().equals("build") && "failed".equals(e.payload()
                .get("state"))).hasSize(first.sent().size()).allSatisfy(e -> assertThat(e.payload().get("detail"))
                .asString().contains("named no sha256"));
        assertThat(execution.run(1).delivered()).isEmpty();
    }

    @Test
    void run_deliversDeclarationsThatPinEachArtifactToItsBuild() {
        execution.run(1);
        buildAll();

        Delivery beta = execution.run(1).delivered().getFirst();

        Declaration sent = deliveries.delivered().getFirst().declaration();
        assertThat(sent.revision()).isEqualTo(beta.revision());
        assertThat(sent.processes()).isNotEmpty().allSatisfy(process -> {
            assertThat(process.artifact().pinned()).isTrue();
            assertThat(process.artifact().sha256()).isEqualTo(inventory.built().get(BuildOrder.id(
                    process.artifact().module(), process.artifact().version(), process.artifact().name())).sha256());
        });
    }

    @Test
    void record_aFailureStandsUntilTheNodeApplies() {
        execution.run(1);
        buildAll();
        Delivery beta = execution.run(1).delivered().getFirst();

        execution.record(new Report.Failed("beta", beta.revision(), List.of(new Report.Step("beta/process:mesh-broker",
                false, "port 5671 in use")), clock.instant()));
        assertThat(inventory.failures()).containsKey("beta");
        assertThat(execution.record(new Report.Applied("beta", "sha256:other", List.of(), clock.instant())))
                .as("a revision beta is not desired to run").isFalse();
        assertThat(inventory.failures()).containsKey("beta");

        assertThat(execution.record(new Report.Applied("beta", beta.revision(), List.of(), clock.instant()))).isTrue();
        assertThat(inventory.failures()).isEmpty();
    }

    private dev.mesh.controller.core.Mesh mesh() {
        return new dev.mesh.controller.core.Mesh(inventory.nodes(), inventory.modules(), inventory.assignments(),
                Layout.DEFAULT);
    }

    private void buildAll() {
        for (String id : inventory.requested()) {
            execution.record(new Report.Build(id, true, "", "0".repeat(64), "file:///builds/" + id.substring(6)
                    + ".tar.gz", clock.instant()));
        }
    }

    private void seen(Node node, String revision) {
        inventory.report(List.of(new Facts(node, revision, List.of(), clock.instant())));
    }

    private void running(Node node, String... processes) {
        inventory.report(List.of(new Facts(node, "", Stream.of(processes).map(name -> new ProcessState(name,
                ProcessState.State.RUNNING, clock.instant(), 2)).toList(), clock.instant())));
    }
}
