package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.InventoryContract;

/** The {@link InventoryContract} on {@link MemoryInventory}. */
public class MemoryInventoryTest extends InventoryContract {

    @Override
    protected Inventory newInventory() {
        return new MemoryInventory();
    }
}
