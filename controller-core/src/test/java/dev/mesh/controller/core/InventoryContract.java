package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.memory.MemoryInventoryTest;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import java.util.List;
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

        inventory.finish("build:store@1/server", true, "");

        assertThat(inventory.built()).containsExactly("build:store@1/server");
        assertThat(inventory.requested()).isEmpty();
        assertThat(inventory.request("build:store@1/server")).isFalse();
        assertThat(inventory.requested()).isEmpty();
    }

    @Test
    void finish_failed_isNotBuiltAndMayBeRequestedAgain() {
        inventory.request("build:store@1/server");

        inventory.finish("build:store@1/server", false, "go build: exit status 1");

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

    /** A node's declaration composed from one module, as a node acknowledges it. */
    private static Declaration declaration(String node, String module) {
        Mesh mesh = new Mesh(List.of(new Node(node, "10.0.0.1", "debian-12")),
                List.of(Manifest.parse("{\"module\": \"%s\", \"version\": \"1\", \"tools\": [\"%s\"]}"
                        .formatted(module, module))),
                List.of(new Assignment(module, node)), Layout.DEFAULT);
        return Composer.compose(mesh).declarations().getFirst();
    }
}
