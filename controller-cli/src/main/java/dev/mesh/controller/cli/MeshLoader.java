package dev.mesh.controller.cli;

import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.MeshFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A mesh file's nodes, modules and assignments, to load into an empty store ({@code serve --dev
 * --mesh FILE}, and the inventory of {@code genesis} that the mesh's first {@code serve} imports:
 * {@link GenesisImport}). The file is read and checked whole before anything is written; the modules are
 * pushed and assigned through the verbs, so that what the verbs refuse (a seat claimed twice, a
 * licence exceeded) stops the load the same way.
 */
public final class MeshLoader {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final MeshFile file;
    private final List<ModuleVersion> modules;

    private MeshLoader(MeshFile file, List<ModuleVersion> modules) {
        this.file = file;
        this.modules = modules;
    }

    /**
     * Reads and checks a mesh file and its manifests.
     *
     * @throws dev.mesh.controller.manifest.ManifestException with every located problem
     * @throws CommandException when a file cannot be read
     */
    public static MeshLoader read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            MeshFile.read(path); // throws the located unreadable-file problem, as compose and plan print it
            throw new CommandException("cannot read " + path + ": " + e.getMessage(), e);
        }
        Path directory = path.toAbsolutePath().getParent();
        MeshFile file = MeshFile.parse(bytes, path.toString(), directory);
        // The file parsed, so it is JSON: its module entries give each document as its author wrote it.
        JsonNode entries = MAPPER.readTree(bytes).path("modules");
        List<ModuleVersion> modules = new ArrayList<>();
        for (int i = 0; i < file.modules().size(); i++) {
            modules.add(version(directory, entries.get(i), path + "#/modules/" + i));
        }
        return new MeshLoader(file, List.copyOf(modules));
    }

    /** The module's document as its author wrote it: the manifest file it names, or the inline object. */
    private static ModuleVersion version(Path directory, JsonNode entry, String where) {
        if (entry.isString()) {
            Path manifest = directory.resolve(entry.asString());
            try {
                return ModuleVersion.parse(Files.readString(manifest), manifest.toString());
            } catch (IOException e) {
                throw new CommandException("cannot read " + manifest + " (named at " + where + "): " + e.getMessage(), e);
            }
        }
        return ModuleVersion.parse(MAPPER.writeValueAsString(entry), where);
    }

    /** @return the file's name as it was read */
    public String file() {
        return file.file();
    }

    /** @return how many nodes, modules and assignments {@link #load} loads */
    public int nodes() {
        return file.nodes().size();
    }

    public int modules() {
        return modules.size();
    }

    public int assignments() {
        return file.assignments().size();
    }

    /**
     * Whether this mesh may be loaded into the inventory as the mesh's first: no assignment yet, and no
     * module but this mesh's own versions (a load that a handover cut short is finished by the next one:
     * pushing a version again and assigning again change nothing). Nodes do not count: hosts report
     * themselves, possibly before the first controller is active.
     *
     * @return whether {@link #load} may run
     */
    public boolean isFirstFor(Inventory inventory) {
        Set<String> own = new HashSet<>();
        modules.forEach(module -> own.add(module.module() + "@" + module.version()));
        return inventory.assignments().isEmpty()
                && inventory.modules().stream().allMatch(m -> own.contains(m.module() + "@" + m.version()));
    }

    /** @return whether the inventory holds no module and no assignment yet */
    public static boolean isEmpty(Inventory inventory) {
        return inventory.modules().isEmpty() && inventory.assignments().isEmpty();
    }

    /**
     * Pushes the modules, reports the nodes and assigns the modules to them.
     *
     * @return what was loaded, for the start's output
     * @throws CommandException when a verb refuses a module or an assignment, naming it
     */
    public String load(Inventory inventory, Verbs verbs) {
        Objects.requireNonNull(inventory, "inventory");
        // The pushes first: a controller that may not write (a standby) is refused before it reports a node.
        for (ModuleVersion module : modules) {
            ObjectNode arguments = JsonNodeFactory.instance.objectNode();
            arguments.put("manifest", module.document());
            call(verbs, "push", arguments, "module " + module.module());
        }
        file.nodes().forEach(node -> inventory.report(new Node(node.name(), node.address(), node.system())));
        for (MeshFile.Assignment assignment : file.assignments()) {
            ObjectNode arguments = JsonNodeFactory.instance.objectNode();
            arguments.put("module", assignment.module());
            arguments.put("node", assignment.node());
            call(verbs, "assign", arguments, "assignment " + assignment.location().pointer() + " ("
                    + assignment.module() + " to " + assignment.node() + ")");
        }
        return file.nodes().size() + " nodes, " + modules.size() + " modules, " + file.assignments().size()
                + " assignments from " + file.file();
    }

    private static void call(Verbs verbs, String verb, JsonNode arguments, String what) {
        try {
            verbs.call(verb, arguments);
        } catch (VerbException e) {
            throw new CommandException("cannot load " + what + ": " + e.code().label() + ": " + e.getMessage(), e);
        }
    }
}
