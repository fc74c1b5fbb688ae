package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.RequestRecords;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link RequestRecords} in memory, for offline use and tests. Thread-safe. */
public final class MemoryRequestRecords implements RequestRecords {

    private final Map<String, Recorded> records = new ConcurrentHashMap<>();

    @Override
    public Optional<Recorded> find(String requestId) {
        return Optional.ofNullable(records.get(requestId));
    }

    @Override
    public void record(Recorded recorded) {
        records.putIfAbsent(recorded.requestId(), recorded);
    }
}
