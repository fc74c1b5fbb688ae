package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps {@code docs/manifest.schema.json} in agreement with the parser over the corpus in
 * {@code src/test/resources/corpus}.
 *
 * <p>{@code corpus/valid/*.json} must pass both. {@code corpus/invalid/CODE[.VARIANT].json} must fail
 * the parser with problems of exactly that code; when the code (or the file) is one a JSON Schema
 * can express, it must fail the schema too, and when it is not, the file must pass the schema, so
 * the line between "the schema checks it" and "only the parser checks it" is the one written
 * here. Beyond the corpus, the schema's template patterns are compared with the parser's template
 * grammar on thousands of generated texts (fixed seed, so a failure repeats).
 */
class SchemaAgreementTest {

    /** Problem codes a JSON Schema can express: files of these codes must fail the schema too. */
    private static final Set<String> SCHEMA_CODES = Set.of("wrong-type", "unknown-field", "missing-field",
            "invalid-format", "invalid-value", "empty-value", "invalid-path", "missing-secrets-owner",
            "prepares-without-process", "template-syntax", "template-unknown-kind", "template-arity", "template-port",
            "template-unknown-fact", "template-not-allowed", "template-kind-not-allowed");

    /** Files of a code the schema cannot express in general that it catches all the same (uniqueItems). */
    private static final Set<String> SCHEMA_FILES = Set.of("duplicate-name.tools");

    /** Codes whose files are not one JSON document: the schema has nothing to validate. */
    private static final Set<String> NOT_JSON = Set.of("json-syntax");

    /**
     * Codes of warnings: a document with one is valid to the parser and to the schema, so a valid
     * corpus file shows each of them.
     */
    private static final Set<String> WARNING_CODES = Set.of("template-angle-reference");

    /** Codes no single document can show: a file that cannot be read, and problems of resolution. */
    private static final Set<String> NOT_IN_CORPUS = Set.of("unreadable-file", "unresolved-seat",
            "unresolved-reference");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema SCHEMA = REGISTRY.getSchema(schemaDocument());

    static Stream<Named<Path>> validFiles() {
        return named(corpus("valid"));
    }

    static Stream<Named<Path>> invalidFiles() {
        return named(corpus("invalid"));
    }

    static Stream<Named<Path>> schemaInvalidFiles() {
        return named(corpus("invalid").filter(SchemaAgreementTest::schemaCatches));
    }

    static Stream<Named<Path>> parserOnlyFiles() {
        return named(corpus("invalid").filter(f -> !schemaCatches(f) && !NOT_JSON.contains(code(f))));
    }

    @Test
    void schema_isValidDraft202012() {
        JsonNode document = schemaDocument();
        Schema metaSchema = REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));

        assertThat(document.get("$schema").asString()).isEqualTo(SpecificationVersion.DRAFT_2020_12.getDialectId());
        assertThat(metaSchema.validate(document)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validFiles")
    void validFile_passesParserAndSchema(Path file) {
        try {
            Manifest.parse(bytes(file), file.getFileName().toString());
        } catch (ManifestException e) {
            fail(file.getFileName() + " must be valid, but the parser reports:\n" + ExamplesTest.problems(e));
        }
        assertThat(SCHEMA.validate(json(file))).as("schema errors of %s", file.getFileName()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFiles")
    void invalidFile_failsParserWithItsCodeOnly(Path file) {
        String name = file.getFileName().toString();

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(bytes(file), name));

        assertThat(thrown).as("%s must be invalid", name).isNotNull();
        assertThat(thrown.problems()).as("problems of %s:\n%s", name, ExamplesTest.problems(thrown))
                .extracting(Problem::code).containsOnly(code(file));
        assertThat(thrown.problems()).allSatisfy(problem -> assertThat(problem.location().file()).isEqualTo(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaInvalidFiles")
    void invalidFile_ofSchemaExpressibleCode_failsSchema(Path file) {
        assertThat(SCHEMA.validate(json(file))).as("schema errors of %s", file.getFileName()).isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parserOnlyFiles")
    void invalidFile_ofParserOnlyCode_passesSchema(Path file) {
        assertThat(SCHEMA.validate(json(file))).as("schema errors of %s", file.getFileName()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.mesh.controller.manifest.ExamplesTest#manifests")
    void exampleOrRootManifest_passesSchema(Path file) {
        List<Error> errors = SCHEMA.validate(json(file));

        assertThat(errors).as("schema errors of %s", file).isEmpty();
    }

    @Test
    void corpus_hasAnInvalidFileForEveryCodeOfTheRules() throws IOException {
        String rules = Files.readString(ExamplesTest.repositoryRoot().resolve("docs/manifest-rules.md"));
        Set<String> codes = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| ([a-z][a-z-]*) \\|").matcher(rules);
        while (row.find()) {
            codes.add(row.group(1));
        }
        codes.remove("code");
        Set<String> covered = corpus("invalid").map(SchemaAgreementTest::code).collect(Collectors.toCollection(TreeSet::new));

        assertThat(codes).as("problem codes in docs/manifest-rules.md").isNotEmpty();
        assertThat(covered).as("codes of the invalid corpus files").isSubsetOf(codes);
        assertThat(covered).containsAll(codes.stream()
                .filter(c -> !NOT_IN_CORPUS.contains(c) && !WARNING_CODES.contains(c)).toList());
        assertThat(codes).containsAll(SCHEMA_CODES).containsAll(WARNING_CODES);
        Set<String> warned = corpus("valid")
                .flatMap(f -> Manifest.check(bytes(f), f.getFileName().toString()).warnings().stream())
                .map(Problem::code).collect(Collectors.toCollection(TreeSet::new));
        assertThat(warned).as("codes of the warnings of the valid corpus files").isEqualTo(WARNING_CODES);
    }

    @Test
    void templatePatterns_agreeWithTheParser_onGeneratedTexts() {
        JsonNode defs = schemaDocument().get("$defs");
        Map<String, Set<Reference.Kind>> fields = Map.of(
                "template", EnumSet.allOf(Reference.Kind.class),
                "accessPathTemplate", EnumSet.of(Reference.Kind.DIR, Reference.Kind.SECRET, Reference.Kind.NODE,
                        Reference.Kind.MODULE),
                "secretPathTemplate", EnumSet.of(Reference.Kind.DIR, Reference.Kind.NODE, Reference.Kind.MODULE));
        Random random = new Random(20_26_11_29L);
        Map<String, Template> texts = new LinkedHashMap<>();
        while (texts.size() < 5_000) {
            String text = text(random);
            texts.put(text, parsed(text));
        }

        fields.forEach((def, kinds) -> {
            Schema schema = REGISTRY.getSchema(defs.get(def));
            boolean absolute = !def.equals("template");
            List<String> disagreements = new ArrayList<>();
            int accepted = 0;
            for (Map.Entry<String, Template> text : texts.entrySet()) {
                boolean parser = text.getValue() != null && accepts(text.getValue(), kinds, absolute);
                boolean byPattern = schema.validate(JSON.getNodeFactory().stringNode(text.getKey())).isEmpty();
                accepted += parser ? 1 : 0;
                if (parser != byPattern && disagreements.size() < 20) {
                    disagreements.add((parser ? "parser accepts, schema rejects: " : "schema accepts, parser rejects: ")
                            + JSON.writeValueAsString(text.getKey()));
                }
            }
            assertThat(disagreements).as("$defs/%s against the parser", def).isEmpty();
            assertThat(accepted).as("generated texts $defs/%s accepts", def).isBetween(texts.size() / 20,
                    texts.size() - texts.size() / 20);
        });
    }

    /** The template, or {@code null} when the parser rejects its grammar. */
    private static Template parsed(String text) {
        try {
            return Template.parse(text);
        } catch (ManifestException e) {
            return null;
        }
    }

    /**
     * Whether the parser accepts a template in a field allowing {@code kinds}, for names that follow
     * the forms a manifest declares them in (the schema cannot know which ids and secrets are declared).
     */
    private static boolean accepts(Template template, Set<Reference.Kind> kinds, boolean absolute) {
        boolean declarable = template.references().stream().allMatch(reference -> switch (reference) {
            case Reference.Dir dir -> dir.id().matches("[a-z][a-z0-9-]{0,62}");
            case Reference.Secret secret -> secret.name().matches("[a-z][a-z0-9-]*");
            default -> true;
        });
        boolean isAbsolute = !template.segments().isEmpty() && switch (template.segments().getFirst()) {
            case Segment.Literal literal -> literal.text().startsWith("/");
            case Reference.Dir dir -> true;
            case Reference.Secret secret -> true;
            default -> false;
        };
        return declarable && kinds.containsAll(template.kinds()) && (!absolute || isAbsolute);
    }

    private static final List<String> PIECES = List.of("$", "$", "${", "$${", "{", "}", "}", ":", ":", "/", "/",
            "dir", "seat", "secret", "node", "module", "name", "address", "system", "version", "slug", "title",
            "data", "mesh-store", "Data", "d_a", "5432", "65535", "65536", "0", "08080", "-1", "a", " ", ".", "é",
            "\n", "${dir:data}", "${seat:mesh-store:5432}", "${secret:token}", "${node:name}", "${module:slug}",
            "${dir:", "${seat:", "${secret:", "${node:", "${module:", "${seat:mesh-store:", "${seat:a:", "5432}",
            "08080}", "00000}", "65536}", "000080}", "data}", "name}", "Data}");

    private static final List<String> STARTS = List.of("/", "${dir:data}", "${secret:token}");

    /**
     * A text of up to 8 pieces: grammar tokens, names and whole references, in any order; half of
     * them start the way an absolute path template does, so that path fields accept some.
     */
    private static String text(Random random) {
        StringBuilder text = new StringBuilder(random.nextBoolean() ? STARTS.get(random.nextInt(STARTS.size())) : "");
        for (int n = random.nextInt(9); n > 0; n--) {
            text.append(PIECES.get(random.nextInt(PIECES.size())));
        }
        return text.toString();
    }

    private static boolean schemaCatches(Path file) {
        return SCHEMA_CODES.contains(code(file)) || SCHEMA_FILES.contains(stem(file));
    }

    /** {@code CODE} of {@code CODE[.VARIANT].json}. */
    private static String code(Path file) {
        String stem = stem(file);
        int dot = stem.indexOf('.');
        return dot < 0 ? stem : stem.substring(0, dot);
    }

    private static String stem(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".json".length());
    }

    private static Stream<Path> corpus(String kind) {
        try {
            Path dir = Path.of(SchemaAgreementTest.class.getResource("/corpus/" + kind).toURI());
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Stream<Named<Path>> named(Stream<Path> files) {
        return files.map(f -> Named.of(f.getFileName().toString(), f));
    }

    private static JsonNode schemaDocument() {
        return json(ExamplesTest.repositoryRoot().resolve("docs/manifest.schema.json"));
    }

    private static JsonNode json(Path file) {
        return JSON.readTree(bytes(file));
    }

    private static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
