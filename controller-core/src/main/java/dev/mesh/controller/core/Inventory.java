package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Manifest;
import java.time.Instant;
import java.util.Collection;
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

    /**
     * One page of {@link #nodes()}, by keyset: what the {@code nodes} verb reads, so that a page costs
     * in proportion to the page, not to the mesh.
     *
     * @param after a node name: only nodes whose names sort after it ({@link String#compareTo}) are
     *     returned; it need not be a node's ({@code ""} for from the first)
     * @param limit at most this many nodes, at least 1
     * @return the first {@code limit} nodes named after {@code after}, by name
     * @throws IllegalArgumentException when {@code limit} is below 1
     */
    List<Node> nodes(String after, int limit);

    /** @return the node of that name */
    Optional<Node> node(String name);

    /** Adds the node, or replaces the one of the same name; keeps the facts it reported, if any. */
    void report(Node node);

    /**
     * Records what hosts reported about their nodes, many reports at once (the bus hands over what
     * arrived together, in one round trip to the store): each node is added or updated with the
     * address and system it reports, and its facts become its latest, last seen at their
     * {@link Facts#at()}. Facts older than the node's latest are ignored (a late redelivery never
     * turns a node back in time); of two with the same time, the later in the collection wins.
     * Nothing at all is recorded when the store fails: the caller may hand over the same facts again.
     *
     * @param facts what the hosts reported, in the order they arrived; may be empty
     */
    void report(Collection<Facts> facts);

    /**
     * Records that nodes were heard from again with facts that repeat their latest, many at once: each named
     * node's last seen time becomes the one given when that is later than its latest facts' {@link Facts#at()};
     * nothing else of the node changes. A node never heard from, or not in the inventory, is left as it is: a
     * node's facts come by {@link #report(Collection)} alone. Nothing at all is recorded when the store fails: the
     * caller may hand over the same times again. The bus calls it with what it gathered over an interval, so that a
     * host's unchanged facts every 5 s cost the store one row's time, not its facts.
     *
     * @param seen when each node was last heard from, by node name; may be empty
     */
    void seen(Map<String, Instant> seen);

    /**
     * @return each node's latest facts, by node name, with the node as it is now; a node never heard
     *     from (added by {@link #report(Node)} alone) has none
     */
    Map<String, Facts> facts();

    /** @return the node's latest facts, with the node as it is now; empty when it was never heard from */
    Optional<Facts> facts(String node);

    /**
     * @return when each heard-from node was last seen and the revision it had applied, by node
     *     name: {@link #facts()} without the processes, what a verb about the whole mesh reads
     */
    Map<String, Sighting> sightings();

    /**
     * {@link #sightings()} of one page of nodes: of the nodes named after {@code after} up to {@code last},
     * the names {@link #nodes(String, int)} gave, read as one range of names, not name by name.
     *
     * @param after the name the page started after
     * @param last the last name of the page
     * @return when each heard-from node named after {@code after} up to and including {@code last} was
     *     last seen, by node name
     */
    Map<String, Sighting> sightings(String after, String last);

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

    /**
     * {@link #assignments(Set)} on one page of nodes (see {@link #sightings(String, String)}): what a page of
     * the {@code nodes} verb reads to say which seats its nodes hold.
     *
     * @param modules module names
     * @param after the name the page started after
     * @param last the last name of the page
     * @return the assignments of those modules to the nodes named after {@code after} up to and including
     *     {@code last}, by node then module
     */
    List<Assignment> assignments(Set<String> modules, String after, String last);

    /** @return {@code true} when the assignment is new */
    boolean assign(Assignment assignment);

    /** @return {@code true} when the assignment existed */
    boolean unassign(Assignment assignment);

    /** @return each node's last acknowledged declaration, by node name */
    Map<String, Declaration> acknowledged();

    /** Records the declaration a node reports it applied, replacing the one it applied before. */
    void acknowledge(Declaration declaration);

    /**
     * Records the declaration a node must run from now on, replacing the one desired before: what
     * is delivered to its host, and what {@link #acknowledge(String, String)} acknowledges when the
     * host reports that revision applied. Plan work: the controller's inventory writes it only while
     * it holds the plan lock.
     *
     * @param declaration the node's new declaration, with its revision
     * @return {@code true} when the node had no desired declaration of that revision before
     * @throws IllegalArgumentException when the declaration has no revision
     * @throws VerbException {@code unavailable} when the inventory is fenced and the plan lock was lost
     */
    boolean desire(Declaration declaration);

    /** @return each node's desired declaration, by node name */
    Map<String, Declaration> desired();

    /**
     * Records that a node applied a revision, when a host's report names only the revision
     * ({@code {"kind": "applied", "node": "n1", "revision": "sha256:…"}}): the node's desired
     * declaration of that revision becomes its acknowledged one. A revision the node is not desired
     * to run — unknown, another node's, or one the node was desired to run before its desired
     * declaration changed again — acknowledges nothing: the node's acknowledged declaration stays,
     * and its host is sent the desired one.
     *
     * @param node the node that reports
     * @param revision the revision it applied
     * @return {@code true} when that revision is the node's desired one, and so now its acknowledged
     *     one, and the node's {@linkplain #failures() failure} is over (also when it already was: a redelivered report is not
     *     refused); {@code false} when
     *     nothing changed
     */
    boolean acknowledge(String node, String revision);

    /**
     * Records that a node was sent its desired declaration: plan work, written only while the plan
     * lock is held (as {@link #desire}), replacing the node's delivery before.
     *
     * @param delivery which revision, with which epoch, when
     * @throws VerbException {@code unavailable} when the inventory is fenced and the plan lock was lost
     */
    void delivered(Delivery delivery);

    /** @return each node's latest delivery, by node name */
    Map<String, Delivery> deliveries();

    /**
     * Records that a host failed to apply a revision, replacing the node's failure before. The failure
     * stands until the node acknowledges a revision ({@link #acknowledge(String, String)}).
     *
     * @param report what the host reported
     */
    void failed(Report.Failed report);

    /** @return each node's standing failure, by node name */
    Map<String, Report.Failed> failures();

    /**
     * @return the builds done, by id ({@code build:MODULE@VERSION/ARTIFACT}), each with the archive it
     *     made and where hosts get it; a success recorded without them (by a controller before builds
     *     named their archive) is not among them, and may be requested again
     */
    Map<String, Built> built();

    /** @return ids of the builds requested and not done yet */
    Set<String> requested();

    /**
     * Requests a build: it is to be sent to the builders, also when it was sent before and not
     * finished yet (the {@code build} verb asks again), and it is no longer {@linkplain #failedBuilds()
     * failed}. A build done is never requested again.
     *
     * @param buildId {@code build:MODULE@VERSION/ARTIFACT}
     * @return {@code true} when the build is new: neither requested nor done before (a build that
     *     failed may be requested again)
     * @throws IllegalArgumentException when the id is not of that form
     */
    boolean request(String buildId);

    /** @return ids of the builds requested and not sent to the builders since */
    Set<String> unsentBuilds();

    /**
     * Records that a requested build was sent to the builders: plan work, written only while the plan
     * lock is held. A build no longer requested is left alone.
     *
     * @param buildId {@code build:MODULE@VERSION/ARTIFACT}
     * @param epoch the fencing epoch it was sent with
     * @throws IllegalArgumentException when the id is not of that form
     * @throws VerbException {@code unavailable} when the inventory is fenced and the plan lock was lost
     */
    void sent(String buildId, long epoch);

    /** @return ids of the builds whose last outcome was a failure, not requested since */
    Set<String> failedBuilds();

    /**
     * Records how a requested build ended: it is no longer requested; when it succeeded it is
     * {@linkplain #built() built}, with its artifact, and never requested again, when it failed it may
     * be. A build once built stays built: a failure reported after the success is ignored.
     *
     * @param report what the builder reported: a success with its {@linkplain Report.Build#artifact()
     *     artifact}, or a failure
     * @throws IllegalArgumentException when the id is not of that form, or a success names no usable
     *     artifact (see {@link Report.Build#usable()})
     */
    void finish(Report.Build report);
}
