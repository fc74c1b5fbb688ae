package dev.mesh.controller.cli;

import dev.mesh.controller.manifest.MeshException;
import java.util.List;

/**
 * No controller could be talked to: none was found, or the one found did not answer as a mesh
 * controller. {@link Failures} prints every place that was tried, one per line, and exits with
 * {@code 3}.
 */
final class UnreachableException extends MeshException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> tried;

    /** @param tried each place consulted and why it did not give a controller; at least one */
    UnreachableException(List<String> tried) {
        this(tried, null);
    }

    /**
     * @param tried each place consulted and why it did not give a controller; at least one
     * @param cause the failure of the last one, or {@code null}
     */
    UnreachableException(List<String> tried, Throwable cause) {
        super("no controller was reached; tried: " + String.join("; ", tried), cause);
        if (tried.isEmpty()) {
            throw new IllegalArgumentException("an UnreachableException needs what was tried");
        }
        this.tried = List.copyOf(tried);
    }

    /** @return each place consulted, in order, and why it did not give a controller */
    List<String> tried() {
        return tried;
    }
}
