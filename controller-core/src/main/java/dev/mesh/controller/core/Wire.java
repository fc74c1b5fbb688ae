package dev.mesh.controller.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the transports under the controller counted, for {@code status} (docs/design.md section 8: dead
 * letters are counted there, with what came in and went out): in a mesh the launcher gives one that
 * reads the broker's dead-letter queue and the counts of the facts in, the reports in and the events
 * out; the development controller has no broker and no bus, and gives {@link #NONE}. A port.
 *
 * <p>{@code status} reads it in its periodic refresh only, never per call, so it may cost a round
 * trip to the broker. Implementations are thread-safe.
 */
@FunctionalInterface
public interface Wire {

    /** No transport to count: {@code status} shows no {@code bus}. */
    Wire NONE = Map::of;

    /**
     * Reads the counts now. Does not throw for a transport that does not answer: that is told in the
     * map, as {@code status} tells a store that does not answer.
     *
     * @return JSON-able values (numbers, strings, {@code null}, maps of them), in the order they are
     *     to be shown; empty for nothing to count
     */
    Map<String, Object> counts();

    /**
     * @param name the entry's name, after this wire's own
     * @param value read with the counts, a JSON-able value
     * @return this wire's counts and one more entry: what another part of the controller tells (the store's
     *     primary, say) beside the transports
     */
    default Wire with(String name, Supplier<Object> value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        return () -> {
            Map<String, Object> counts = new LinkedHashMap<>(counts());
            counts.put(name, value.get());
            return counts;
        };
    }
}
