package dev.mesh.controller.manifest;

import java.util.List;
import java.util.Objects;

/**
 * One thing wrong with a document, in the shape used everywhere: a stable {@code code}, a
 * {@code severity}, a {@code message} that says what is wrong, where, with which value and how to
 * fix it, an optional {@code hint} ("did you mean …"), the location, and {@code related} locations
 * for conflicts, so that both sides are named.
 *
 * @param code stable, kebab-case identifier of the kind of problem; see docs/manifest.md
 * @param severity error or warning
 * @param message the full human sentence(s)
 * @param hint a short suggestion such as {@code did you mean "mode"?}, or {@code null}
 * @param location where the problem is
 * @param related the other places involved, empty when none
 */
public record Problem(String code, Severity severity, String message, String hint, Location location,
        List<Location> related) {

    /** Checks and copies the parts. */
    public Problem {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(location, "location");
        related = List.copyOf(related);
    }

    /**
     * An error without hint or related locations.
     *
     * @param code the stable code
     * @param message what is wrong and how to fix it
     * @param location where
     * @return the problem
     */
    public static Problem error(String code, String message, Location location) {
        return new Problem(code, Severity.ERROR, message, null, location, List.of());
    }

    /**
     * A warning without hint or related locations: something likely meant otherwise, which does
     * not make the document invalid.
     *
     * @param code the stable code
     * @param message what is likely wrong and how to fix it
     * @param location where
     * @return the problem
     */
    public static Problem warning(String code, String message, Location location) {
        return new Problem(code, Severity.WARNING, message, null, location, List.of());
    }

    /** @return a copy with the given hint */
    public Problem withHint(String newHint) {
        return new Problem(code, severity, message, newHint, location, related);
    }

    /** @return a copy with the given related locations */
    public Problem withRelated(List<Location> newRelated) {
        return new Problem(code, severity, message, hint, location, newRelated);
    }

    /** @return {@code true} for errors */
    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** @return {@code FILE:LINE:COLUMN: POINTER: MESSAGE}, the root pointer shown as {@code (root)} */
    @Override
    public String toString() {
        String pointer = location.pointer().isEmpty() ? "(root)" : location.pointer();
        return location.file() + ":" + location.line() + ":" + location.column() + ": " + pointer + ": " + message
                + (hint == null ? "" : " (" + hint + ")");
    }
}
