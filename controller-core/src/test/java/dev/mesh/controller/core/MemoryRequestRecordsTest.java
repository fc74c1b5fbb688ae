package dev.mesh.controller.core;

import dev.mesh.controller.core.memory.MemoryRequestRecords;

/** {@link MemoryRequestRecords} passes the request records' contract. */
class MemoryRequestRecordsTest extends RequestRecordsContract {

    @Override
    protected RequestRecords newRecords() {
        return new MemoryRequestRecords();
    }
}
