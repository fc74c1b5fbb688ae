package dev.mesh.controller.manifest.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Names to values, in the order they were added. A manifest declares a handful of each kind of
 * name, so a linear search (no hash of every fresh string, no entry objects) serves; past
 * {@value #INDEXED} names an index keeps look-ups constant for documents that are not manifests.
 *
 * @param <V> value type
 */
final class NameTable<V> {

    private static final int INDEXED = 16;
    private static final String[] EMPTY_NAMES = {};
    private static final Object[] EMPTY_VALUES = {};

    // Arrays are made on the first name: a manifest leaves several of its six tables empty.
    private String[] names = EMPTY_NAMES;
    private Object[] values = EMPTY_VALUES;
    private int size;
    private Map<String, Integer> index;

    /** Adds {@code name} unless it is taken. @return the value that holds the name, or null */
    V putIfAbsent(String name, V value) {
        V first = get(name);
        if (first != null) {
            return first;
        }
        if (size == names.length) {
            names = Arrays.copyOf(names, Math.max(4, size * 2));
            values = Arrays.copyOf(values, Math.max(4, size * 2));
        }
        names[size] = name;
        values[size] = value;
        size++;
        if (index != null) {
            index.put(name, size - 1);
        } else if (size > INDEXED) {
            index = new HashMap<>(size * 4);
            for (int i = 0; i < size; i++) {
                index.put(names[i], i);
            }
        }
        return null;
    }

    /** @return the value of {@code name}, or null */
    V get(String name) {
        if (index != null) {
            Integer at = index.get(name);
            return at == null ? null : value(at);
        }
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return value(i);
            }
        }
        return null;
    }

    boolean containsKey(String name) {
        return get(name) != null;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    String name(int i) {
        return names[i];
    }

    @SuppressWarnings("unchecked")
    V value(int i) {
        return (V) values[i];
    }

    /** @return the names, in the order they were added; a new list */
    List<String> names() {
        return new ArrayList<>(Arrays.asList(names).subList(0, size));
    }
}
