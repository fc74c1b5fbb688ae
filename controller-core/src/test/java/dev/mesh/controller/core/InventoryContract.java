package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.manifest.Manifest;
import java.util.List;
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

    private static Manifest module(String name, String version, String tool) {
        return Manifest.parse("{\"module\": \"%s\", \"version\": \"%s\", \"tools\": [\"%s\"]}"
                .formatted(name, version, tool));
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
        assertThat(inventory.push(module("store", "1", "a"), "sha256:1")).isTrue();
        assertThat(inventory.push(module("store", "2", "b"), "sha256:2")).isTrue();
        assertThat(inventory.push(module("store", "2", "b"), "sha256:2")).isFalse();

        assertThat(inventory.modules()).extracting(Manifest::version).containsExactly("2");
        assertThat(inventory.module("store")).get().extracting(Manifest::tools).isEqualTo(List.of("b"));
        assertThat(inventory.module("bus")).isEmpty();
    }

    @Test
    void push_sameVersionOtherContent_isAConflictAndChangesNothing() {
        inventory.push(module("store", "1", "a"), "sha256:1");

        assertThatThrownBy(() -> inventory.push(module("store", "1", "other"), "sha256:other"))
                .isInstanceOfSatisfying(VerbException.class, e ->
                        assertThat(e.code()).isEqualTo(VerbException.Code.CONFLICT));
        assertThat(inventory.module("store")).get().extracting(Manifest::tools).isEqualTo(List.of("a"));
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
    void request_recordsABuildOnce() {
        assertThat(inventory.request("build:store@1/server")).isTrue();
        assertThat(inventory.request("build:store@1/server")).isFalse();
        assertThat(inventory.requested()).containsExactly("build:store@1/server");
        assertThat(inventory.built()).isEmpty();
    }
}
