package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.MeshFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The inventory the first {@code serve} imports, as {@code genesis} writes it: a mesh file
 * ({@code docs/mesh-file.md}) with every manifest inline — the nodes, each module's manifest as its
 * author wrote it, the assignments — and no layout (the mesh's controller composes with the default
 * one). Being a mesh file, it is read back with every check of one. Stateless and thread-safe.
 */
final class GenesisInventory {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private GenesisInventory() {
    }

    /**
     * @param path the mesh file, already read and checked as {@code file}
     * @param file what it holds
     * @return the inventory's bytes: pretty-printed UTF-8 JSON and a final newline
     * @throws CommandException when the mesh file or a manifest it names can no longer be read
     */
    static byte[] of(Path path, MeshFile file) {
        Path directory = path.toAbsolutePath().getParent();
        // The file was checked: it is JSON, and each module entry a path to a manifest or the manifest.
        JsonNode entries = MAPPER.readTree(read(path, path)).path("modules");
        ObjectNode inventory = MAPPER.createObjectNode();
        ArrayNode nodes = inventory.putArray("nodes");
        file.nodes().forEach(node -> nodes.addObject().put("name", node.name()).put("address", node.address())
                .put("system", node.system()));
        ArrayNode modules = inventory.putArray("modules");
        for (JsonNode entry : entries) {
            modules.add(entry.isString() ? MAPPER.readTree(read(directory.resolve(entry.asString()), path)) : entry);
        }
        ArrayNode assignments = inventory.putArray("assignments");
        file.assignments().forEach(assignment -> assignments.addObject().put("module", assignment.module())
                .put("node", assignment.node()));
        return (MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(inventory) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] read(Path file, Path mesh) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + " again (named by the mesh file " + mesh + "): " + e
                    + "; did it change while genesis ran? run genesis again", e);
        }
    }
}
