package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.MeshException;

/**
 * A command could not do its work for a reason outside its input's content, such as a directory it
 * cannot write. {@link Failures} prints the message as one line and exits with {@code 1} — after
 * the located problems of the cause, when the cause is a
 * {@link dev.mesh.controller.manifest.ManifestException} (a file that stopped the command).
 */
public final class CommandException extends MeshException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, where, and how to fix it
     */
    public CommandException(String message) {
        super(message);
    }

    /**
     * @param message what failed, where, and how to fix it
     * @param cause the failure underneath
     */
    public CommandException(String message, Throwable cause) {
        super(message, cause);
    }
}
