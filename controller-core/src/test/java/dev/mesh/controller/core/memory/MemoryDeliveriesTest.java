package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Deliveries;
import dev.mesh.controller.core.DeliveriesContract;
import java.util.List;

/** {@link MemoryDeliveries} passes the deliveries' contract: what a host would get is what it kept. */
class MemoryDeliveriesTest extends DeliveriesContract {

    private MemoryDeliveries deliveries;
    private final ReadSoFar<MemoryDeliveries.Delivered> read = new ReadSoFar<>();

    @Override
    protected Deliveries newDeliveries() {
        deliveries = new MemoryDeliveries();
        return deliveries;
    }

    @Override
    protected List<Received> receivedBy(String node) {
        return read.next(node, deliveries.delivered().stream().filter(d -> d.declaration().node().equals(node))
                .toList()).stream().map(d -> new Received(d.declaration(), d.declaration().revision(), d.epoch()))
                .toList();
    }
}
