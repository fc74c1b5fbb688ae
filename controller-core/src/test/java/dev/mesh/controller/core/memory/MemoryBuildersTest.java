package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Builders;
import dev.mesh.controller.core.BuildersContract;
import java.util.List;

/** {@link MemoryBuilders} passes the builders' contract: what a builder would get is what it kept. */
class MemoryBuildersTest extends BuildersContract {

    private MemoryBuilders builders;
    private final ReadSoFar<MemoryBuilders.Requested> read = new ReadSoFar<>();

    @Override
    protected Builders newBuilders() {
        builders = new MemoryBuilders();
        return builders;
    }

    @Override
    protected List<Received> receivedOn(String system) {
        return read.next(system, builders.requested().stream().filter(r -> r.order().system().equals(system))
                .toList()).stream().map(r -> new Received(r.order(), r.epoch())).toList();
    }
}
