package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.internal.MeshFileReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A mesh file: the offline input of {@code compose} and {@code plan} — the nodes, the manifests of
 * the modules (by path, relative to the mesh file, or inline), which module runs on which node,
 * and the directory roots.
 *
 * <pre>{@code
 * {"nodes": [{"name": "alpha", "address": "10.20.0.11", "system": "debian-12"}],
 *  "modules": ["modules/mesh-store.json", {"module": "inline", "version": "1", ...}],
 *  "assignments": [{"module": "mesh-store", "node": "alpha"}],
 *  "layout": {"mesh": "/var/lib/mesh", "modules": "/var/lib/mesh/modules"}}
 * }</pre>
 *
 * <p>Read strictly, like a manifest: every problem of the file and of the manifests it names is
 * reported at once, each located (see {@code docs/mesh-file.md}). A mesh file that reads is
 * consistent in itself: node and module names are unique, every assignment names a node and a
 * module of the file, slugs are unique.
 *
 * @param file the mesh file's name as the caller gave it
 * @param nodes the nodes, in file order
 * @param modules the modules, in file order
 * @param assignments the assignments, in file order
 * @param layout the directory roots; {@link Layout#DEFAULT} where the file names none
 */
public record MeshFile(String file, List<Node> nodes, List<Module> modules, List<Assignment> assignments,
        Layout layout) {

    /** Checks and copies the parts. */
    public MeshFile {
        Objects.requireNonNull(file, "file");
        nodes = List.copyOf(nodes);
        modules = List.copyOf(modules);
        assignments = List.copyOf(assignments);
        Objects.requireNonNull(layout, "layout");
    }

    /**
     * A node of the mesh file.
     *
     * @param name unique in the mesh
     * @param address where the other nodes reach it: a host name or an IP address
     * @param system what it runs, e.g. {@code debian-12}
     * @param location where the file declares it
     */
    public record Node(String name, String address, String system, Location location) {
    }

    /**
     * A module of the mesh file.
     *
     * @param manifest its manifest
     * @param location the entry of {@code modules} that names it: a path, or the inline manifest
     */
    public record Module(Manifest manifest, Location location) {
    }

    /**
     * An assignment of the mesh file.
     *
     * @param module the module's name
     * @param node the node's name
     * @param location where the file declares it
     */
    public record Assignment(String module, String node, Location location) {
    }

    /**
     * Reads a mesh file and the manifests it names, relative to its directory.
     *
     * @param path the mesh file
     * @return the mesh file
     * @throws ManifestException with every problem of the file and of its manifests
     */
    public static MeshFile read(Path path) {
        return MeshFileReader.read(path);
    }

    /**
     * Reads a mesh file from memory.
     *
     * @param json the file's bytes
     * @param file the name problems give the file
     * @param directory where module paths are resolved from
     * @return the mesh file
     * @throws ManifestException with every problem of the file and of its manifests
     */
    public static MeshFile parse(byte[] json, String file, Path directory) {
        return MeshFileReader.read(json, file, directory);
    }

    /** @return the manifests, in file order */
    public List<Manifest> manifests() {
        return modules.stream().map(Module::manifest).toList();
    }
}
