package dev.mesh.controller.core;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A build that succeeded: which archive it made and where a host gets it. A declaration pins the
 * digest of the artifact each of its processes runs, so a host runs exactly these bytes; a build
 * whose builder named no digest is not one a declaration can pin, and counts as not built.
 *
 * @param build the build's id, {@code build:MODULE@VERSION/ARTIFACT}
 * @param sha256 the lower-case hex SHA-256 of the archive, 64 digits
 * @param location where a host gets the archive: a URI ({@code file:}, {@code http:}, {@code https:}, …)
 */
public record Built(String build, String sha256, String location) {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the id is not a build's, the digest is not 64 lower-case
     *     hex digits, or the location is empty
     */
    public Built {
        Objects.requireNonNull(build, "build");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(location, "location");
        if (!build.startsWith("build:")) {
            throw new IllegalArgumentException("a build is named build:MODULE@VERSION/ARTIFACT, not \"" + build + "\"");
        }
        if (!isDigest(sha256)) {
            throw new IllegalArgumentException("the SHA-256 of " + build + " must be 64 lower-case hex digits, as "
                    + "sha256sum prints it; got \"" + sha256 + "\"");
        }
        if (location.isBlank()) {
            throw new IllegalArgumentException("the location of " + build + " is empty; say where a host gets the "
                    + "archive, as a URI");
        }
    }

    /** @return whether {@code text} is a SHA-256 as a build names it: 64 lower-case hex digits */
    public static boolean isDigest(String text) {
        return text != null && SHA256.matcher(text).matches();
    }
}
