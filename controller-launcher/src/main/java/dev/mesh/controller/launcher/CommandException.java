package dev.mesh.controller.launcher;

import dev.mesh.controller.manifest.MeshException;

/**
 * A command could not do its work for a reason outside its input's content, such as a directory it
 * cannot write. {@link Main} prints the message as one line and exits with {@code 1}.
 */
final class CommandException extends MeshException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, where, and how to fix it
     * @param cause the failure underneath
     */
    CommandException(String message, Throwable cause) {
        super(message, cause);
    }
}
