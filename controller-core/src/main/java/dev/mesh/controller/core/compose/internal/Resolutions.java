package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.internal.json.DeclarationJson;
import dev.mesh.controller.manifest.Reference;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.SeatHolder;
import dev.mesh.controller.manifest.Segment;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;

/**
 * Resolved templates shared between the nodes composed with one layout: a template whose value
 * does not depend on the node resolving it — only literals, {@code ${dir:…}}, {@code ${module:…}}
 * and {@code ${seat:…}} — is resolved once per combination of the holders its seats have as the
 * node sees them, and that value is reused; one of literals and {@code ${node:…}} facts only is
 * written directly on each node.
 *
 * <p>Why: {@link Substitution} builds each value with its provenance and locations, which
 * composition does not keep; in the 10,000-node benchmark mesh, five of the six templates of every
 * module resolve to the same value on every node, and sharing them takes composition's allocation
 * from about 38 KB to about 24 KB per node. A template that does not resolve is resolved again on
 * each node, so its problems name that node. A template mixing {@code ${node:…}} with other
 * references, and one with {@code ${secret:…}} (whose path may name the node), are resolved by the
 * node's {@link Substitution}.
 *
 * <p>An environment (a map of templates) is shared whole in the same way: its values, as one map,
 * are kept per combination of the holders of all its seats, unless a template in it is resolved
 * on each node. Why: the map itself and its bytes in a digest ({@link DeclarationJson}) are then
 * made once for all the nodes that see the same holders.
 *
 * <p>Not thread-safe; one composition (or one {@code IncrementalPlanner}) uses it at a time. A
 * template is known by identity, so the values are those of the manifests it has seen; it must be
 * dropped when the layout changes.
 */
public final class Resolutions {

    /** Marks a template resolved on each node. */
    private static final List<String> PER_NODE = List.of("\0per-node");
    /** Marks a template of literals and {@code ${node:…}} facts only, written here on each node. */
    private static final List<String> NODE_FACTS = List.of("\0node-facts");

    /** Template → the seats its value depends on (empty: none), or {@link #PER_NODE}. */
    private final Map<Template, List<String>> seatsOf = new IdentityHashMap<>();
    /** Template → the holders of its seats → its resolved value. */
    private final Map<Template, Map<List<SeatHolder>, Resolution>> values = new IdentityHashMap<>();
    /** Map of templates → the seats its values depend on, or {@link #PER_NODE}. */
    private final Map<Map<String, Template>, List<String>> mapSeatsOf = new IdentityHashMap<>();
    /** Map of templates → the holders of its seats → its values, shared by the nodes that see those holders. */
    private final Map<Map<String, Template>, Map<List<SeatHolder>, SortedMap<String, String>>> maps =
            new IdentityHashMap<>();

    /**
     * @param template a template of the manifest {@code substitution} resolves
     * @param substitution the manifest's substitution on {@code node}: called only for a template
     *     whose value is not known here
     * @param seating the seating {@code substitution}'s bindings see
     * @param node the node being composed
     * @return what {@code substitution.apply(template)} gives, or the same value without its
     *     provenance (which composition does not keep)
     */
    public Resolution resolve(Template template, Function<Template, Resolution> substitution, Seating seating,
            Node node) {
        List<String> seats = seatsOf.computeIfAbsent(template, Resolutions::seats);
        if (seats == NODE_FACTS) {
            return new Resolution.Resolved(nodeFacts(template, node), List.of());
        }
        if (seats == PER_NODE) {
            return substitution.apply(template);
        }
        List<SeatHolder> holders = holders(seats, seating, node);
        if (holders == null) {
            return substitution.apply(template);
        }
        Map<List<SeatHolder>, Resolution> byHolders = values.computeIfAbsent(template, t -> new HashMap<>());
        Resolution value = byHolders.get(holders);
        if (value == null) {
            value = substitution.apply(template);
            if (value instanceof Resolution.Resolved) {
                byHolders.put(holders, value);
            }
        }
        return value;
    }

    /**
     * The key under which a map of templates (an environment) has values shared between nodes: the
     * holders of the seats its templates reference, as the node sees them.
     *
     * @return the holders, or null when the map's values are resolved on each node: a template
     *     in it is ({@link #resolve}), or a seat it references has no holder
     */
    List<SeatHolder> holders(Map<String, Template> templates, Seating seating, Node node) {
        List<String> seats = mapSeatsOf.get(templates);
        if (seats == null) {
            seats = mapSeats(templates);
            mapSeatsOf.put(templates, seats);
        }
        return seats == PER_NODE ? null : holders(seats, seating, node);
    }

    /** @return the values {@link #remember remembered} for the map and holders, or null */
    SortedMap<String, String> values(Map<String, Template> templates, List<SeatHolder> holders) {
        Map<List<SeatHolder>, SortedMap<String, String>> byHolders = maps.get(templates);
        return byHolders == null ? null : byHolders.get(holders);
    }

    /**
     * Keeps the values of a map of templates for every node that sees the same holders.
     *
     * @param resolved the values, all resolved; never changed after this
     */
    void remember(Map<String, Template> templates, List<SeatHolder> holders, SortedMap<String, String> resolved) {
        maps.computeIfAbsent(templates, t -> new HashMap<>()).put(holders, resolved);
    }

    /** The seats the values of a map of templates depend on, in order of appearance, or {@link #PER_NODE}. */
    private List<String> mapSeats(Map<String, Template> templates) {
        Set<String> seats = new LinkedHashSet<>();
        for (Template template : templates.values()) {
            List<String> its = seatsOf.computeIfAbsent(template, Resolutions::seats);
            if (its == PER_NODE || its == NODE_FACTS) {
                return PER_NODE;
            }
            seats.addAll(its);
        }
        return List.copyOf(seats);
    }

    /** The holders of the seats as the node sees them, or null when one has none. */
    private static List<SeatHolder> holders(List<String> seats, Seating seating, Node node) {
        if (seats.isEmpty()) {
            return List.of();
        }
        if (seats.size() == 1) {
            SeatHolder holder = seating.holderAsSeenFrom(seats.getFirst(), node.name());
            return holder == null ? null : List.of(holder);
        }
        List<SeatHolder> holders = new ArrayList<>(seats.size());
        for (String seat : seats) {
            SeatHolder holder = seating.holderAsSeenFrom(seat, node.name());
            if (holder == null) {
                return null;
            }
            holders.add(holder);
        }
        return holders;
    }

    private static List<String> seats(Template template) {
        List<String> seats = new ArrayList<>();
        boolean nodeFacts = false;
        boolean others = false;
        for (Segment segment : template.segments()) {
            switch (segment) {
                case Segment.Literal literal -> {
                }
                case Reference.Dir dir -> others = true;
                case Reference.ModuleFact fact -> others = true;
                case Reference.Seat seat -> {
                    others = true;
                    seats.add(seat.seat());
                }
                case Reference.NodeFact fact -> nodeFacts = true;
                case Reference.Secret secret -> {
                    return PER_NODE;
                }
            }
        }
        if (nodeFacts) {
            return others ? PER_NODE : NODE_FACTS;
        }
        return List.copyOf(seats);
    }

    /**
     * The value of a template of literals and node facts, which always resolves: without the
     * provenance and locations {@link Substitution} builds, which were most of what composing
     * {@code --node=${node:name}} on every node allocated.
     */
    private static String nodeFacts(Template template, Node node) {
        StringBuilder value = new StringBuilder();
        for (Segment segment : template.segments()) {
            switch (segment) {
                case Segment.Literal literal -> value.append(literal.text());
                case Reference.NodeFact fact -> value.append(switch (fact.fact()) {
                    case NAME -> node.name();
                    case ADDRESS -> node.address();
                    case SYSTEM -> node.system();
                });
                case Reference reference -> throw new IllegalStateException("not a node fact: " + reference.text());
            }
        }
        return value.toString();
    }
}
