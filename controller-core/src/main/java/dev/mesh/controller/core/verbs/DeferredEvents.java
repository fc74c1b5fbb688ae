package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The verbs' events: told at once, but inside {@link #deferred} held until the work returned, then told
 * in order — and dropped when it throws, since its changes were undone. A mutating request's events then
 * follow its commit: an executor round they start reads what the request changed.
 *
 * <p>Thread-safe: each thread defers its own.
 */
final class DeferredEvents implements Events {

    private record Held(String kind, Map<String, Object> payload) {
    }

    private final Events events;
    private final ThreadLocal<List<Held>> held = new ThreadLocal<>();

    DeferredEvents(Events events) {
        this.events = Objects.requireNonNull(events, "events");
    }

    @Override
    public void publish(String kind, Map<String, Object> payload) {
        List<Held> holding = held.get();
        if (holding == null) {
            events.publish(kind, payload);
        } else {
            holding.add(new Held(kind, payload));
        }
    }

    /**
     * Runs {@code work}, holding the events it publishes until it returns; inside another {@code deferred}
     * on this thread, the outer one holds them.
     */
    <T> T deferred(Supplier<T> work) {
        if (held.get() != null) {
            return work.get();
        }
        List<Held> holding = new ArrayList<>();
        held.set(holding);
        T result;
        try {
            result = work.get();
        } finally {
            held.remove();
        }
        holding.forEach(event -> events.publish(event.kind(), event.payload()));
        return result;
    }
}
