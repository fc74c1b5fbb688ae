package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One invalid manifest per problem code under {@code src/test/resources/problems/CODE.json}, each
 * with its whole problem list, code, pointer, position and message, in the golden file
 * {@code CODE.txt}. Run with {@code -Dgolden.update=true} to rewrite the golden files after a
 * deliberate change of wording, then review the diff.
 */
class ProblemCodesTest {

    private static final Path CASES = Path.of("src/test/resources/problems");
    /** Codes of warnings: their case is a valid manifest, and its golden file lists its warnings. */
    private static final Set<String> WARNING_CODES = Set.of("template-angle-reference");
    private static final Set<String> RESOLUTION_CODES = Set.of("unresolved-seat", "unresolved-reference",
            "unreadable-file");

    static Stream<String> codes() throws IOException {
        try (Stream<Path> files = Files.list(CASES)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - ".json".length())).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codes")
    void parse_invalidCase_reportsItsCodeWithPointerAndMessage(String code) throws IOException {
        byte[] json = Files.readAllBytes(CASES.resolve(code + ".json"));

        List<Problem> problems;
        if (WARNING_CODES.contains(code)) {
            problems = Manifest.check(json, code + ".json").warnings();
            assertThat(problems).as("the %s case must be valid, with warnings", code)
                    .allMatch(problem -> problem.severity() == Severity.WARNING);
        } else {
            ManifestException thrown = catchThrowableOfType(ManifestException.class,
                    () -> Manifest.parse(json, code + ".json"));
            assertThat(thrown).as("the %s case must be invalid", code).isNotNull();
            problems = thrown.problems();
        }

        assertThat(problems).extracting(Problem::code).contains(code);
        String rendered = render(problems);
        Path golden = CASES.resolve(code + ".txt");
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, rendered);
        }
        assertThat(rendered).isEqualTo(Files.readString(golden));
    }

    @Test
    void everyDocumentedCode_hasACase() throws IOException {
        Path rules = Path.of("../docs/manifest-rules.md");
        Matcher row = Pattern.compile("(?m)^\\| ([a-z]+(?:-[a-z]+)*) \\|").matcher(Files.readString(rules));
        Set<String> documented = new TreeSet<>();
        while (row.find()) {
            documented.add(row.group(1));
        }
        documented.remove("code");

        Set<String> covered = codes().collect(Collectors.toCollection(TreeSet::new));
        covered.addAll(RESOLUTION_CODES);

        assertThat(documented).hasSizeGreaterThan(20);
        assertThat(covered).containsExactlyInAnyOrderElementsOf(documented);
    }

    @Test
    void read_missingFile_isAProblemOfThatFile(@TempDir Path dir) {
        Path missing = dir.resolve("absent.json");

        assertThatThrownBy(() -> Manifest.read(missing))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> {
                            assertThat(p.code()).isEqualTo("unreadable-file");
                            assertThat(p.location()).isEqualTo(new Location(missing.toString(), "", 0, 0));
                            assertThat(p.message()).isEqualTo("cannot read the file: it does not exist; check the "
                                    + "path and that the file is readable");
                        }));
    }

    @Test
    void read_directory_isAProblemOfThatFile(@TempDir Path dir) {
        assertThatThrownBy(() -> Manifest.read(dir))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> assertThat(p.message()).isEqualTo("cannot read the file: it is a directory, "
                                + "not a file; check the path and that the file is readable")));
    }

    @Test
    void parse_manyProblems_reportsAllInDocumentOrder() throws IOException {
        String json = """
                {"module": "Bad", "version": "", "slug": 7,
                 "claims": [{"name": "x", "scope": "everywhere"}], "tools": ["a", "a"]}
                """;

        ManifestException thrown = catchThrowableOfType(ManifestException.class,
                () -> Manifest.parse(json.getBytes(StandardCharsets.UTF_8), "many.json"));

        assertThat(thrown.problems()).extracting(p -> p.code() + " " + p.location().pointer()).containsExactly(
                "invalid-format /module", "invalid-format /version", "wrong-type /slug",
                "invalid-value /claims/0/scope", "duplicate-name /tools/1");
        assertThat(thrown.getMessage()).startsWith("many.json:1:12: /module: ").endsWith("(and 4 more problems)");
    }

    private static String render(List<Problem> problems) {
        StringBuilder out = new StringBuilder();
        for (Problem p : problems) {
            out.append(p.location().line()).append(':').append(p.location().column()).append(' ')
                    .append(p.location().pointer().isEmpty() ? "(root)" : p.location().pointer())
                    .append(" [").append(p.code()).append(p.isError() ? "" : ", warning").append("] ")
                    .append(p.message());
            if (p.hint() != null) {
                out.append(" (").append(p.hint()).append(')');
            }
            out.append('\n');
            for (Location related : p.related()) {
                out.append("    related ").append(related.pointer()).append(' ').append(related.line()).append(':')
                        .append(related.column()).append('\n');
            }
        }
        return out.toString();
    }
}
