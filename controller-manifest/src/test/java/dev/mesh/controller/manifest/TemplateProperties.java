package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The template grammar of docs/design.md section 4: escaping reads back as itself, any text gives a
 * template or problems that point at a {@code ${}, and every well-formed reference keeps the text
 * and the column it was written at.
 *
 * <p>Each property is a QuickTheories theory; a failure reports the smallest counterexample it
 * shrank to and its seed, which {@code -DQT_SEED=SEED} replays.
 */
class TemplateProperties {

    private static final Set<String> TEMPLATE_CODES = Set.of("template-syntax", "template-unknown-kind",
            "template-arity", "template-port", "template-unknown-fact");
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final List<Manifest> MANIFESTS = ManifestGens.validManifests().stream()
            .map(json -> Manifest.parse(GeneratedJson.Writer.write(json, true).text())).toList();

    // --- (a) escaping ------------------------------------------------------------------------------

    @Test
    void escape_anyString_parsesBackToThatStringAsLiteralText() {
        qt().withExamples(1000).forAll(text()).checkAssert(s -> {
            Template template = Template.parse(Template.escape(s));

            assertThat(template.references()).isEmpty();
            assertThat(template.isLiteral()).isTrue();
            assertThat(literalText(template)).isEqualTo(s);
        });
    }

    @Test
    void literal_anyString_resolvesToThatStringInAnyManifest() {
        qt().withExamples(1000).forAll(text(), Generate.pick(MANIFESTS)).checkAssert((s, manifest) -> {
            Resolution resolution = Substitution.of(manifest, new FixedBindings()).resolve(Template.literal(s));

            assertThat(resolution).isInstanceOfSatisfying(Resolution.Resolved.class, resolved -> {
                assertThat(resolved.value()).isEqualTo(s);
                assertThat(resolved.provenance()).isEmpty();
            });
        });
    }

    @Test
    void literal_anyString_hasTheSegmentsItsTextParsesTo() {
        qt().withExamples(1000).forAll(text()).checkAssert(s -> {
            Template literal = Template.literal(s);

            assertThat(Template.parse(literal.text()).segments()).isEqualTo(literal.segments());
        });
    }

    // --- (b) any text -------------------------------------------------------------------------------

    @Test
    void parse_anyString_givesTemplateOrProblemsAtADollarBrace() {
        qt().withExamples(1000).forAll(text()).checkAssert(text -> {
            try {
                Template template = Template.parse(text);
                assertThat(template.text()).isEqualTo(text);
                for (Reference reference : template.references()) {
                    assertThat(reference.column()).as("column of %s", reference).isBetween(1, text.length());
                    assertThat(text.substring(reference.column() - 1)).as("%s is where it is written", reference)
                            .startsWith("${");
                }
            } catch (ManifestException e) {
                for (Problem problem : e.problems()) {
                    Location at = problem.location();
                    assertThat(problem.code()).as("code of %s", problem).isIn(TEMPLATE_CODES);
                    assertThat(problem.message()).as("message of %s", problem).isNotBlank();
                    assertThat(at.line()).as("line of %s", problem).isEqualTo(1);
                    assertThat(at.pointer()).as("pointer of %s", problem).isEmpty();
                    assertThat(at.column()).as("column of %s", problem).isBetween(1, text.length());
                    assertThat(text.substring(at.column() - 1)).as("%s points at a \"${\"", problem)
                            .startsWith("${");
                }
            }
        });
    }

    // --- (c) well-formed references ---------------------------------------------------------------

    @Test
    void check_anyStringInAnEnvValue_givesAManifestWhoseWarningsPointAtADollarAngle() {
        // Characters JSON must escape would shift the columns (a known limit): leave them out here.
        qt().withExamples(1000).forAll(text())
                .assuming(text -> text.chars().noneMatch(c -> c == '"' || c == '\\' || c < 0x20))
                .checkAssert(text -> {
                    String json = "{\"module\": \"a\", \"version\": \"1\", \"resources\": [{\"id\": \"data\", "
                            + "\"type\": \"directory\", \"mode\": \"0700\", \"owner\": \"root\"}, {\"id\": \"c\", "
                            + "\"type\": \"container\", \"name\": \"c\", \"image\": \"i\", \"env\": {\"X\":\n\"" + text
                            + "\"}}]}";
                    List<Problem> warnings;
                    try {
                        warnings = Manifest.check(json.getBytes(StandardCharsets.UTF_8), "p.json").warnings();
                    } catch (ManifestException invalid) {
                        assertThat(invalid.problems()).anyMatch(Problem::isError);
                        warnings = invalid.problems().stream().filter(problem -> !problem.isError()).toList();
                    }
                    for (Problem warning : warnings) {
                        assertThat(warning.code()).isEqualTo("template-angle-reference");
                        assertThat(warning.location().pointer()).isEqualTo("/resources/1/env/X");
                        assertThat(warning.location().line()).isEqualTo(2);
                        // Column 1 is the opening quote.
                        assertThat(text.substring(warning.location().column() - 2))
                                .as("%s points at a \"$<\"", warning).startsWith("$<");
                    }
                });
    }

    @Test
    void parse_wellFormedReferences_keepTheirTextAndColumn() {
        qt().withExamples(1000).forAll(wellFormed()).checkAssert(written -> {
            Template template = Template.parse(written.text());

            assertThat(template.references()).extracting(Reference::text)
                    .containsExactlyElementsOf(written.references());
            assertThat(template.references()).extracting(Reference::column)
                    .containsExactlyElementsOf(written.columns());
            assertThat(literalText(template)).isEqualTo(written.literals());
            assertThat(render(template)).isEqualTo(written.text());
        });
    }

    @Test
    void parse_seatPortWithLeadingZeros_keepsTheTextAsWrittenOrIsRejected() {
        qt().withExamples(300).forAll(seatNames(), integers().between(1, 65535), integers().between(1, 4))
                .checkAssert((seat, port, zeros) -> {
                    String text = "${seat:" + seat + ":" + "0".repeat(zeros) + port + "}";
                    try {
                        Template template = Template.parse(text);
                        assertThat(template.references()).singleElement().extracting(Reference::text)
                                .isEqualTo(text);
                    } catch (ManifestException e) {
                        assertThat(e.problems()).extracting(Problem::code).containsExactly("template-port");
                    }
                });
    }

    // --- helpers ------------------------------------------------------------------------------------

    /** A template text written from literal chunks and references, with what parsing it must give. */
    record Written(String text, List<String> references, List<Integer> columns, String literals) {

        static Written of(List<Object> parts) {
            StringBuilder text = new StringBuilder();
            StringBuilder literals = new StringBuilder();
            List<String> references = new ArrayList<>();
            List<Integer> columns = new ArrayList<>();
            for (Object part : parts) {
                if (part instanceof Ref ref) {
                    references.add(ref.text());
                    columns.add(text.length() + 1);
                    text.append(ref.text());
                } else {
                    String literal = (String) part;
                    String escaped = Template.escape(literal);
                    // A literal "$" just before "${" would read as "$${": the grammar cannot write it, so skip.
                    text.append(escaped.endsWith("$") ? escaped + "." : escaped);
                    literals.append(escaped.endsWith("$") ? literal + "." : literal);
                }
            }
            return new Written(text.toString(), references, columns, literals.toString());
        }
    }

    /** A reference as written. */
    record Ref(String text) {
    }

    private record FixedBindings() implements Bindings {
        @Override
        public NodeFacts node() {
            return new NodeFacts("node-1", "10.0.0.1", "debian-12");
        }

        @Override
        public Optional<SeatHolder> holder(String seat) {
            return Optional.of(new SeatHolder("node-2", "10.0.0.2"));
        }

        @Override
        public Layout layout() {
            return Layout.DEFAULT;
        }
    }

    private static String literalText(Template template) {
        return template.segments().stream().filter(Segment.Literal.class::isInstance)
                .map(s -> ((Segment.Literal) s).text()).collect(Collectors.joining());
    }

    /** The text a template's segments write: literals escaped, references as their text. */
    private static String render(Template template) {
        return template.segments().stream().map(segment -> switch (segment) {
            case Segment.Literal literal -> Template.escape(literal.text());
            case Reference reference -> reference.text();
        }).collect(Collectors.joining());
    }

    // --- generators ---------------------------------------------------------------------------------

    /** Any string of up to 30 code points, runs of dollars, braces and angles, or (most often) template pieces. */
    private static Gen<String> text() {
        Gen<String> piece = Generate.pick(List.of("${", "$${", "$", "{", "}", ":", "dir", "seat", "secret", "node",
                "module", "name", "address", "system", "version", "slug", "data", "db", "5432", "0", "65536", "a", "-",
                ".", "_", " ", "/", "é", "\u0000", "${dir:data}", "${seat:db:5432}", "${node:name}", "$<", ">",
                "$<dir:data>", "$<seat:db:5432>"));
        Gen<String> pieces = lists().of(piece).ofSizeBetween(0, 12).map(p -> String.join("", p));
        Gen<String> dollars = ManifestGens.stringsOf("${}<>:ab", 0, 20);
        return Generate.frequency(Pair.of(1, strings().allPossible().ofLengthBetween(0, 30)), Pair.of(2, dollars),
                Pair.of(3, pieces));
    }

    /** Seat names: "s" and 1 to 62 lower-case letters, digits and hyphens. */
    private static Gen<String> seatNames() {
        return ManifestGens.stringsOf(LOWER + "-" + DIGITS, 1, 62).map(s -> "s" + s);
    }

    /** Up to 8 parts, each a well-formed reference of any kind or a literal {@link #text()}, as {@link Written}. */
    private static Gen<Written> wellFormed() {
        Gen<String> argument = ManifestGens.stringsOf(LOWER + LOWER.toUpperCase(Locale.ROOT) + DIGITS + "._-", 1, 20);
        // Written.of reads each part as a Ref or a literal String: the parts are drawn as Objects.
        Gen<Object> dir = argument.map(id -> new Ref("${dir:" + id + "}"));
        Gen<Object> secret = argument.map(name -> new Ref("${secret:" + name + "}"));
        Gen<Object> seat = seatNames().zip(integers().between(1, 65535),
                (name, port) -> new Ref("${seat:" + name + ":" + port + "}"));
        Gen<Object> node = Generate.pick(List.of("name", "address", "system"))
                .map(fact -> new Ref("${node:" + fact + "}"));
        Gen<Object> module = Generate.pick(List.of("name", "version", "slug"))
                .map(fact -> new Ref("${module:" + fact + "}"));
        Gen<Object> literal = text().map(s -> s);
        Gen<Object> part = ManifestGens.oneOf(List.of(dir, secret, seat, node, module, literal));
        return lists().of(part).ofSizeBetween(0, 8).map(Written::of);
    }
}
