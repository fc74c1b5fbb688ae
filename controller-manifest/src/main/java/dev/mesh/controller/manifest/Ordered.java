package dev.mesh.controller.manifest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Immutable copies of maps that keep the document's order, which {@code Map.copyOf} does not. */
final class Ordered {

    private Ordered() {
    }

    static <K, V> Map<K, V> copyOf(Map<K, V> map) {
        if (map instanceof dev.mesh.controller.manifest.internal.FrozenMap<K, V> frozen) {
            return frozen;
        }
        if (map.isEmpty()) {
            // Most resources have no env: no copy, no wrapper.
            return Map.of();
        }
        Map<K, V> copy = new LinkedHashMap<>(map.size() * 2);
        map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value")));
        return Collections.unmodifiableMap(copy);
    }
}
