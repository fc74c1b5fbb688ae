package dev.mesh.controller.launcher;

import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import java.util.Objects;

/**
 * Where the store's three databases are and how to log in to each, as {@code MESH_STORE_<NAME>_FILE}
 * and {@code MESH_STORE_<NAME>_PORT} say ({@link Config}). {@link Endpoint} masks the passwords.
 *
 * @param inventory the inventory database
 * @param identity the identity database
 * @param licences the licences database
 */
record Stores(Endpoint inventory, Endpoint identity, Endpoint licences) {

    Stores {
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(licences, "licences");
    }

    /**
     * @param database one of the three
     * @return where it is and how to log in
     */
    Endpoint endpoint(Database database) {
        return switch (database) {
            case INVENTORY -> inventory;
            case IDENTITY -> identity;
            case LICENCES -> licences;
        };
    }
}
