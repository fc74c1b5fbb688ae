package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A place in a JSON document: the file it came from, the RFC 6901 pointer of the value, and the
 * 1-based line and column where that value starts.
 *
 * <p>Line and column are {@code 0} when a problem has no position, for example a file that could
 * not be read. The root of a document is the empty pointer {@code ""}.
 *
 * @param file the file name as the caller gave it, or {@code "<string>"} for text parsed from memory
 * @param pointer the RFC 6901 JSON pointer of the value
 * @param line 1-based line, or 0 when unknown
 * @param column 1-based column, or 0 when unknown
 */
public record Location(String file, String pointer, int line, int column) {

    /** Checks the parts: file and pointer are required, line and column are never negative. */
    public Location {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(pointer, "pointer");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column must be >= 0, got " + line + ":" + column);
        }
    }

    /**
     * A location with no position in the file, for problems of the whole file.
     *
     * @param file the file name
     * @return the location of the file's root with line and column 0
     */
    public static Location of(String file) {
        return new Location(file, "", 0, 0);
    }

    /**
     * @param newPointer the pointer of the same place
     * @return a copy with that pointer
     */
    public Location withPointer(String newPointer) {
        return new Location(file, newPointer, line, column);
    }

    /**
     * Appends a reference token to this location's pointer, escaping {@code ~} and {@code /} as
     * RFC 6901 requires. Line and column are kept: the caller replaces them when it knows better.
     *
     * @param token an object key or an array index
     * @return the pointer {@code pointer + "/" + escaped token}
     */
    public static String child(String pointer, String token) {
        if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
            return pointer + "/" + token;
        }
        return pointer + "/" + token.replace("~", "~0").replace("/", "~1");
    }
}
