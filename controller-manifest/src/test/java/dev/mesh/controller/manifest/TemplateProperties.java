package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The template grammar of DESIGN.md section 4: escaping reads back as itself, any text gives a
 * template or problems that point at a {@code ${}, and every well-formed reference keeps the text
 * and the column it was written at.
 */
class TemplateProperties {

    private static final Set<String> TEMPLATE_CODES = Set.of("template-syntax", "template-unknown-kind",
            "template-arity", "template-port", "template-unknown-fact");
    private static final List<Manifest> MANIFESTS = ManifestArbitraries.validManifests().stream()
            .map(json -> Manifest.parse(GeneratedJson.Writer.write(json, true).text())).toList();

    // --- (a) escaping ------------------------------------------------------------------------------

    @Property
    void escape_anyString_parsesBackToThatStringAsLiteralText(@ForAll("text") String s) {
        Template template = Template.parse(Template.escape(s));

        assertThat(template.references()).isEmpty();
        assertThat(template.isLiteral()).isTrue();
        assertThat(literalText(template)).isEqualTo(s);
    }

    @Property
    void literal_anyString_resolvesToThatStringInAnyManifest(@ForAll("text") String s,
            @ForAll("manifests") Manifest manifest) {
        Resolution resolution = Substitution.of(manifest, new FixedBindings()).resolve(Template.literal(s));

        assertThat(resolution).isInstanceOfSatisfying(Resolution.Resolved.class, resolved -> {
            assertThat(resolved.value()).isEqualTo(s);
            assertThat(resolved.provenance()).isEmpty();
        });
    }

    @Property
    void literal_anyString_hasTheSegmentsItsTextParsesTo(@ForAll("text") String s) {
        Template literal = Template.literal(s);

        assertThat(Template.parse(literal.text()).segments()).isEqualTo(literal.segments());
    }

    // --- (b) any text -------------------------------------------------------------------------------

    @Property
    void parse_anyString_givesTemplateOrProblemsAtADollarBrace(@ForAll("text") String text) {
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
                assertThat(text.substring(at.column() - 1)).as("%s points at a \"${\"", problem).startsWith("${");
            }
        }
    }

    // --- (c) well-formed references ---------------------------------------------------------------

    @Property
    void check_anyStringInAnEnvValue_givesAManifestWhoseWarningsPointAtADollarAngle(@ForAll("text") String text) {
        // Characters JSON must escape would shift the columns (a known limit): leave them out here.
        Assume.that(text.chars().noneMatch(c -> c == '"' || c == '\\' || c < 0x20));
        String json = "{\"module\": \"a\", \"version\": \"1\", \"resources\": [{\"id\": \"data\", \"type\": "
                + "\"directory\", \"mode\": \"0700\", \"owner\": \"root\"}, {\"id\": \"c\", \"type\": \"container\", "
                + "\"name\": \"c\", \"image\": \"i\", \"env\": {\"X\":\n\"" + text + "\"}}]}";
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
            assertThat(text.substring(warning.location().column() - 2)).as("%s points at a \"$<\"", warning)
                    .startsWith("$<");
        }
    }

    @Property
    void parse_wellFormedReferences_keepTheirTextAndColumn(@ForAll("wellFormed") Written written) {
        Template template = Template.parse(written.text());

        assertThat(template.references()).extracting(Reference::text).containsExactlyElementsOf(written.references());
        assertThat(template.references()).extracting(Reference::column).containsExactlyElementsOf(written.columns());
        assertThat(literalText(template)).isEqualTo(written.literals());
        assertThat(render(template)).isEqualTo(written.text());
    }

    @Property(tries = 300)
    void parse_seatPortWithLeadingZeros_keepsTheTextAsWrittenOrIsRejected(@ForAll("seatNames") String seat,
            @ForAll @IntRange(min = 1, max = 65535) int port, @ForAll @IntRange(min = 1, max = 4) int zeros) {
        String text = "${seat:" + seat + ":" + "0".repeat(zeros) + port + "}";
        try {
            Template template = Template.parse(text);
            assertThat(template.references()).singleElement().extracting(Reference::text).isEqualTo(text);
        } catch (ManifestException e) {
            assertThat(e.problems()).extracting(Problem::code).containsExactly("template-port");
        }
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

    @Provide
    Arbitrary<String> text() {
        Arbitrary<String> pieces = Arbitraries.of("${", "$${", "$", "{", "}", ":", "dir", "seat", "secret", "node",
                "module", "name", "address", "system", "version", "slug", "data", "db", "5432", "0", "65536", "a",
                "-", ".", "_", " ", "/", "é", "\u0000", "${dir:data}", "${seat:db:5432}", "${node:name}", "$<", ">",
                "$<dir:data>", "$<seat:db:5432>")
                .list().ofMaxSize(12).map(p -> String.join("", p));
        Arbitrary<String> dollars = Arbitraries.strings().withChars("${}<>:ab").ofMaxLength(20);
        return Arbitraries.frequencyOf(List.of(Tuple.of(1, Arbitraries.strings().all().ofMaxLength(30)),
                Tuple.of(2, dollars), Tuple.of(3, pieces)));
    }

    @Provide
    Arbitrary<Manifest> manifests() {
        return Arbitraries.of(MANIFESTS);
    }

    @Provide
    Arbitrary<String> seatNames() {
        return Arbitraries.strings().withCharRange('a', 'z').withChars("-0123456789").ofMinLength(1).ofMaxLength(62)
                .map(s -> "s" + s);
    }

    @Provide
    Arbitrary<Written> wellFormed() {
        Arbitrary<String> argument = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z')
                .withCharRange('0', '9').withChars("._-").ofMinLength(1).ofMaxLength(20);
        Arbitrary<Ref> dir = argument.map(id -> new Ref("${dir:" + id + "}"));
        Arbitrary<Ref> secret = argument.map(name -> new Ref("${secret:" + name + "}"));
        Arbitrary<Ref> seat = Combinators.combine(seatNames(), Arbitraries.integers().between(1, 65535))
                .as((name, port) -> new Ref("${seat:" + name + ":" + port + "}"));
        Arbitrary<Ref> node = Arbitraries.of("name", "address", "system").map(fact -> new Ref("${node:" + fact + "}"));
        Arbitrary<Ref> module = Arbitraries.of("name", "version", "slug").map(fact -> new Ref("${module:" + fact + "}"));
        Arbitrary<Object> part = Arbitraries.oneOf(List.of(dir, secret, seat, node, module, text()));
        return part.list().ofMaxSize(8).map(Written::of);
    }
}
