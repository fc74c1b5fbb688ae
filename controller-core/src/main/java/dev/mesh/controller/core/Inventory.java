package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The controller's record of the mesh: nodes, pushed module versions, assignments, builds and
 * what each node acknowledged. A port: core defines it; the store implements it on PostgreSQL and
 * {@link MemoryInventory} in memory.
 *
 * <p>Implementations are thread-safe. Methods that change the record return whether they did.
 */
public interface Inventory {

    /** @return every node, by name */
    List<Node> nodes();

    /** @return the node of that name */
    Optional<Node> node(String name);

    /** Adds the node, or replaces the one of the same name. */
    void report(Node node);

    /** @return the latest pushed version of every module, by module name */
    List<Manifest> modules();

    /** @return the latest pushed version of that module */
    Optional<Manifest> module(String name);

    /**
     * Records a module version.
     *
     * @param manifest the parsed manifest
     * @param digest the digest of the manifest's bytes, which says whether two pushes are the same
     * @return {@code true} when it is new, {@code false} when the same version was pushed before
     *     with the same content
     * @throws VerbException {@code conflict} when that version was pushed before with other content
     */
    boolean push(Manifest manifest, String digest);

    /** @return every assignment, by node then module */
    List<Assignment> assignments();

    /** @return {@code true} when the assignment is new */
    boolean assign(Assignment assignment);

    /** @return {@code true} when the assignment existed */
    boolean unassign(Assignment assignment);

    /** @return each node's last acknowledged declaration, by node name */
    Map<String, Declaration> acknowledged();

    /** @return ids of the builds done ({@code build:MODULE@VERSION/ARTIFACT}) */
    Set<String> built();

    /** @return ids of the builds requested and not done yet */
    Set<String> requested();

    /** @return {@code true} when the build was not requested before */
    boolean request(String buildId);
}
