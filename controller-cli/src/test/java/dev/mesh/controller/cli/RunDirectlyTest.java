package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link MeshCommands#runDirectly}: {@code validate}'s plain form is run without picocli, printing and exiting
 * exactly as picocli's run of the same command line; every other command line is declined, untouched.
 */
class RunDirectlyTest {

    private static Path dir;
    private static String valid;
    private static String invalid;
    private static String notJson;

    @BeforeAll
    static void files() throws IOException {
        dir = Files.createTempDirectory("run-directly");
        valid = Files.writeString(dir.resolve("valid.json"), "{\"module\": \"demo\", \"version\": \"1.0.0\"}\n")
                .toString();
        invalid = Files.writeString(dir.resolve("invalid.json"),
                "{\"module\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"colour\": \"blue\"}\n").toString();
        notJson = Files.writeString(dir.resolve("broken.json"), "{\"module\": ").toString();
    }

    @AfterAll
    static void removeFiles() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    /** What a direct run printed and how it exited; empty when it declined. */
    private static Optional<CommandRun> direct(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        OptionalInt exitCode = MeshCommands.runDirectly(args.toArray(String[]::new), new PrintWriter(out),
                new PrintWriter(err));
        if (exitCode.isEmpty()) {
            assertThat(out.toString() + err).as("a declined command line prints nothing").isEmpty();
            return Optional.empty();
        }
        return Optional.of(new CommandRun(exitCode.getAsInt(), out.toString(), err.toString()));
    }

    @Test
    void plainValidate_isRunDirectly_asPicocliRunsIt() {
        List<List<String>> plain = List.of(List.of("validate", "../manifest.json"),
                List.of("validate", valid, invalid, notJson, dir.resolve("missing.json").toString()),
                List.of("validate", "--json", valid, invalid), List.of("validate", invalid, "--json"),
                List.of("validate", dir.toString()));
        for (List<String> args : plain) {
            assertThat(direct(args)).as(String.join(" ", args)).contains(Cli.run(args.toArray(String[]::new)));
        }
    }

    @Test
    void everyOtherCommandLine_isDeclined() {
        List<List<String>> others = List.of(List.of(), List.of("validate"), List.of("validate", "--json"),
                List.of("validate", "--help"), List.of("validate", "-h", valid), List.of("validate", "--version"),
                List.of("validate", "--", valid), List.of("validate", "@" + valid), List.of("validate", ""),
                List.of("validate", "--json", "--json", valid), List.of("validate", "--json=true", valid),
                List.of("validate", "-", valid), List.of("validate", "nul\0.json"), List.of("compose", "--mesh", valid),
                List.of("--help"), List.of("valdate", valid), List.of("plan", valid));
        for (List<String> args : others) {
            assertThat(direct(args)).as(String.join(" ", args)).isEmpty();
        }
    }

    /** Any command line of these words: run directly, it is what picocli makes of it. */
    @Test
    void whatIsRunDirectly_printsAndExitsAsPicocli() {
        qt().withExamples(300).forAll(commandLines()).checkAssert(args -> direct(args)
                .ifPresent(run -> assertThat(run).as(String.join(" ", args))
                        .isEqualTo(Cli.run(args.toArray(String[]::new)))));
    }

    /** Up to five of these words, after {@code validate} or not. */
    private static Gen<List<String>> commandLines() {
        Gen<String> word = Generate.pick(List.of(valid, invalid, notJson, dir.resolve("missing.json").toString(),
                dir.toString(), "--json", "--JSON", "-h", "--help", "-V", "--", "-", "@" + valid, "", " ", "validate",
                "compose", "x=y", "--json=false", "nul\0.json", "é.json"));
        Gen<List<String>> rest = lists().of(word).ofSizeBetween(0, 5);
        return Generate.oneOf(rest.map(words -> prepend("validate", words)), rest);
    }

    private static List<String> prepend(String first, List<String> words) {
        return Stream.concat(Stream.of(first), words.stream()).toList();
    }
}
