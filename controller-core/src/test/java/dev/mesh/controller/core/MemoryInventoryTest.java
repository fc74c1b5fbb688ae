package dev.mesh.controller.core;

/** The {@link InventoryContract} on {@link MemoryInventory}. */
class MemoryInventoryTest extends InventoryContract {

    @Override
    protected Inventory newInventory() {
        return new MemoryInventory();
    }
}
