package dev.mesh.controller.manifest;

import java.util.Locale;

/** How bad a {@link Problem} is. An error makes the document invalid; a warning does not. */
public enum Severity {
    /** The document cannot be used until this is fixed. */
    ERROR,
    /** The document is usable, but probably not what its author meant. */
    WARNING;

    /** @return the lower-case name used in text and JSON output */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
