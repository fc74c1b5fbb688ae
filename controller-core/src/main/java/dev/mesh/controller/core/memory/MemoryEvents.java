package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Events;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link Events} kept in memory, in order, for offline use and tests. Thread-safe. */
public final class MemoryEvents implements Events {

    /** One published event. */
    public record Event(String kind, Map<String, Object> payload) {
        /** Copies the payload, keeping its order and its {@code null} values (a {@code gapMs} unknown). */
        public Event {
            payload = Collections.unmodifiableMap(new LinkedHashMap<>(payload));
        }
    }

    private final List<Event> events = new ArrayList<>();

    @Override
    public synchronized void publish(String kind, Map<String, Object> payload) {
        events.add(new Event(kind, payload));
    }

    /** @return every event so far, in order */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }
}
