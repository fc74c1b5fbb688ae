package dev.mesh.controller.core.internal.collect;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A plan's inputs as an unmodifiable map — {@code mesh} → the mesh digest, and
 * {@code acknowledged/NODE} → the revision each node acknowledged — over two arrays an
 * {@code IncrementalPlanner} shares between its plans: the keys of every node in name order and
 * their revisions, {@code null} for a node that acknowledged nothing.
 *
 * <p>Why not a {@code Map.copyOf}: at 100,000 nodes, hashing every entry into a new map was a fifth
 * of a re-plan's time, for every re-plan, while one assignment changes no acknowledged revision.
 * Here a plan whose revisions did not change shares the previous plan's arrays, and one whose
 * revisions changed copies one array (docs/composition-and-planning.md, "Plans").
 *
 * <p>Immutable, as long as its maker never writes the arrays again after handing them over (the
 * planner copies before it writes). Lookups are binary searches; iteration is in key order, the
 * {@code mesh} entry last.
 */
public final class PlanInputs extends AbstractMap<String, String> {

    private static final String MESH = "mesh";

    private final String mesh;
    private final String[] keys;
    private final String[] revisions;
    private final int acknowledged;
    private Set<Entry<String, String>> entries;

    /**
     * @param mesh the mesh digest
     * @param keys {@code acknowledged/NODE} for every node, sorted ({@link String#compareTo})
     * @param revisions each key's revision, {@code null} where its node acknowledged nothing
     * @param acknowledged how many revisions are not {@code null}
     */
    public PlanInputs(String mesh, String[] keys, String[] revisions, int acknowledged) {
        this.mesh = Objects.requireNonNull(mesh, "mesh");
        this.keys = keys;
        this.revisions = revisions;
        this.acknowledged = acknowledged;
        if (keys.length != revisions.length) {
            throw new IllegalArgumentException(keys.length + " keys for " + revisions.length + " revisions");
        }
    }

    @Override
    public String get(Object key) {
        if (MESH.equals(key)) {
            return mesh;
        }
        if (!(key instanceof String text)) {
            return null;
        }
        int at = Arrays.binarySearch(keys, text);
        return at >= 0 ? revisions[at] : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return acknowledged + 1;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        if (entries == null) {
            entries = new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, String>> iterator() {
                    return new Entries();
                }

                @Override
                public int size() {
                    return acknowledged + 1;
                }
            };
        }
        return entries;
    }

    /** The acknowledged revisions in key order, then {@code mesh}. */
    private final class Entries implements Iterator<Entry<String, String>> {
        private int at = next(0);
        private boolean meshGiven;

        private int next(int from) {
            int i = from;
            while (i < revisions.length && revisions[i] == null) {
                i++;
            }
            return i;
        }

        @Override
        public boolean hasNext() {
            return !meshGiven;
        }

        @Override
        public Entry<String, String> next() {
            if (at < revisions.length) {
                Entry<String, String> entry = Map.entry(keys[at], revisions[at]);
                at = next(at + 1);
                return entry;
            }
            if (meshGiven) {
                throw new NoSuchElementException();
            }
            meshGiven = true;
            return Map.entry(MESH, mesh);
        }
    }
}
