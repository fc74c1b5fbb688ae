package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ValidateCommandTest {

    private static CommandRun run(String... args) {
        return Cli.run(args);
    }


    private static final String VALID = """
            {"module": "demo", "version": "1.0.0"}
            """;

    /** Line 3, column 3 is where {@code "colour"} starts. */
    private static final String UNKNOWN_FIELD = """
            {"module": "demo",
              "version": "1.0.0",
              "colour": "blue"}
            """;

    @TempDir
    Path dir;

    @Test
    void validate_validFile_printsValid_exits0() throws IOException {
        Path file = write("valid.json", VALID);

        CommandRun run = run("validate", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(file + ": valid\n1 file, 0 invalid, 0 problems\n");
        assertThat(run.err()).isEmpty();
    }

    /** Line 3, column 74 is where {@code $<dir:data>} starts: literal text, a warning. */
    private static final String OLD_FORM = """
            {"module": "demo", "version": "1.0.0",
              "resources": [{"id": "data", "type": "directory", "mode": "0700", "owner": "root"},
                {"id": "c", "type": "container", "name": "c", "image": "i", "run": ["$<dir:data>"]}]}
            """;

    @Test
    void validate_warningOnly_printsItAndValid_exits0() throws IOException {
        Path file = write("old.json", OLD_FORM);

        CommandRun run = run("validate", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).containsExactly("warning: " + file + ":3:74: /resources/1/run/0: \"$<dir:data>\" is "
                + "literal text, not a reference: references are written with braces; write \"${dir:data}\" for the "
                + "reference, or leave it if the text is meant (did you mean \"${dir:data}\"?)", file + ": valid",
                "1 file, 0 invalid, 1 problem (1 warning)");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void validate_json_warningOnly_isValid_withTheWarningsSeverity() throws IOException {
        Path file = write("old.json", OLD_FORM);

        CommandRun run = run("validate", "--json", file.toString());

        assertThat(run.exitCode()).isZero();
        JsonNode result = new JsonMapper().readTree(run.out()).get("files").get(0);
        assertThat(result.get("valid").asBoolean()).isTrue();
        assertThat(result.get("problems")).singleElement().satisfies(problem -> {
            assertThat(problem.get("code").asString()).isEqualTo("template-angle-reference");
            assertThat(problem.get("severity").asString()).isEqualTo("warning");
            assertThat(problem.get("line").asInt()).isEqualTo(3);
        });
    }

    @Test
    void validate_invalidFile_printsLocatedProblems_exits1() throws IOException {
        Path file = write("invalid.json", UNKNOWN_FIELD);

        CommandRun run = run("validate", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().getFirst()).startsWith(file + ":3:3: /colour: ");
        assertThat(run.lines().getLast()).isEqualTo("1 file, 1 invalid, 1 problem");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void validate_problemWithHint_appendsHintToItsLine() throws IOException {
        Path file = write("typo.json", """
                {"module": "demo", "version": "1.0.0", "modul": "x"}
                """);

        CommandRun run = run("validate", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().getFirst()).startsWith(file + ":1:40: /modul: ").contains("\"module\"").endsWith(")");
    }

    @Test
    void validate_rootProblem_showsRootPointer() throws IOException {
        Path file = write("array.json", "[]\n");

        CommandRun run = run("validate", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().getFirst()).startsWith(file + ":1:1: (root): ");
    }

    @Test
    void validate_severalFiles_reportsEachThenSummary_exits1() throws IOException {
        Path valid = write("valid.json", VALID);
        Path invalid = write("invalid.json", UNKNOWN_FIELD);

        CommandRun run = run("validate", valid.toString(), invalid.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(3);
        assertThat(run.lines().get(0)).isEqualTo(valid + ": valid");
        assertThat(run.lines().get(1)).startsWith(invalid + ":3:3: /colour: ");
        assertThat(run.lines().get(2)).isEqualTo("2 files, 1 invalid, 1 problem");
    }

    @Test
    void validate_json_printsOneDocumentWithEveryField() throws IOException {
        Path valid = write("valid.json", VALID);
        Path invalid = write("invalid.json", UNKNOWN_FIELD);

        CommandRun run = run("validate", "--json", valid.toString(), invalid.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode files = new JsonMapper().readTree(run.out()).get("files");
        assertThat(files).hasSize(2);
        assertThat(files.get(0).get("file").asString()).isEqualTo(valid.toString());
        assertThat(files.get(0).get("valid").asBoolean()).isTrue();
        assertThat(files.get(0).get("problems")).isEmpty();
        JsonNode file = files.get(1);
        assertThat(file.get("file").asString()).isEqualTo(invalid.toString());
        assertThat(file.get("valid").asBoolean()).isFalse();
        assertThat(file.get("problems")).hasSize(1);
        JsonNode problem = file.get("problems").get(0);
        assertThat(problem.get("code").asString()).isEqualTo("unknown-field");
        assertThat(problem.get("severity").asString()).isEqualTo("error");
        assertThat(problem.get("message").asString()).contains("colour");
        assertThat(problem.get("file").asString()).isEqualTo(invalid.toString());
        assertThat(problem.get("pointer").asString()).isEqualTo("/colour");
        assertThat(problem.get("line").asInt()).isEqualTo(3);
        assertThat(problem.get("column").asInt()).isEqualTo(3);
        assertThat(problem.has("related")).as("related is left out when empty").isFalse();
    }

    @Test
    void validate_json_hintPresentOnlyWhenThereIsOne() throws IOException {
        Path file = write("typo.json", """
                {"module": "demo", "version": "1.0.0", "modul": "x"}
                """);

        CommandRun run = run("validate", "--json", file.toString());

        JsonNode problem = new JsonMapper().readTree(run.out()).get("files").get(0).get("problems").get(0);
        assertThat(problem.get("hint").asString()).contains("\"module\"");
    }

    @Test
    void validate_json_duplicateName_listsRelatedLocation() throws IOException {
        Path file = write("duplicate.json", """
                {"module": "demo", "version": "1.0.0",
                 "claims": [{"name": "mesh-store", "scope": "mesh"},
                            {"name": "mesh-store", "scope": "mesh"}]}
                """);

        CommandRun run = run("validate", "--json", file.toString());

        JsonNode problem = new JsonMapper().readTree(run.out()).get("files").get(0).get("problems").get(0);
        assertThat(problem.get("code").asString()).isEqualTo("duplicate-name");
        assertThat(problem.has("hint")).as("hint is left out when there is none").isFalse();
        JsonNode related = problem.get("related");
        assertThat(related).hasSize(1);
        assertThat(related.get(0).get("file").asString()).isEqualTo(file.toString());
        assertThat(related.get(0).get("pointer").asString()).startsWith("/claims/0");
        assertThat(related.get(0).get("line").asInt()).isEqualTo(2);
        assertThat(related.get(0).get("column").asInt()).isPositive();
    }

    @Test
    void validate_json_escapesNonAscii_soAnyConsoleEncodingKeepsItValid() throws IOException {
        Path file = write("umlaut.json", """
                {"module": "demo", "version": "1.0.0", "f\u00e4rbe": "blau"}
                """);

        CommandRun run = run("validate", "--json", file.toString());

        assertThat(run.out()).isASCII().contains("\\u00E4");
        JsonNode problem = new JsonMapper().readTree(run.out()).get("files").get(0).get("problems").get(0);
        assertThat(problem.get("pointer").asString()).isEqualTo("/f\u00e4rbe");
    }

    @Test
    void validate_json_writesExactlyOneDocument() throws IOException {
        Path file = write("valid.json", VALID);

        CommandRun run = run("validate", "--json", file.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).hasSize(1);
        assertThat(new JsonMapper().readTree(run.out()).get("files").get(0).get("valid").asBoolean()).isTrue();
    }

    @Test
    void validate_missingFile_isAProblemOfThatFile_exits1() {
        Path missing = dir.resolve("missing.json");

        CommandRun run = run("validate", missing.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().getFirst()).startsWith(missing + ":");
        assertThat(run.lines().getLast()).isEqualTo("1 file, 1 invalid, 1 problem");
        assertThat(run.err()).isEmpty();
        assertThat(codes(run("validate", "--json", missing.toString()))).containsExactly("unreadable-file");
    }

    @Test
    void validate_directory_isUnreadableFile_exits1() {
        CommandRun run = run("validate", "--json", dir.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(codes(run)).containsExactly("unreadable-file");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void validate_notJson_isAJsonSyntaxProblem_exits1() throws IOException {
        Path file = write("notes.txt", "module: demo\n");

        CommandRun run = run("validate", "--json", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(codes(run)).containsExactly("json-syntax");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void validate_noFiles_isAUsageError_exits2() {
        CommandRun run = run("validate");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("Missing required parameter: 'FILE'").contains("Usage: mesh-controller validate");
    }

    @Test
    void validate_unknownOption_isAUsageError_exits2() throws IOException {
        Path file = write("valid.json", VALID);

        CommandRun run = run("validate", "--yaml", file.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--yaml'");
    }

    @Test
    void noCommand_isAUsageError_exits2() {
        CommandRun run = run();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing a command").contains("validate");
    }

    @Test
    void help_listsValidate_exits0() {
        CommandRun run = run("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: mesh-controller").contains("validate");
    }

    @Test
    void unexpectedFailure_printsOneLine_exits1() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Cli.commandLine(System.getenv()).setErr(new PrintWriter(err));

        int exitCode = Failures.print(new IllegalStateException("boom\n  at somewhere"), commandLine, null);

        assertThat(exitCode).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("mesh-controller: unexpected failure: java.lang.IllegalStateException: "
                + "boom at somewhere (this is a bug in mesh-controller; please report it with the command you ran)\n");
    }

    @Test
    void meshFailure_printsItsMessageOnOneLine_exits1() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Cli.commandLine(System.getenv()).setErr(new PrintWriter(err));
        var failure = new ManifestException(List.of(Problem.error("missing-field",
                "the field \"module\" is missing; add it", new Location("m.json", "", 1, 1))));

        int exitCode = Failures.print(failure, commandLine, null);

        assertThat(exitCode).isEqualTo(1);
        assertThat(err.toString())
                .isEqualTo("mesh-controller: m.json:1:1: (root): the field \"module\" is missing; add it\n");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static List<String> codes(CommandRun run) {
        List<String> codes = new ArrayList<>();
        new JsonMapper().readTree(run.out()).get("files").forEach(file ->
                file.get("problems").forEach(problem -> codes.add(problem.get("code").asString())));
        return codes;
    }
}
