package dev.mesh.controller.manifest.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An unmodifiable map in insertion order, built by the parser and handed to the model's records
 * without a second copy. Not API.
 *
 * <p>Keys and values are kept in two arrays of the exact size. The maps of a manifest
 * ({@code env}, {@code own-secrets}) hold a few to a dozen entries, so a linear search serves;
 * past {@value #INDEXED} keys a hash index keeps look-ups constant. Compared with the
 * {@code LinkedHashMap} it replaces this saves an entry object per variable and the hash table,
 * about 5 KB per batch of the example manifests.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class FrozenMap<K, V> extends AbstractMap<K, V> {

    private static final int INDEXED = 16;

    private final Object[] keys;
    private final Object[] values;
    private final Map<Object, Integer> index;

    private FrozenMap(Object[] keys, Object[] values) {
        this.keys = keys;
        this.values = values;
        if (keys.length > INDEXED) {
            index = new HashMap<>(keys.length * 2);
            for (int i = 0; i < keys.length; i++) {
                index.put(keys[i], i);
            }
        } else {
            index = null;
        }
    }

    /**
     * Takes over the first {@code size} entries of {@code keys} and {@code values}: the caller must
     * not keep or change the arrays, the keys are distinct, and nothing is null.
     *
     * @return the unmodifiable map
     */
    static <K, V> Map<K, V> of(Object[] keys, Object[] values, int size) {
        if (size == 0) {
            return Map.of();
        }
        return size == keys.length ? new FrozenMap<>(keys, values)
                : new FrozenMap<>(Arrays.copyOf(keys, size), Arrays.copyOf(values, size));
    }

    private int find(Object key) {
        if (index != null) {
            Integer at = index.get(key);
            return at == null ? -1 : at;
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int at = key == null ? -1 : find(key);
        return at < 0 ? null : (V) values[at];
    }

    @Override
    public boolean containsKey(Object key) {
        return key != null && find(key) >= 0;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<K, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < keys.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<K, V> next() {
                        if (next >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<K, V> entry = Map.entry((K) keys[next], (V) values[next]);
                        next++;
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }
}
