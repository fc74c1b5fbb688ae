package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.memory.MemoryInventoryTest;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Inventory} must do. Each implementation runs these tests by extending this
 * class: {@link MemoryInventoryTest} here, the PostgreSQL inventory in controller-store (through
 * core's test jar).
 */
public abstract class InventoryContract {

    private Inventory inventory;

    /** @return a new, empty inventory for one test */
    protected abstract Inventory newInventory();

    private static ModuleVersion module(String name, String version, String tool) {
        return ModuleVersion.parse("{\"module\": \"%s\", \"version\": \"%s\", \"tools\": [\"%s\"]}"
                .formatted(name, version, tool), "manifest");
    }

    @BeforeEach
    void freshInventory() {
        inventory = newInventory();
    }

    @Test
    void report_addsOrReplacesTheNodeByName() {
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        inventory.report(new Node("beta", "10.0.0.9", "debian-12"));

        assertThat(inventory.nodes()).containsExactly(new Node("alpha", "10.0.0.1", "debian-12"),
                new Node("beta", "10.0.0.9", "debian-12"));
        assertThat(inventory.node("beta")).contains(new Node("beta", "10.0.0.9", "debian-12"));
        assertThat(inventory.node("gamma")).isEmpty();
    }

    @Test
    void nodesAfter_isAPageOfTheNodesByName_afterAnyName() {
        for (String name : List.of("echo", "alpha", "delta", "charlie", "bravo")) {
            inventory.report(new Node(name, "10.0.0.1", "debian-12"));
        }

        assertThat(inventory.nodes("", 2)).extracting(Node::name).containsExactly("alpha", "bravo");
        assertThat(inventory.nodes("bravo", 2)).extracting(Node::name).containsExactly("charlie", "delta");
        assertThat(inventory.nodes("delta", 2)).extracting(Node::name).containsExactly("echo");
        assertThat(inventory.nodes("c", 2)).as("after a name no node has").extracting(Node::name)
                .containsExactly("charlie", "delta");
        assertThat(inventory.nodes("echo", 2)).isEmpty();
        assertThat(inventory.nodes("", 1_000)).isEqualTo(inventory.nodes());
        assertThat(inventory.nodes("alpha", 1)).containsExactly(new Node("bravo", "10.0.0.1", "debian-12"));
    }

    @Test
    void nodesAfter_ordersNamesAsJavaDoes_soPagesFollowOneAnother() {
        List<String> names = List.of("node-10", "Node-b", "node_a", "node-9", "node-a", "n", "node", "NODE-0", "0");
        names.forEach(name -> inventory.report(new Node(name, "10.0.0.1", "debian-12")));

        List<String> paged = new ArrayList<>();
        String after = "";
        for (List<Node> page = inventory.nodes(after, 2); !page.isEmpty(); page = inventory.nodes(after, 2)) {
            page.forEach(node -> paged.add(node.name()));
            after = page.getLast().name();
        }

        assertThat(paged).isEqualTo(names.stream().sorted().toList())
                .isEqualTo(inventory.nodes().stream().map(Node::name).toList());
    }

    @Test
    void nodesAfter_limitBelowOne_isAnIllegalArgument() {
        assertThatThrownBy(() -> inventory.nodes("", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a page holds at least 1 node, not 0");
    }

    @Test
    void sightingsOfAPage_areThoseOfItsHeardFromNodes() {
        inventory.report(List.of(facts("alpha", "10.0.0.1", "sha256:aa", T0),
                facts("beta", "10.0.0.2", "", T0.plusSeconds(1)), facts("gamma", "10.0.0.3", "sha256:cc", T0),
                facts("omega", "10.0.0.9", "sha256:ff", T0)));
        inventory.report(new Node("delta", "10.0.0.4", "debian-12"));

        assertThat(inventory.sightings("alpha", "gamma")).as("after alpha, up to gamma").isEqualTo(Map.of(
                "beta", new Sighting("", T0.plusSeconds(1)), "gamma", new Sighting("sha256:cc", T0)));
        assertThat(inventory.sightings("", "alpha")).isEqualTo(Map.of("alpha", new Sighting("sha256:aa", T0)));
        assertThat(inventory.sightings("b", "d")).isEqualTo(Map.of("beta", new Sighting("", T0.plusSeconds(1))));
        assertThat(inventory.sightings("gamma", "gamma")).isEmpty();
        assertThat(inventory.sightings("", "zulu")).isEqualTo(inventory.sightings());
    }

    @Test
    void assignmentsOfSomeModulesOnAPage_areThoseInOrder() {
        inventory.assign(new Assignment("store", "beta"));
        inventory.assign(new Assignment("bus", "alpha"));
        inventory.assign(new Assignment("web", "alpha"));
        inventory.assign(new Assignment("store", "alpha"));
        inventory.assign(new Assignment("store", "gamma"));
        inventory.assign(new Assignment("web", "gamma"));
        inventory.assign(new Assignment("web", "omega"));

        assertThat(inventory.assignments(Set.of("store", "web", "absent"), "", "gamma")).containsExactly(
                new Assignment("store", "alpha"), new Assignment("web", "alpha"), new Assignment("store", "beta"),
                new Assignment("store", "gamma"), new Assignment("web", "gamma"));
        assertThat(inventory.assignments(Set.of("web"), "alpha", "omega")).as("after alpha, up to omega")
                .containsExactly(new Assignment("web", "gamma"), new Assignment("web", "omega"));
        assertThat(inventory.assignments(Set.of("store"), "beta", "beta")).isEmpty();
        assertThat(inventory.assignments(Set.of(), "", "zulu")).isEmpty();
    }

    private static final Instant T0 = Instant.parse("2026-11-29T21:00:00.123456Z");

    private static Facts facts(String node, String address, String revision, Instant at, ProcessState... processes) {
        return new Facts(new Node(node, address, "debian-12"), revision, List.of(processes), at);
    }

    @Test
    void reportFacts_addsOrUpdatesTheNodes_andKeepsEachOnesLatestFacts() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        Facts alpha = facts("alpha", "10.0.0.9", "sha256:aa", T0,
                new ProcessState("web", ProcessState.State.RUNNING, T0.minusSeconds(60), 2),
                new ProcessState("db", ProcessState.State.FAILED, T0.minusSeconds(5), 0));
        Facts beta = facts("beta", "10.0.0.2", "", T0.plusSeconds(1));

        inventory.report(List.of(alpha, beta));

        assertThat(inventory.nodes()).containsExactly(alpha.node(), beta.node());
        assertThat(inventory.facts()).isEqualTo(Map.of("alpha", alpha, "beta", beta));
        assertThat(inventory.facts().get("alpha").processes()).extracting(ProcessState::name)
                .as("in the order reported").containsExactly("web", "db");
        assertThat(inventory.facts().get("beta").appliedRevision()).isEmpty();
        assertThat(inventory.facts("alpha")).contains(alpha);
        assertThat(inventory.facts("gamma")).isEmpty();
        assertThat(inventory.sightings()).isEqualTo(Map.of("alpha", new Sighting("sha256:aa", T0),
                "beta", new Sighting("", T0.plusSeconds(1))));
    }

    @Test
    void reportFacts_olderThanTheLatest_areIgnored_andOfTwoAtOneTimeTheLaterWins() {
        Facts latest = facts("alpha", "10.0.0.1", "sha256:bb", T0);
        inventory.report(List.of(latest));

        inventory.report(List.of(facts("alpha", "10.0.0.8", "sha256:aa", T0.minusNanos(1000))));
        assertThat(inventory.facts().get("alpha")).isEqualTo(latest);
        assertThat(inventory.node("alpha")).contains(latest.node());

        Facts later = facts("alpha", "10.0.0.7", "sha256:cc", T0.plusSeconds(5));
        Facts last = facts("alpha", "10.0.0.6", "sha256:dd", T0.plusSeconds(5));
        inventory.report(List.of(later, facts("alpha", "10.0.0.5", "sha256:ee", T0.plusSeconds(1)), last));
        assertThat(inventory.facts()).isEqualTo(Map.of("alpha", last));
        assertThat(inventory.nodes()).containsExactly(last.node());
    }

    @Test
    void reportNode_keepsItsFacts_whichTellTheNodeAsItIsNow() {
        Facts heard = facts("alpha", "10.0.0.1", "sha256:aa", T0);
        inventory.report(List.of(heard));

        inventory.report(new Node("alpha", "10.0.0.2", "debian-13"));

        Facts now = new Facts(new Node("alpha", "10.0.0.2", "debian-13"), "sha256:aa", List.of(), T0);
        assertThat(inventory.facts().get("alpha")).isEqualTo(now);
        assertThat(inventory.facts("alpha")).contains(now);
    }

    @Test
    void seen_movesTheLastSeenTimeOfHeardFromNodes_forwardOnly_andKeepsTheirFacts() {
        ProcessState web = new ProcessState("web", ProcessState.State.RUNNING, T0.minusSeconds(60), 7);
        Facts alpha = facts("alpha", "10.0.0.1", "sha256:aa", T0, web);
        Facts beta = facts("beta", "10.0.0.2", "", T0.plusSeconds(10));
        inventory.report(List.of(alpha, beta));
        inventory.report(new Node("gamma", "10.0.0.3", "debian-12"));

        // alpha later (to the microsecond), beta earlier than its latest, gamma never heard from, delta unknown.
        Instant later = T0.plusSeconds(5).plusNanos(1_234_567);
        inventory.seen(Map.of("alpha", later, "beta", T0.plusSeconds(5), "gamma", later, "delta", later));

        assertThat(inventory.facts()).isEqualTo(Map.of("alpha", facts("alpha", "10.0.0.1", "sha256:aa", later, web),
                "beta", beta));
        Instant kept = T0.plusSeconds(5).plusNanos(1_234_000);
        assertThat(inventory.facts("alpha").orElseThrow().at()).as("to the microsecond").isEqualTo(kept);
        assertThat(inventory.sightings()).isEqualTo(Map.of("alpha", new Sighting("sha256:aa", kept),
                "beta", new Sighting("", T0.plusSeconds(10))));
        assertThat(inventory.nodes()).extracting(Node::name).containsExactly("alpha", "beta", "gamma");

        inventory.seen(Map.of());
        inventory.seen(Map.of("alpha", T0));
        assertThat(inventory.sightings().get("alpha")).as("never moved back").isEqualTo(new Sighting("sha256:aa", kept));
    }

    @Test
    void facts_ofNodesNeverHeardFrom_areNone_andReportingNoneChangesNothing() {
        inventory.report(new Node("alpha", "10.0.0.1", "debian-12"));

        inventory.report(List.of());

        assertThat(inventory.facts()).isEmpty();
        assertThat(inventory.facts("alpha")).isEmpty();
        assertThat(inventory.sightings()).isEmpty();
        assertThat(inventory.nodes()).containsExactly(new Node("alpha", "10.0.0.1", "debian-12"));
    }

    @Test
    void desire_keepsOnePerNode_andSaysWhetherTheRevisionIsNew() {
        Declaration first = declaration("alpha", "store");
        Declaration second = declaration("alpha", "bus");

        assertThat(inventory.desire(first)).isTrue();
        assertThat(inventory.desire(first)).isFalse();
        assertThat(inventory.desire(second)).isTrue();
        assertThat(inventory.desire(declaration("beta", "store"))).isTrue();

        assertThat(inventory.desired()).containsOnlyKeys("alpha", "beta");
        assertThat(inventory.desired().get("alpha")).isEqualTo(second);
        assertThat(inventory.acknowledged()).as("desired is not acknowledged").isEmpty();
    }

    @Test
    void desire_withoutRevision_isAnIllegalArgument() {
        assertThatThrownBy(() -> inventory.desire(declaration("alpha", "store").withRevision("")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the declaration of node alpha has no revision; record a composed declaration");
        assertThat(inventory.desired()).isEmpty();
    }

    @Test
    void acknowledgeByRevision_makesTheDesiredDeclarationTheAcknowledgedOne_alsoWhenRepeated() {
        Declaration desired = declaration("alpha", "store");
        inventory.acknowledge(declaration("alpha", "bus"));
        inventory.desire(desired);

        assertThat(inventory.acknowledge("alpha", desired.revision())).isTrue();
        assertThat(inventory.acknowledge("alpha", desired.revision())).as("a redelivered report").isTrue();

        assertThat(inventory.acknowledged()).isEqualTo(Map.of("alpha", desired));
        assertThat(inventory.desired()).isEqualTo(Map.of("alpha", desired));
    }

    @Test
    void acknowledgeByRevision_notTheNodesDesiredOne_acknowledgesNothing() {
        Declaration before = declaration("alpha", "web");
        Declaration superseded = declaration("alpha", "store");
        Declaration beta = declaration("beta", "store");
        inventory.acknowledge(before);
        inventory.desire(superseded);
        inventory.desire(declaration("alpha", "bus"));
        inventory.desire(beta);

        assertThat(inventory.acknowledge("alpha", "sha256:unknown")).isFalse();
        assertThat(inventory.acknowledge("alpha", beta.revision())).as("another node's").isFalse();
        assertThat(inventory.acknowledge("alpha", superseded.revision())).as("desired before").isFalse();
        assertThat(inventory.acknowledge("gamma", beta.revision())).as("a node with none desired").isFalse();

        assertThat(inventory.acknowledged()).isEqualTo(Map.of("alpha", before));
    }

    @Test
    void push_keepsTheLatestVersionAndIsIdempotent() {
        assertThat(inventory.push(module("store", "1", "a"))).isTrue();
        assertThat(inventory.push(module("store", "2", "b"))).isTrue();
        assertThat(inventory.push(module("store", "2", "b"))).isFalse();

        assertThat(inventory.modules()).extracting(Manifest::version).containsExactly("2");
        assertThat(inventory.module("store")).get().extracting(Manifest::tools).isEqualTo(List.of("b"));
        assertThat(inventory.module("bus")).isEmpty();
    }

    @Test
    void push_sameVersionOtherContent_isAConflictAndChangesNothing() {
        inventory.push(module("store", "1", "a"));

        assertThatThrownBy(() -> inventory.push(module("store", "1", "other")))
                .isInstanceOfSatisfying(VerbException.class, e ->
                        assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT));
        assertThat(inventory.module("store")).get().extracting(Manifest::tools).isEqualTo(List.of("a"));
    }

    @Test
    void push_sameContentOtherwiseWritten_isTheSamePush() {
        inventory.push(module("store", "1", "a"));

        assertThat(inventory.push(ModuleVersion.parse(
                "{\"tools\":[\"a\"],\n \"version\":\"1\", \"module\":\"store\"}", "manifest"))).isFalse();
    }

    @Test
    void push_keepsTheDocumentAsPushed_soLocationsPointIntoIt() {
        inventory.push(ModuleVersion.parse("""
                {
                  "module": "store",

                  "version": "1",
                  "claims": [
                    {"name": "mesh-store", "scope": "mesh"}
                  ]
                }
                """, "manifest"));

        Location claim = inventory.module("store").orElseThrow().claims().getFirst().location();
        assertThat(claim.pointer()).isEqualTo("/claims/0");
        assertThat(claim.line()).isEqualTo(6);
    }

    @Test
    void acknowledge_replacesTheNodesDeclaration() {
        Declaration first = declaration("alpha", "store");
        Declaration second = declaration("alpha", "bus");

        inventory.acknowledge(first);
        inventory.acknowledge(second);
        inventory.acknowledge(declaration("beta", "store"));

        assertThat(inventory.acknowledged()).containsOnlyKeys("alpha", "beta");
        assertThat(inventory.acknowledged().get("alpha").revision()).isEqualTo(second.revision());
        assertThat(inventory.acknowledged().get("alpha")).isEqualTo(second);
    }

    @Test
    void finish_succeeded_isBuiltAndNeverRequestedAgain() {
        inventory.request("build:store@1/server");

        inventory.finish(succeeded("build:store@1/server"));

        assertThat(inventory.built().keySet()).containsExactly("build:store@1/server");
        assertThat(inventory.requested()).isEmpty();
        assertThat(inventory.request("build:store@1/server")).isFalse();
        assertThat(inventory.requested()).isEmpty();
    }

    @Test
    void finish_failed_isNotBuiltAndMayBeRequestedAgain() {
        inventory.request("build:store@1/server");

        inventory.finish(failed("build:store@1/server", "go build: exit status 1"));

        assertThat(inventory.built()).isEmpty();
        assertThat(inventory.requested()).isEmpty();
        assertThat(inventory.request("build:store@1/server")).isTrue();
        assertThat(inventory.requested()).containsExactly("build:store@1/server");
    }

    @Test
    void request_malformedBuildId_isAnIllegalArgument() {
        assertThatThrownBy(() -> inventory.request("store@1/server"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("build:MODULE@VERSION/ARTIFACT");
        assertThat(inventory.requested()).isEmpty();
    }

    @Test
    void assign_andUnassign_sayWhetherTheyChangedAnything() {
        Assignment assignment = new Assignment("store", "alpha");

        assertThat(inventory.assign(assignment)).isTrue();
        assertThat(inventory.assign(assignment)).isFalse();
        assertThat(inventory.assign(new Assignment("bus", "alpha"))).isTrue();
        assertThat(inventory.assignments()).containsExactly(new Assignment("bus", "alpha"), assignment);
        assertThat(inventory.unassign(assignment)).isTrue();
        assertThat(inventory.unassign(assignment)).isFalse();
        assertThat(inventory.assignments()).containsExactly(new Assignment("bus", "alpha"));
    }

    @Test
    void assignments_ofSomeModules_areThoseInOrder() {
        inventory.assign(new Assignment("store", "beta"));
        inventory.assign(new Assignment("bus", "alpha"));
        inventory.assign(new Assignment("web", "alpha"));
        inventory.assign(new Assignment("store", "alpha"));

        assertThat(inventory.assignments(Set.of("store", "web", "absent"))).containsExactly(
                new Assignment("store", "alpha"), new Assignment("web", "alpha"), new Assignment("store", "beta"));
        assertThat(inventory.assignments(Set.of())).isEmpty();
    }

    @Test
    void request_recordsABuildOnce() {
        assertThat(inventory.request("build:store@1/server")).isTrue();
        assertThat(inventory.request("build:store@1/server")).isFalse();
        assertThat(inventory.requested()).containsExactly("build:store@1/server");
        assertThat(inventory.built()).isEmpty();
    }

    @Test
    void delivered_keepsEachNodesLatestDelivery() {
        Delivery first = new Delivery("alpha", "sha256:one", 1, T0);
        Delivery beta = new Delivery("beta", "sha256:two", 1, T0.plusMillis(1));
        Delivery again = new Delivery("alpha", "sha256:three", 2, T0.plusSeconds(5));

        inventory.delivered(first);
        inventory.delivered(beta);
        assertThat(inventory.deliveries()).isEqualTo(Map.of("alpha", first, "beta", beta));

        inventory.delivered(again);
        assertThat(inventory.deliveries()).isEqualTo(Map.of("alpha", again, "beta", beta));
    }

    @Test
    void failed_replacesTheNodesFailure_untilItAcknowledgesItsDesiredRevision() {
        Declaration desired = declaration("alpha", "store");
        inventory.desire(desired);
        Report.Failed first = new Report.Failed("alpha", desired.revision(), List.of(
                new Report.Step("alpha/account:store", true, ""),
                new Report.Step("alpha/process:store", false, "exit status 1: \"port 5432\" in use")), T0);
        Report.Failed second = new Report.Failed("alpha", desired.revision(), List.of(
                new Report.Step("alpha/process:store", false, "still in use")), T0.plusSeconds(30));
        Report.Failed beta = new Report.Failed("beta", "sha256:b", List.of(), T0);

        inventory.failed(first);
        inventory.failed(beta);
        assertThat(inventory.failures()).isEqualTo(Map.of("alpha", first, "beta", beta));
        inventory.failed(second);
        assertThat(inventory.failures()).isEqualTo(Map.of("alpha", second, "beta", beta));

        assertThat(inventory.acknowledge("alpha", "sha256:unknown")).isFalse();
        assertThat(inventory.failures()).as("acknowledging nothing ends nothing").containsOnlyKeys("alpha", "beta");
        assertThat(inventory.acknowledge("alpha", desired.revision())).isTrue();
        assertThat(inventory.failures()).isEqualTo(Map.of("beta", beta));
        assertThat(inventory.acknowledge("alpha", desired.revision())).as("a redelivered report").isTrue();
        assertThat(inventory.failures()).isEqualTo(Map.of("beta", beta));
    }

    @Test
    void request_isUnsentUntilSent_andARequestAgainMakesItUnsent() {
        String build = "build:store@1/server";
        assertThat(inventory.request(build)).isTrue();
        assertThat(inventory.unsentBuilds()).containsExactly(build);

        inventory.sent(build, 3);
        assertThat(inventory.unsentBuilds()).isEmpty();
        assertThat(inventory.requested()).containsExactly(build);
        assertThat(inventory.request(build)).as("requested before, not finished").isFalse();
        assertThat(inventory.unsentBuilds()).containsExactly(build);
        inventory.sent(build, 4);
        assertThat(inventory.unsentBuilds()).isEmpty();

        inventory.request("build:bus@2/server");
        inventory.finish(succeeded(build));
        assertThat(inventory.unsentBuilds()).containsExactly("build:bus@2/server");
        assertThat(inventory.request(build)).as("built").isFalse();
        assertThat(inventory.unsentBuilds()).containsExactly("build:bus@2/server");
    }

    @Test
    void sent_aBuildNoLongerRequested_isLeftAlone() {
        inventory.sent("build:store@1/server", 1);
        inventory.request("build:bus@2/server");
        inventory.finish(failed("build:bus@2/server", "no space left"));
        inventory.sent("build:bus@2/server", 1);

        assertThat(inventory.requested()).isEmpty();
        assertThat(inventory.unsentBuilds()).isEmpty();
        assertThat(inventory.built()).isEmpty();
        assertThat(inventory.failedBuilds()).containsExactly("build:bus@2/server");
        assertThat(inventory.request("build:store@1/server")).isTrue();
        assertThat(inventory.unsentBuilds()).containsExactly("build:store@1/server");
    }

    @Test
    void sent_malformedIdOrEpoch_isAnIllegalArgument() {
        inventory.request("build:store@1/server");

        assertThatThrownBy(() -> inventory.sent("store@1/server", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("build:MODULE@VERSION/ARTIFACT");
        assertThatThrownBy(() -> inventory.sent("build:store@1/server", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a build is sent with the epoch of the plan lock taken, at least 1, not 0");
        assertThat(inventory.unsentBuilds()).containsExactly("build:store@1/server");
    }

    @Test
    void finish_failed_isAFailedBuild_untilRequestedAgain() {
        String build = "build:store@1/server";
        inventory.request(build);
        inventory.sent(build, 1);

        inventory.finish(failed(build, "go build: exit status 1"));
        assertThat(inventory.failedBuilds()).containsExactly(build);
        assertThat(inventory.unsentBuilds()).isEmpty();

        assertThat(inventory.request(build)).isTrue();
        assertThat(inventory.failedBuilds()).isEmpty();
        assertThat(inventory.unsentBuilds()).containsExactly(build);

        inventory.finish(failed(build, "go build: exit status 2"));
        inventory.request(build);
        inventory.finish(succeeded(build));
        assertThat(inventory.failedBuilds()).isEmpty();
        assertThat(inventory.built().keySet()).containsExactly(build);
    }

    @Test
    void finish_failed_ofABuildNeverRequested_isAFailedBuild() {
        inventory.finish(failed("build:store@1/server", "unknown module"));

        assertThat(inventory.failedBuilds()).containsExactly("build:store@1/server");
        assertThat(inventory.requested()).isEmpty();
        assertThat(inventory.unsentBuilds()).isEmpty();
    }

    @Test
    void finish_failedAfterSucceeded_isIgnored_builtStaysBuilt() {
        inventory.request("build:store@1/server");
        inventory.finish(succeeded("build:store@1/server"));

        inventory.finish(failed("build:store@1/server", "a late report"));

        assertThat(inventory.built().keySet()).containsExactly("build:store@1/server");
        assertThat(inventory.failedBuilds()).isEmpty();
    }

    @Test
    void finish_succeeded_keepsTheArchiveItMade() {
        inventory.request("build:store@1/server");

        inventory.finish(succeeded("build:store@1/server"));

        assertThat(inventory.built()).containsExactly(Map.entry("build:store@1/server",
                new Built("build:store@1/server", SHA256, "file:///builds/store-1-server.tar.gz")));
    }

    @Test
    void finish_aSuccessNamingNoArchive_isAnIllegalArgument_andChangesNothing() {
        inventory.request("build:store@1/server");

        assertThatThrownBy(() -> inventory.finish(new Report.Build("build:store@1/server", true, "", null, null,
                Instant.parse("2026-12-03T10:00:00Z"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("named no sha256");
        assertThat(inventory.built()).isEmpty();
        assertThat(inventory.requested()).containsExactly("build:store@1/server");
    }

    private static final String SHA256 = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

    /** A builder's report that the build succeeded, naming its archive. */
    public static Report.Build succeeded(String build) {
        String file = build.substring("build:".length()).replace('@', '-').replace('/', '-');
        return new Report.Build(build, true, "", SHA256, "file:///builds/" + file + ".tar.gz",
                Instant.parse("2026-12-03T10:00:00Z"));
    }

    /** A builder's report that the build failed. */
    public static Report.Build failed(String build, String detail) {
        return new Report.Build(build, false, detail, null, null, Instant.parse("2026-12-03T10:00:00Z"));
    }

    /** A node's declaration composed from one module, as a node acknowledges it. */
    private static Declaration declaration(String node, String module) {
        Mesh mesh = new Mesh(List.of(new Node(node, "10.0.0.1", "debian-12")),
                List.of(Manifest.parse("{\"module\": \"%s\", \"version\": \"1\", \"tools\": [\"%s\"]}"
                        .formatted(module, module))),
                List.of(new Assignment(module, node)), Layout.DEFAULT);
        return Composer.compose(mesh).declarations().getFirst();
    }
}
