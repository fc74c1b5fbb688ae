package dev.mesh.controller.manifest;

/**
 * Root of the controller's unchecked exception hierarchy: one subclass per category
 * ({@link ManifestException} here; plan, store, bus and handover failures in the modules that own them).
 *
 * <p>Every message says what failed, where, with which value and how to fix it. Programmer errors are
 * not part of this hierarchy: they stay {@link NullPointerException}, {@link IllegalArgumentException}
 * and {@link IllegalStateException}.
 */
public abstract class MeshException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, where, and how to fix it
     */
    protected MeshException(String message) {
        super(message);
    }

    /**
     * @param message what failed, where, and how to fix it
     * @param cause the third-party failure this one wraps, once, at a module boundary
     */
    protected MeshException(String message, Throwable cause) {
        super(message, cause);
    }
}
