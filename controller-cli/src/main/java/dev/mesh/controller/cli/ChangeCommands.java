package dev.mesh.controller.cli;

import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.manifest.Problem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client commands of the mutating verbs: {@code assign}, {@code unassign}, {@code push},
 * {@code build}. Each prints one short confirmation, and sends a fresh request id, so that the
 * controller applies it at most once.
 */
final class ChangeCommands {

    /** Strict as the manifest parser: a duplicate key or text after the document is not JSON. */
    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ChangeCommands() {
    }

    /** {@code assign} and {@code unassign}: a module and a node. */
    abstract static class Assignment extends ClientCommand {

        @Parameters(index = "0", paramLabel = "MODULE", description = "The module.")
        private String module;

        @Parameters(index = "1", paramLabel = "NODE", description = "The node.")
        private String node;

        Assignment(Map<String, String> env) {
            super(env);
        }

        @Override
        final ObjectNode arguments() {
            return super.arguments().put("module", module).put("node", node);
        }

        @Override
        final boolean mutating() {
            return true;
        }

        @Override
        final void print(JsonNode result, PrintWriter out) {
            boolean assign = verb().equals("assign");
            String what = result.path("changed").asBoolean(false)
                    ? (assign ? "assigned " + module + " to " : "unassigned " + module + " from ") + node
                    : module + (assign ? " was assigned to " : " was not assigned to ") + node + " already; nothing "
                            + "changed";
            out.println(what + "; plan: " + VerbText.summary(result.path("summary")));
        }
    }

    @Command(name = "assign", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Assigns a module to a node, and says what the plan holds now. Refused (conflict) when it "
                    + "would put a seat in conflict or go beyond the module's licence.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:assigned, or assigned already", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Assign extends Assignment {

        Assign(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "assign";
        }
    }

    @Command(name = "unassign", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Removes a module from a node, and says what the plan holds now.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:unassigned, or not assigned", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Unassign extends Assignment {

        Unassign(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "unassign";
        }
    }

    @Command(name = "push", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Sends a module manifest to the controller, which validates it and records its version. "
                    + "A file that cannot be read, is not JSON or not a JSON object is refused here (exit 2); a "
                    + "manifest with problems is refused by the controller (exit 1, invalid, with the pointer).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:pushed, or pushed already", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Push extends ClientCommand {

        @Parameters(paramLabel = "FILE", description = "The module manifest, a JSON file.")
        private Path file;

        Push(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "push";
        }

        @Override
        boolean mutating() {
            return true;
        }

        @Override
        ObjectNode arguments() {
            ObjectNode arguments = super.arguments();
            // As its text: the controller keeps the document as written and locates problems in its lines.
            arguments.put("manifest", manifest(file));
            return arguments;
        }

        /**
         * The controller locates the problems of a manifest in the JSON it received, whose lines are
         * not the file's: the same checks run here on the file give each problem its line and column
         * in it, as {@code validate} prints them. The controller's own message when they find none.
         */
        @Override
        void printError(VerbException e, PrintWriter err) {
            List<Problem> problems = e.code() == VerbException.Code.INVALID ? FileResult.read(file).problems()
                    : List.of();
            if (problems.stream().noneMatch(Problem::isError)) {
                super.printError(e, err);
                return;
            }
            err.println("error (invalid): the controller refused the manifest " + file + ": "
                    + VerbText.count(problems.size(), "problem"));
            problems.forEach(problem -> err.println((problem.isError() ? "" : "warning: ") + problem));
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            String module = text(result, "module") + " " + text(result, "version");
            out.println(result.path("changed").asBoolean(false) ? "pushed " + module
                    : module + " was pushed already; nothing changed");
            if (!result.path("warnings").isEmpty()) {
                // Located in the file, as validate prints them (the controller's are in the JSON it received).
                FileResult.read(file).problems().forEach(problem -> out.println("warning: " + problem));
            }
        }
    }

    /**
     * @param file a manifest file
     * @return its text, a JSON object
     * @throws ConfigException when it cannot be read, is not JSON or not an object: where, and why
     */
    static String manifest(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(List.of(file + ": no such file; give the path of a module manifest"));
        } catch (IOException e) {
            throw new ConfigException(List.of(file + ": cannot be read (" + e + ")"));
        }
        JsonNode manifest;
        try {
            manifest = STRICT.readTree(bytes);
        } catch (JacksonException e) {
            var at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new ConfigException(List.of(file + where + ": not JSON: " + e.getOriginalMessage().lines()
                    .findFirst().orElse("").strip() + "; a module manifest is a JSON object"));
        }
        if (manifest == null || manifest.isMissingNode()) {
            throw new ConfigException(List.of(file + ": empty; a module manifest is a JSON object"));
        }
        if (!manifest.isObject()) {
            throw new ConfigException(List.of(file + ":1:1: the manifest is a JSON "
                    + manifest.getNodeType().name().toLowerCase(Locale.ROOT) + ", not an object; a module manifest "
                    + "is a JSON object"));
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Command(name = "build", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Requests the build of a module's artifacts, or of the one named.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:requested", ClientCommand.EXIT_1 + "; not-found for an unknown module or artifact",
                ClientCommand.EXIT_2, ClientCommand.EXIT_3})
    static final class Build extends ClientCommand {

        @Parameters(index = "0", paramLabel = "MODULE", description = "The module.")
        private String module;

        @Parameters(index = "1", arity = "0..1", paramLabel = "ARTIFACT",
                description = "One of its artifacts (default: all of them).")
        private String artifact;

        Build(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "build";
        }

        @Override
        boolean mutating() {
            return true;
        }

        @Override
        ObjectNode arguments() {
            ObjectNode arguments = super.arguments().put("module", module);
            return artifact == null ? arguments : arguments.put("artifact", artifact);
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            result.path("requested").forEach(id -> out.println("requested " + id.asString("")));
        }
    }
}
