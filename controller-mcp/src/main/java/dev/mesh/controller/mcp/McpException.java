package dev.mesh.controller.mcp;

import dev.mesh.controller.manifest.MeshException;
import java.util.Objects;

/**
 * A failure of the MCP protocol or its transports, as opposed to a verb's own failure (which is a
 * {@link dev.mesh.controller.core.VerbException}, a tool result with {@code isError}). Its
 * {@link Kind} says what to do about it.
 */
public final class McpException extends MeshException {

    private static final long serialVersionUID = 1L;

    /** What kind of failure. */
    public enum Kind {
        /** A JSON-RPC error: the message was malformed, or the method or its parameters unknown; see {@link #rpcCode()}. */
        PROTOCOL,
        /** The controller could not be reached (or did not answer in time); the message says what was tried. */
        UNREACHABLE,
        /** The controller refused the bearer token (HTTP 401) or the request's origin (HTTP 403). */
        UNAUTHORIZED,
        /** A server or a token file cannot be set up as asked: an address, a port, a file. */
        SETUP
    }

    private final Kind kind;
    private final int rpcCode;

    private McpException(Kind kind, int rpcCode, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.rpcCode = rpcCode;
    }

    /**
     * @param rpcCode the JSON-RPC error code, e.g. {@code -32602}
     * @param message what was wrong with the message and how to fix it
     * @return a protocol error
     */
    public static McpException protocol(int rpcCode, String message) {
        return new McpException(Kind.PROTOCOL, rpcCode, message, null);
    }

    /**
     * @param message what was tried and what to check
     * @param cause the I/O failure, or {@code null}
     * @return an unreachable controller
     */
    public static McpException unreachable(String message, Throwable cause) {
        return new McpException(Kind.UNREACHABLE, 0, message, cause);
    }

    /**
     * @param message what was refused and how to fix it
     * @return a refused caller
     */
    public static McpException unauthorized(String message) {
        return new McpException(Kind.UNAUTHORIZED, 0, message, null);
    }

    /**
     * @param message what cannot be set up and how to fix it
     * @param cause the I/O failure, or {@code null}
     * @return a setup failure
     */
    public static McpException setup(String message, Throwable cause) {
        return new McpException(Kind.SETUP, 0, message, cause);
    }

    /** @return what kind of failure */
    public Kind kind() {
        return kind;
    }

    /** @return the JSON-RPC error code of a {@link Kind#PROTOCOL} failure, otherwise 0 */
    public int rpcCode() {
        return rpcCode;
    }
}
