package dev.mesh.controller.manifest;

import static dev.mesh.controller.manifest.GeneratedJson.hasDuplicateKeys;
import static dev.mesh.controller.manifest.GeneratedJson.resolve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.mesh.controller.manifest.GeneratedJson.Member;
import dev.mesh.controller.manifest.GeneratedJson.Obj;
import dev.mesh.controller.manifest.GeneratedJson.Value;
import dev.mesh.controller.manifest.GeneratedJson.Writer;
import dev.mesh.controller.manifest.GeneratedJson.Written;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parser's promise (docs/design.md section 3): any input gives a manifest or
 * located problems with documented codes, never another exception; every pointer names a place
 * that exists in the document, and line and column are where that place is written.
 *
 * <p>Each property is a QuickTheories theory over the generators of {@link ManifestGens} and
 * {@link ManifestShapes}; a failure reports the smallest counterexample it shrank to and its
 * seed, which {@code -DQT_SEED=SEED} replays.
 */
class ParserProperties {

    /** The codes docs/manifest-rules.md documents, without the ones only resolution reports. */
    static final Set<String> PARSE_CODES = documentedCodes();

    private static final String FILE = "<generated>";

    // --- (a) any bytes, any text --------------------------------------------------------------

    @Test
    void parse_arbitraryBytes_givesManifestOrLocatedProblems() {
        qt().withExamples(1000).forAll(ManifestGens.bytes()).checkAssert(bytes -> wellFormed(outcome(bytes)));
    }

    @Test
    void parse_arbitraryString_givesManifestOrLocatedProblems() {
        qt().withExamples(1000).forAll(strings().allPossible().ofLengthBetween(0, 255))
                .checkAssert(text -> wellFormed(outcome(text.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void parse_jsonLikeText_givesManifestOrLocatedProblems() {
        qt().withExamples(1000).forAll(ManifestGens.jsonLikeText())
                .checkAssert(text -> wellFormed(outcome(text.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void parse_jsonInAnyUnicodeEncoding_givesManifestOrLocatedProblems() {
        qt().withExamples(300).forAll(ManifestShapes.root(), ManifestGens.encodings())
                .checkAssert((json, encoding) -> wellFormed(
                        outcome(Writer.write(json, true).text().getBytes(encoding))));
    }

    @Test
    void parse_deeplyNestedJson_givesProblemsNotStackOverflow() {
        qt().withExamples(50).forAll(integers().between(1, 5000), booleans().all()).checkAssert((depth, objects) -> {
            String open = objects ? "{\"a\":" : "[";
            String close = objects ? "}" : "]";
            String text = open.repeat(depth) + "1" + close.repeat(depth);
            List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
            wellFormed(problems);
            assertThat(problems).isNotEmpty();
        });
    }

    // --- (b) JSON shaped like a manifest, with noise --------------------------------------------

    @Test
    void parse_arbitraryJson_givesManifestOrProblemsAtExistingPointers() {
        qt().withExamples(300).forAll(ManifestShapes.root(), booleans().all()).checkAssert((json, pretty) -> {
            String text = Writer.write(json, pretty).text();
            List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
            wellFormed(problems);
            pointersExist(problems, json, text);
        });
    }

    @Test
    void parse_arbitraryJson_locatesEveryProblemWhereItsValueIsWritten() {
        qt().withExamples(300).forAll(ManifestShapes.root(), booleans().all()).checkAssert((json, pretty) -> {
            Written written = Writer.write(json, pretty);
            List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
            wellFormed(problems);
            problems.forEach(problem -> written.assertLocated(problem));
        });
    }

    @Test
    void parse_arbitraryJson_quotesNoMissingValueAsNullInMessages() {
        qt().withExamples(600).forAll(ManifestShapes.root()).checkAssert(json -> {
            String text = Writer.write(json, false).text();
            List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
            // Messages quote what the document says; a quoted "null" it does not say is a missing value printed.
            if (!text.contains("\"null\"")) {
                assertThat(problems).allSatisfy(problem -> assertThat(problem.message()).as("%s", problem)
                        .doesNotContain("\"null\""));
            }
        });
    }

    // --- (c) valid manifests, mutated -------------------------------------------------------------

    @Test
    void parse_mutatedValidManifest_givesManifestOrProblemsAtExistingPointers() {
        qt().withExamples(300).forAll(ManifestGens.validManifest(), ManifestGens.mutations(), booleans().all())
                .checkAssert((valid, mutations, pretty) -> {
                    Value mutated = Mutation.applyAll(valid, mutations);
                    String text = Writer.write(mutated, pretty).text();
                    List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
                    wellFormed(problems);
                    pointersExist(problems, mutated, text);
                });
    }

    @Test
    void parse_mutatedValidManifest_locatesEveryProblemWhereItsValueIsWritten() {
        qt().withExamples(300).forAll(ManifestGens.validManifest(), ManifestGens.mutations(), booleans().all())
                .checkAssert((valid, mutations, pretty) -> {
                    Written written = Writer.write(Mutation.applyAll(valid, mutations), pretty);
                    List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
                    wellFormed(problems);
                    problems.forEach(problem -> written.assertLocated(problem));
                });
    }

    @Test
    void parse_truncatedValidManifest_reportsOnlyJsonSyntax() {
        qt().withExamples(300).forAll(ManifestGens.validManifest(), booleans().all(), integers().between(0, 100_000))
                .checkAssert((valid, pretty, cut) -> {
                    byte[] bytes = Writer.write(valid, pretty).text().getBytes(StandardCharsets.UTF_8);
                    // Any strict prefix that ends before the closing brace is incomplete JSON.
                    byte[] prefix = java.util.Arrays.copyOf(bytes, cut % bytes.length);
                    List<Problem> problems = outcome(prefix);
                    wellFormed(problems);
                    assertThat(problems).extracting(Problem::code).containsExactly("json-syntax");
                });
    }

    @Test
    void parse_rootKeyRenamedByOneCharacter_suggestsTheOriginalKey() {
        Gen<Integer> choice = integers().between(0, 10_000);
        qt().withExamples(300).forAll(ManifestGens.validManifest(), choice, choice).checkAssert((valid, which, how) -> {
            Obj root = (Obj) valid;
            Member member = root.members().get(which % root.members().size());
            String renamed = Mutation.renameByOne(member.key(), how);
            List<Member> members = new ArrayList<>(root.members());
            members.set(members.indexOf(member), new Member(renamed, member.value()));
            String text = Writer.write(new Obj(members), true).text();

            List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));

            wellFormed(problems);
            assertThat(problems).filteredOn(p -> p.code().equals("unknown-field"))
                    .filteredOn(p -> p.location().pointer().equals(Writer.child("", renamed)))
                    .singleElement()
                    .extracting(Problem::hint)
                    .isEqualTo("did you mean \"" + member.key() + "\"?");
        });
    }

    // --- checks ------------------------------------------------------------------------------------

    /** The problems of parsing {@code bytes}: its warnings when a manifest came back. Anything else thrown fails. */
    static List<Problem> outcome(byte[] bytes) {
        try {
            // A valid manifest's warnings are located like any problem.
            Manifest.Checked checked = Manifest.check(bytes, FILE);
            assertThat(checked.manifest()).isNotNull();
            assertThat(checked.warnings()).noneMatch(Problem::isError);
            return checked.warnings();
        } catch (ManifestException e) {
            assertThat(e.problems()).isNotEmpty();
            return e.problems();
        }
    }

    static void wellFormed(List<Problem> problems) {
        assertThat(problems).as("problems in document order")
                .isSortedAccordingTo(java.util.Comparator.comparingInt((Problem p) -> p.location().line())
                        .thenComparingInt(p -> p.location().column()));
        for (Problem problem : problems) {
            assertThat(problem.code()).as("code of %s", problem).isIn(PARSE_CODES);
            assertThat(problem.message()).as("message of %s", problem).isNotBlank();
            assertThat(problem.severity()).isNotNull();
            Stream.concat(Stream.of(problem.location()), problem.related().stream()).forEach(location -> {
                assertThat(location.file()).as("file of %s", problem).isEqualTo(FILE);
                assertThat(location.pointer().isEmpty() || location.pointer().startsWith("/"))
                        .as("pointer of %s is \"\" or starts with \"/\"", problem).isTrue();
                assertThat(location.line()).as("line of %s", problem).isNotNegative();
                assertThat(location.column()).as("column of %s", problem).isNotNegative();
            });
        }
    }

    /**
     * Each pointer resolves in the document as an independent reader (Jackson databind) sees it.
     * Jackson keeps the last of duplicate keys and the manifest parser the first (as documented), so
     * a document with duplicate keys is resolved first-wins on the generated tree instead.
     */
    static void pointersExist(List<Problem> problems, Value document, String text) {
        JsonNode jackson = hasDuplicateKeys(document) ? null : JsonMapper.shared().readTree(text);
        for (Problem problem : problems) {
            assertThat(problem.code()).as("generated JSON is valid: %s", problem).isNotEqualTo("json-syntax");
            if (problem.code().equals("duplicate-key")) {
                continue;
            }
            String pointer = problem.location().pointer();
            assertThat(exists(jackson, document, pointer)).as("pointer of %s resolves", problem).isTrue();
            if (problem.code().equals("missing-field")) {
                boolean object = jackson == null ? resolve(document, pointer) instanceof Obj : jackson.at(pointer).isObject();
                assertThat(object).as("missing-field points at the object that lacks it: %s", problem).isTrue();
            }
            problem.related().forEach(related -> assertThat(exists(jackson, document, related.pointer()))
                    .as("related pointer %s of %s resolves", related.pointer(), problem).isTrue());
        }
    }

    private static boolean exists(JsonNode jackson, Value document, String pointer) {
        return jackson == null ? resolve(document, pointer) != null : !jackson.at(pointer).isMissingNode();
    }

    private static Set<String> documentedCodes() {
        Path rules = Stream.of(Path.of("..", "docs", "manifest-rules.md"), Path.of("docs", "manifest-rules.md"))
                .filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IllegalStateException("docs/manifest-rules.md not found from "
                        + Path.of("").toAbsolutePath() + "; run the tests from the module or the repository root"));
        Set<String> codes = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| ([a-z][a-z-]+) \\| (.*) \\|$").matcher(read(rules));
        while (row.find()) {
            if (!row.group(2).startsWith("(resolution)")) {
                codes.add(row.group(1));
            }
        }
        if (codes.size() < 10) {
            throw new IllegalStateException("found only " + codes + " in the problem-code table of " + rules);
        }
        return codes;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
