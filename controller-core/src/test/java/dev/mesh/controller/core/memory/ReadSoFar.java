package dev.mesh.controller.core.memory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a reader of a kept list has read so far, per key: each call gives what was added since the last. */
final class ReadSoFar<T> {

    private final Map<String, Integer> read = new HashMap<>();

    /**
     * @param key whose reading it is (a node, a system)
     * @param all everything kept for that key, in order
     * @return what of it was not given before for {@code key}
     */
    List<T> next(String key, List<T> all) {
        return next(key, all, Integer.MAX_VALUE);
    }

    /** The same, at most {@code max} of it: the rest is given by the next call. */
    List<T> next(String key, List<T> all, int max) {
        int from = Math.min(read.getOrDefault(key, 0), all.size());
        int to = (int) Math.min(all.size(), (long) from + max);
        read.put(key, to);
        return List.copyOf(all.subList(from, to));
    }
}
