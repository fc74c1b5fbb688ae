package dev.mesh.controller.core;

import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.MeshException;
import java.util.Locale;
import java.util.Objects;

/**
 * A verb that failed for a reason its caller can act on: a stable {@link Code}, a message that says
 * what and how to fix it, and the JSON pointer of the bad argument when there is one. Transports
 * turn it into a tool result with {@code isError}.
 *
 * <p>{@link #from(MeshException)} is the one boundary between the project's exception hierarchy and
 * the verbs' error codes: every transport and {@code Verbs} map failures through it.
 */
public final class VerbException extends MeshException {

    private static final long serialVersionUID = 1L;

    /** The stable error codes of docs/design.md section 7. */
    public enum Code {
        /** What the request names does not exist. */
        NOT_FOUND,
        /** The request is malformed or breaks a rule. */
        INVALID,
        /** The request contradicts the current state. */
        CONFLICT,
        /** The caller may not call this verb. */
        UNAUTHORIZED,
        /** The controller cannot serve the request now. */
        UNAVAILABLE;

        /** @return the code as sent, e.g. {@code not-found} */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * @param label a code as sent, e.g. {@code not-found}
         * @return the code with that {@link #label()}
         * @throws IllegalArgumentException when no code has it
         */
        public static Code of(String label) {
            for (Code code : values()) {
                if (code.label().equals(label)) {
                    return code;
                }
            }
            throw new IllegalArgumentException("no verb error code is labelled \"" + label + "\"");
        }
    }

    private final Code code;
    private final String pointer;

    /**
     * @param code the kind of failure
     * @param message what failed and how to fix it
     * @param pointer the JSON pointer of the bad argument, or {@code ""}
     */
    public VerbException(Code code, String message, String pointer) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
        this.pointer = Objects.requireNonNull(pointer, "pointer");
    }

    /**
     * @param code the kind of failure
     * @param message what failed and how to fix it
     * @param pointer the JSON pointer of the bad argument, or {@code ""}
     * @param cause the failure this one reports, kept for the log (never shown to a caller)
     */
    public VerbException(Code code, String message, String pointer, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.pointer = Objects.requireNonNull(pointer, "pointer");
    }

    /**
     * The verb error a failure of the project's hierarchy is to its caller: a {@code VerbException}
     * is itself; a {@link ManifestException} (a document the caller sent) is {@code invalid}; every
     * other category — the store, the broker, the bus, the handover, whatever cannot be reached or
     * used now — is {@code unavailable}, with the failure's message (which says what could not be
     * reached and how to fix it, and never holds a secret) and the failure as its cause.
     *
     * @param failure what went wrong
     * @return the verb error to answer with
     */
    public static VerbException from(MeshException failure) {
        return switch (failure) {
            case VerbException verb -> verb;
            case ManifestException manifest -> new VerbException(Code.INVALID, manifest.getMessage(), "", manifest);
            default -> new VerbException(Code.UNAVAILABLE, failure.getMessage(), "", failure);
        };
    }

    /** @return the kind of failure */
    public Code code() {
        return code;
    }

    /** @return the JSON pointer of the bad argument, or {@code ""} */
    public String pointer() {
        return pointer;
    }
}
