package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inventory {@code genesis} wrote, imported by an active controller into an empty inventory once, and
 * never by a standby nor into an inventory that holds a mesh; a file with problems is refused, located.
 */
class GenesisImportTest {

    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path dir;

    private final MemoryInventory inventory = new MemoryInventory();
    private Path file;

    @BeforeEach
    void genesis() throws IOException {
        Path archive = Files.writeString(dir.resolve("mesh-controller.tar.gz"), "bytes");
        StringWriter err = new StringWriter();
        int exitCode = MeshCommands.commandLine(Map.of(), InputStream.nullInputStream(),
                OutputStream.nullOutputStream(), List.of(new GenesisCommand(Optional.empty())))
                .setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err)).execute("genesis", "--mesh", "../examples/mesh.json", "--out",
                        dir.resolve("genesis").toString(), "--bundle", archive.toString());
        assertThat(exitCode).as(err.toString()).isZero();
        file = dir.resolve("genesis/inventory.json");
    }

    @Test
    void active_emptyInventory_importsNodesModulesAssignments_once() {
        GenesisImport genesis = GenesisImport.read(Optional.of(file)).orElseThrow();
        Verbs verbs = verbs(active());

        assertThat(genesis.importInto(inventory, verbs)).isTrue();

        assertThat(inventory.nodes()).extracting(Node::name).containsExactlyInAnyOrder("alpha", "beta", "gamma");
        assertThat(inventory.modules()).hasSize(5);
        assertThat(inventory.assignments()).hasSize(7);
        inventory.unassign(new Assignment("mesh-host", "gamma"));
        assertThat(genesis.importInto(inventory, verbs)).as("once per process").isFalse();
        assertThat(GenesisImport.read(Optional.of(file)).orElseThrow().importInto(inventory, verbs))
                .as("a second start: the inventory holds a mesh").isFalse();
        assertThat(inventory.assignments()).hasSize(6);
    }

    @Test
    void standby_importsNothing_andTheNextActivationDoes() {
        LocalLifecycle lifecycle = LocalLifecycle.standby(LocalPlanLock.create(), "genesis:2", CLOCK);
        GenesisImport genesis = GenesisImport.read(Optional.of(file)).orElseThrow();

        assertThat(genesis.importInto(inventory, verbs(lifecycle))).isFalse();
        assertThat(inventory.nodes()).isEmpty();
        assertThat(inventory.modules()).isEmpty();

        lifecycle.activate();
        assertThat(genesis.importInto(inventory, verbs(lifecycle))).isTrue();
        assertThat(inventory.assignments()).hasSize(7);
    }

    @Test
    void importCutShort_someOfItsModulesPushed_noAssignment_isFinished() throws IOException {
        inventory.push(ModuleVersion.parse(Files.readString(Path.of("../examples/modules/mesh-store.json")), "x"));

        assertThat(GenesisImport.read(Optional.of(file)).orElseThrow().importInto(inventory, verbs(active()))).isTrue();
        assertThat(inventory.assignments()).hasSize(7);
    }

    @Test
    void inventoryWithAnotherModule_orAnAssignment_isLeftAlone() {
        inventory.push(ModuleVersion.parse("{\"module\": \"web\", \"version\": \"1.0.0\"}", "web.json"));

        assertThat(GenesisImport.read(Optional.of(file)).orElseThrow().importInto(inventory, verbs(active()))).isFalse();
        assertThat(inventory.modules()).hasSize(1);
        assertThat(inventory.nodes()).isEmpty();
    }

    @Test
    void missingFile_isNothingToImport() {
        assertThat(GenesisImport.read(Optional.of(dir.resolve("gone.json")))).isEmpty();
        assertThat(GenesisImport.read(Optional.empty())).isEmpty();
    }

    @Test
    void fileWithProblems_isRefusedWithItsLocatedProblems() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"nodes\": [], \"modules\": [], \"asignments\": []}");

        CommandException e = catchThrowableOfType(CommandException.class, () -> GenesisImport.read(Optional.of(bad)));

        assertThat(Failures.of(e, 2).lines()).containsExactly(
                bad + ":1:1: (root): the mesh file lacks the required field \"assignments\"; add it: "
                        + "the list of assignments, e.g. [{\"module\": \"mesh-store\", \"node\": \"alpha\"}], or [] for none",
                bad + ":1:30: /asignments: unknown field \"asignments\" in the mesh file; remove it, or use one of: "
                        + "$schema, nodes, modules, assignments, layout (did you mean \"assignments\"?)",
                "mesh-controller: MESH_GENESIS_FILE=" + bad + " has 2 problems; nothing was started: write it again "
                        + "with mesh-controller genesis, or unset MESH_GENESIS_FILE");
        assertThat(Failures.of(e, 2).exitCode()).isEqualTo(1);
    }

    private static Lifecycle active() {
        Lifecycle lifecycle = LocalLifecycle.active(LocalPlanLock.create(), "genesis:1", CLOCK);
        return lifecycle;
    }

    private Verbs verbs(Lifecycle lifecycle) {
        return Verbs.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, CLOCK));
    }
}
