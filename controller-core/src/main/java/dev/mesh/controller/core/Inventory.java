package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The controller's record of the mesh: nodes, pushed module versions, assignments, builds and
 * what each node acknowledged. A port: core defines it; the store implements it on PostgreSQL and
 * {@code MemoryInventory} in memory.
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
     * Records a module version, keeping its document as pushed; it becomes the module's latest
     * version, also when it was pushed before.
     *
     * @param version the module version
     * @return {@code true} when it is new, {@code false} when the same version was pushed before
     *     with the same content (the same {@link ModuleVersion#digest()})
     * @throws VerbException {@code conflict} when that version was pushed before with other content
     */
    boolean push(ModuleVersion version);

    /** @return every assignment, by node then module */
    List<Assignment> assignments();

    /**
     * @param modules module names
     * @return the assignments of those modules, by node then module: what a verb that needs only
     *     some modules' assignments (the seats, of the modules that claim them) reads
     */
    List<Assignment> assignments(Set<String> modules);

    /** @return {@code true} when the assignment is new */
    boolean assign(Assignment assignment);

    /** @return {@code true} when the assignment existed */
    boolean unassign(Assignment assignment);

    /** @return each node's last acknowledged declaration, by node name */
    Map<String, Declaration> acknowledged();

    /** Records the declaration a node reports it applied, replacing the one it applied before. */
    void acknowledge(Declaration declaration);

    /** @return ids of the builds done ({@code build:MODULE@VERSION/ARTIFACT}) */
    Set<String> built();

    /** @return ids of the builds requested and not done yet */
    Set<String> requested();

    /**
     * @param buildId {@code build:MODULE@VERSION/ARTIFACT}
     * @return {@code true} when the build is new: neither requested nor done before (a build that
     *     failed may be requested again)
     * @throws IllegalArgumentException when the id is not of that form
     */
    boolean request(String buildId);

    /**
     * Records how a requested build ended: it is no longer requested; when it succeeded it is
     * {@linkplain #built() built} and never requested again, when it failed it may be.
     *
     * @param buildId {@code build:MODULE@VERSION/ARTIFACT}
     * @param succeeded whether the builder reported success
     * @param detail what the builder reported, or {@code ""}
     * @throws IllegalArgumentException when the id is not of that form
     */
    void finish(String buildId, boolean succeeded, String detail);
}
