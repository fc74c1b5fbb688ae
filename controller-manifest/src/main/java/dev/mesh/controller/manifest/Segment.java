package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * One part of a parsed {@link Template}: literal text or a {@link Reference}.
 */
public sealed interface Segment permits Segment.Literal, Reference {

    /**
     * Text taken as it is. An escaped {@code $${} in the source is the literal {@code ${} here.
     *
     * @param text the literal text, never empty
     */
    record Literal(String text) implements Segment {

        /** Checks the text. */
        public Literal {
            Objects.requireNonNull(text, "text");
            if (text.isEmpty()) {
                throw new IllegalArgumentException("a literal segment is never empty");
            }
        }
    }
}
