package dev.mesh.controller.manifest.internal;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An unmodifiable map in insertion order that owns the map it is built from, so the parser's maps
 * reach the model's records without a second copy. Not API.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class FrozenMap<K, V> extends AbstractMap<K, V> {

    private final Map<K, V> map;

    private FrozenMap(Map<K, V> map) {
        this.map = map;
    }

    /**
     * Takes over {@code map}: the caller must not keep or change it, and it holds no null.
     *
     * @return the unmodifiable view
     */
    static <K, V> Map<K, V> of(LinkedHashMap<K, V> map) {
        return new FrozenMap<>(map);
    }

    @Override
    public V get(Object key) {
        return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map.containsKey(key);
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return Collections.unmodifiableMap(map).entrySet();
    }
}
