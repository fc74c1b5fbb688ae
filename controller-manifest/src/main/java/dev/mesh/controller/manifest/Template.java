package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.internal.TemplateSyntax;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A string with {@code ${kind:arg…}} references, parsed into {@link Segment}s when its manifest is
 * parsed. The grammar is docs/design.md section 4: {@code $${} is a literal {@code ${}, a {@code $} not
 * followed by {@code {} is literal, no defaults, no nesting.
 *
 * <p>Instances are immutable and thread-safe. Resolve one with {@link Substitution}.
 *
 * @param text the template as written
 * @param segments the parsed parts, in order; adjacent literals are merged
 * @param location where the template is written (the JSON string's position)
 */
public record Template(String text, List<Segment> segments, Location location) {

    /** Checks and copies the parts. */
    public Template {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(location, "location");
        segments = List.copyOf(segments);
    }

    /**
     * Parses a template that may use every reference kind, outside any manifest. Names (dir ids,
     * secret names) are checked only for form, not against a manifest.
     *
     * @param text the template text
     * @return the parsed template, located at {@code <template>}
     * @throws ManifestException with every problem of the text
     */
    public static Template parse(String text) {
        // Column 0 stands for the missing opening quote, so a problem's column is the column in the text.
        Location at = new Location("<template>", "", 1, 0);
        return TemplateSyntax.parse(text, at, EnumSet.allOf(Reference.Kind.class));
    }

    /**
     * A template that is only the given text, with every {@code ${} escaped.
     *
     * @param literal any text
     * @return a template whose resolution is {@code literal} itself
     */
    public static Template literal(String literal) {
        Location at = new Location("<template>", "", 1, 1);
        return new Template(escape(literal), literal.isEmpty() ? List.of() : List.of(new Segment.Literal(literal)), at);
    }

    /**
     * Escapes text so that it reads back as itself: every {@code ${} becomes {@code $${}.
     *
     * @param literal any text
     * @return the template text for {@code literal}
     */
    public static String escape(String literal) {
        return literal.replace("${", "$${");
    }

    /** @return the references of this template, in order */
    public List<Reference> references() {
        List<Reference> references = new ArrayList<>(segments.size());
        for (Segment segment : segments) {
            if (segment instanceof Reference reference) {
                references.add(reference);
            }
        }
        return references.isEmpty() ? List.of() : List.copyOf(references);
    }

    /**
     * The file position of one of this template's references: the template's location with the
     * column moved to the reference's {@code $}. (Exact unless a JSON escape sequence precedes it in
     * the string.)
     *
     * @param reference a reference of this template
     * @return where the reference is written
     */
    public Location locationOf(Reference reference) {
        return new Location(location.file(), location.pointer(), location.line(), location.column() + reference.column());
    }

    /** @return the kinds of reference this template uses */
    public Set<Reference.Kind> kinds() {
        Set<Reference.Kind> kinds = EnumSet.noneOf(Reference.Kind.class);
        references().forEach(reference -> kinds.add(reference.kind()));
        return kinds;
    }

    /** @return {@code true} when the template has no references */
    public boolean isLiteral() {
        return segments.stream().allMatch(Segment.Literal.class::isInstance);
    }

    /** @return the template text as written */
    @Override
    public String toString() {
        return text;
    }
}
