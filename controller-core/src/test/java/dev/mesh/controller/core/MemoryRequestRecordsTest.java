package dev.mesh.controller.core;

/** {@link MemoryRequestRecords} passes the request records' contract. */
class MemoryRequestRecordsTest extends RequestRecordsContract {

    @Override
    protected RequestRecords newRecords() {
        return new MemoryRequestRecords();
    }
}
