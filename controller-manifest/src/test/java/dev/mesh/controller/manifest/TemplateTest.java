package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class TemplateTest {

    @Test
    void parse_everyKind_givesTypedReferences() {
        Template template = Template.parse("${dir:data}:${seat:mesh-store:5432}/${secret:key}"
                + "${node:address}${module:slug}");

        assertThat(template.segments()).containsExactly(
                new Reference.Dir("data", 1),
                new Segment.Literal(":"),
                new Reference.Seat("mesh-store", 5432, 13),
                new Segment.Literal("/"),
                new Reference.Secret("key", 37),
                new Reference.NodeFact(Reference.NodeFactName.ADDRESS, 50),
                new Reference.ModuleFact(Reference.ModuleFactName.SLUG, 65));
    }

    @Test
    void parse_escapedAndLoneDollars_areLiteral() {
        Template template = Template.parse("cost $5, $${HOME} and $$x$");

        assertThat(template.segments()).containsExactly(new Segment.Literal("cost $5, ${HOME} and $$x$"));
        assertThat(template.isLiteral()).isTrue();
    }

    @Test
    void escape_thenParse_givesTheLiteralBack() {
        String literal = "a ${b} $${c} $";

        Template template = Template.parse(Template.escape(literal));

        assertThat(template.segments()).containsExactly(new Segment.Literal(literal));
    }

    @Test
    void parse_problems_pointAtTheColumnOfTheirReference() {
        ManifestException thrown = catchThrowableOfType(ManifestException.class,
                () -> Template.parse("ok ${seat:s:x} ${nope:1} ${dir:a:b} ${} ${node:"));

        assertThat(thrown.problems()).extracting(Problem::code, p -> p.location().column()).containsExactly(
                org.assertj.core.groups.Tuple.tuple("template-port", 4),
                org.assertj.core.groups.Tuple.tuple("template-unknown-kind", 16),
                org.assertj.core.groups.Tuple.tuple("template-arity", 26),
                org.assertj.core.groups.Tuple.tuple("template-syntax", 37),
                org.assertj.core.groups.Tuple.tuple("template-syntax", 41));
    }

    @Test
    void parse_nestedReference_isASyntaxProblem() {
        ManifestException thrown = catchThrowableOfType(ManifestException.class,
                () -> Template.parse("${dir:${node:name}}"));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("template-syntax");
            assertThat(p.message()).contains("references do not nest");
        });
    }
}
