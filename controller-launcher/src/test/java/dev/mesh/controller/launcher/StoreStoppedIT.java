package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The store stopped under a running {@code serve --dev}, for real: the embedded PostgreSQL of its
 * state directory is shut down with {@code pg_ctl stop -m fast} (the server and every session of
 * it end, the plan lock's among them). Every verb that needs the store then answers the tool error
 * {@code unavailable} — never a JSON-RPC {@code -32603} — saying what could not be reached, without
 * SQL; {@code status} says the store is unavailable; the controller stays up. Started again with
 * the command line PostgreSQL recorded ({@code postmaster.opts}), the store answers, the
 * controller takes its lock again with the next epoch, and every answer is what it was before.
 */
class StoreStoppedIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The verbs that read or write the store (tools and status answer without it). */
    private static final List<String> NEED_THE_STORE = List.of("nodes", "node", "modules", "seats", "builds", "plan",
            "assign", "unassign", "push", "build");
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private ServeProcess serve;
    private McpClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void storeStoppedUnderTheController_verbsAreUnavailable_thenEverythingAnswersAsBefore() throws Exception {
        Path state = dir.resolve("state");
        serve = ServeProcess.start(state, dir, "--mesh", "../examples/mesh.json");
        client = McpClient.of(serve.endpoint(), BearerToken.read(state));
        List<JsonNode> before = reads();
        long epoch = client.callTool("status", object()).path("epoch").asLong();
        Path data = state.resolve("postgres");
        String options = serverOptions(data);
        Path pgCtl = serverProgram(data).resolveSibling("pg_ctl");

        pgCtl(pgCtl, "-D", data.toString(), "stop", "-m", "fast", "-w", "-t", "60");
        assertThat(ServeProcess.postgresOf(state)).as("the embedded PostgreSQL is stopped").isEmpty();

        StringBuilder took = new StringBuilder();
        for (String verb : NEED_THE_STORE) {
            long started = System.nanoTime();
            JsonNode answer = call(verb);
            took.append(took.isEmpty() ? "" : " ").append(verb).append('=')
                    .append((System.nanoTime() - started) / 1_000_000).append("ms");
            assertThat(answer.has("error")).as(verb + ": a tool error, not a JSON-RPC error: " + answer).isFalse();
            JsonNode result = answer.path("result");
            assertThat(result.path("isError").asBoolean()).as(verb + ": " + answer).isTrue();
            JsonNode error = result.path("structuredContent");
            assertThat(error.path("code").asString()).as(verb + ": " + error).isEqualTo("unavailable");
            assertThat(error.path("message").asString()).as(verb).isNotBlank()
                    .doesNotContainIgnoringCase("select ").doesNotContainIgnoringCase("insert ")
                    .doesNotContain("SQL [", "Exception", Files.readString(state.resolve("token")).strip());
        }
        // How long each took to say unavailable (issue 23's target is 1 s): printed for docs/benchmarks.md, not asserted.
        System.out.println("store stopped: unavailable answered in " + took);
        await("status says the store is unavailable", () -> client.callTool("status", object()).path("store")
                .asString().startsWith("unavailable"));
        assertThat(serve.isAlive()).as("the controller stays up").isTrue();

        pgCtl(pgCtl, "-D", data.toString(), "start", "-w", "-t", "60", "-l", state.resolve("postgres.log").toString(),
                "-o", options);
        await("status says the store answers again", () -> client.callTool("status", object()).path("store")
                .asString().equals("ok"));
        await("the controller is active again", () -> client.callTool("status", object()).path("role").asString()
                .equals("active"));

        assertThat(reads()).as("nothing lost").isEqualTo(before);
        JsonNode status = client.callTool("status", object());
        assertThat(status.path("epoch").asLong()).as("the lock taken again, with the next epoch").isEqualTo(epoch + 1);
        JsonNode unassigned = client.callTool("unassign", JSON.readTree("{\"module\": \"mesh-bus\", \"node\": \"beta\"}"));
        assertThat(unassigned.path("changed").asBoolean()).as("mutating verbs run again").isTrue();
        assertThat(serve.stop()).as(serve.err()).isZero();
    }

    /** What the reading verbs answer, in order. */
    private List<JsonNode> reads() throws Exception {
        List<JsonNode> answers = new ArrayList<>();
        for (String verb : List.of("nodes", "modules", "seats", "builds", "plan")) {
            answers.add(client.callTool(verb, object()));
        }
        answers.add(client.callTool("node", JSON.readTree("{\"name\": \"alpha\"}")));
        return answers;
    }

    /** One tools/call as it is sent and answered, with arguments that are valid for the verb. */
    private JsonNode call(String verb) throws IOException {
        ObjectNode params = JSON.createObjectNode().put("name", verb);
        params.set("arguments", switch (verb) {
            case "node" -> JSON.readTree("{\"name\": \"alpha\"}");
            case "assign", "unassign" -> JSON.readTree("{\"module\": \"mesh-bus\", \"node\": \"beta\"}");
            case "push" -> JSON.createObjectNode().put("manifest",
                    Files.readString(Path.of("../examples/modules/mesh-bus.json")));
            case "build" -> JSON.readTree("{\"module\": \"mesh-bus\"}");
            default -> object();
        });
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", verb).put("method",
                "tools/call");
        request.set("params", params);
        return client.exchange(request).orElseThrow();
    }

    /**
     * The options the server was started with, as PostgreSQL recorded them in
     * {@code postmaster.opts}: everything after the program, but the data directory.
     */
    private static String serverOptions(Path data) throws IOException {
        String recorded = Files.readString(data.resolve("postmaster.opts")).strip();
        List<String> words = new ArrayList<>();
        Matcher word = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(recorded);
        while (word.find()) {
            words.add(word.group(1));
        }
        StringBuilder options = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).equals("-D")) {
                i++;
                continue;
            }
            options.append(options.isEmpty() ? "" : " ").append('"').append(words.get(i)).append('"');
        }
        return options.toString();
    }

    /** The server program PostgreSQL recorded in {@code postmaster.opts}: the first word, unquoted. */
    private static Path serverProgram(Path data) throws IOException {
        String recorded = Files.readString(data.resolve("postmaster.opts")).strip();
        return Path.of(recorded.substring(0, recorded.indexOf(' ')));
    }

    /** Runs the embedded server's own {@code pg_ctl}, as the embedded store runs it (in a user namespace as root). */
    private static void pgCtl(Path pgCtl, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(pgCtl.toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
    }

    private static void await(String what, BooleanSupplier condition) {
        // Not yet while it throws: the controller answers with an error while the store comes back.
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(RuntimeException.class)
                .until(condition::getAsBoolean);
    }

    private static ObjectNode object() {
        return JSON.createObjectNode();
    }
}
