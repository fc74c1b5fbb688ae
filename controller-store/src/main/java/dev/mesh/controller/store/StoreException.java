package dev.mesh.controller.store;

import dev.mesh.controller.manifest.MeshException;

/**
 * The store failed: a database could not be reached or migrated, its schema is not the one this
 * controller needs, or what it holds cannot be read back. The message says which database, what
 * failed and how to fix it; the cause is the driver's, jOOQ's or Flyway's exception.
 */
public final class StoreException extends MeshException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed, in which database, and how to fix it */
    public StoreException(String message) {
        super(message);
    }

    /**
     * @param message what failed, in which database, and how to fix it
     * @param cause the third-party exception
     */
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
