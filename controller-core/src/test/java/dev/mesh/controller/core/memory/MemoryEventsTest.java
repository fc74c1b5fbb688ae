package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.EventsContract;
import java.util.List;

/** {@link MemoryEvents} passes the events' contract: what the mesh would get is what it kept. */
class MemoryEventsTest extends EventsContract {

    private MemoryEvents events;
    private final ReadSoFar<MemoryEvents.Event> read = new ReadSoFar<>();

    @Override
    protected Events newEvents() {
        events = new MemoryEvents();
        return events;
    }

    @Override
    protected List<Received> received(int count) {
        return read.next("", events.events(), count).stream().map(e -> new Received(e.kind(), e.payload()))
                .toList();
    }
}
