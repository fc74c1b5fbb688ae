package dev.mesh.controller.cli;

import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.McpException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A command that calls one verb of the running controller over MCP HTTP and prints its result: as
 * text for people, or with {@code --json} as the verb's structured result on one line.
 *
 * <p>Exit codes: {@code 0} the verb answered (or what {@link #exitCode} says), {@code 1} the verb
 * failed or the controller refused the token — {@code error (CODE): MESSAGE} on standard error, with
 * the pointer on a second line when there is one —, {@code 2} the command line or its configuration
 * is wrong, {@code 3} no controller could be reached ({@link UnreachableException}, every place
 * tried). A mutating verb carries a fresh request id, so that the controller applies it at most once
 * whatever the transport repeats.
 */
abstract class ClientCommand implements Callable<Integer> {

    static final String EXIT_1 = "1:the verb failed, or the controller refused the token (error (CODE): MESSAGE on "
            + "standard error)";
    static final String EXIT_2 = "2:the command line, a file it names, or the environment is wrong";
    static final String EXIT_3 = "3:no controller could be reached; every place tried is listed";

    private final Map<String, String> env;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ControllerOptions controller;

    @Option(names = "--json", description = "Print the verb's result as one JSON document, for scripts.")
    private boolean json;

    ClientCommand(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    /** @return the verb this command calls */
    abstract String verb();

    /**
     * @return the verb's arguments
     * @throws ConfigException when a file the command line names cannot give them
     */
    ObjectNode arguments() {
        return JsonOutput.MAPPER.createObjectNode();
    }

    /** @return whether the verb changes the inventory, and so needs a request id */
    boolean mutating() {
        return false;
    }

    /** Prints the verb's result for people. */
    abstract void print(JsonNode result, PrintWriter out);

    /**
     * Calls the verb once; a command that follows the verb's pages calls it for each.
     *
     * @param client the running controller
     * @param arguments what {@link #arguments()} gave
     * @return the result to print
     * @throws VerbException when the verb fails
     * @throws McpException when the controller cannot be reached or refuses the token
     */
    JsonNode call(McpClient client, ObjectNode arguments) {
        return client.callTool(verb(), arguments, mutating() ? UUID.randomUUID().toString() : null);
    }

    /** Prints on standard error, after the text of a result, what else a person should know: nothing, here. */
    void note(JsonNode result, PrintWriter err) {
    }

    /** @return the exit code of a result the verb answered */
    int exitCode(JsonNode result) {
        return 0;
    }

    @Override
    public Integer call() {
        return run(spec.commandLine(), controller, json);
    }

    /**
     * Calls the verb and prints what it answered.
     *
     * @param commandLine where to print
     * @param options where the controller is
     * @param asJson whether to print JSON
     * @return the exit code
     * @throws UnreachableException when no controller answers
     * @throws ConfigException when the address or token configured is wrong
     */
    final int run(CommandLine commandLine, ControllerOptions options, boolean asJson) {
        ObjectNode arguments = arguments();
        ControllerAddress address = ControllerAddress.find(options, env);
        PrintWriter out = commandLine.getOut();
        JsonNode result;
        try (McpClient client = McpClient.of(address.endpoint(), address.token())) {
            result = call(client, arguments);
        } catch (VerbException e) {
            return failed(e, commandLine, asJson);
        } catch (McpException e) {
            if (e.kind() == McpException.Kind.UNAUTHORIZED) {
                return failed(new VerbException(VerbException.Code.UNAUTHORIZED, e.getMessage(), ""), commandLine,
                        asJson);
            }
            throw address.unreachable(e);
        }
        if (asJson) {
            out.println(JsonOutput.MAPPER.writeValueAsString(result));
        } else {
            print(result, out);
            out.flush();
            note(result, commandLine.getErr());
            commandLine.getErr().flush();
        }
        out.flush();
        return exitCode(result);
    }

    /** Prints a verb's failure for people: {@code error (CODE): MESSAGE}, then the pointer when there is one. */
    void printError(VerbException e, PrintWriter err) {
        Failures.verb(e).forEach(err::println);
    }

    /** A verb's failure: its code and message on standard error and, with --json, as a document on standard output. */
    private int failed(VerbException e, CommandLine commandLine, boolean asJson) {
        if (asJson) {
            ObjectNode document = JsonOutput.MAPPER.createObjectNode();
            ObjectNode error = document.putObject("error").put("code", e.code().label()).put("message", e.getMessage());
            if (!e.pointer().isEmpty()) {
                error.put("pointer", e.pointer());
            }
            commandLine.getOut().println(JsonOutput.MAPPER.writeValueAsString(document));
            commandLine.getOut().flush();
        }
        PrintWriter err = commandLine.getErr();
        printError(e, err);
        err.flush();
        return 1;
    }

    /** @return {@code text} of {@code node}, or {@code ""} */
    static String text(JsonNode node, String field) {
        return node.path(field).asString("");
    }

    /** @return the strings of an array, comma-separated, or {@code -} when there are none */
    static String list(JsonNode array) {
        StringBuilder joined = new StringBuilder();
        array.forEach(item -> joined.append(joined.isEmpty() ? "" : ", ").append(item.asString("")));
        return joined.isEmpty() ? "-" : joined.toString();
    }
}
