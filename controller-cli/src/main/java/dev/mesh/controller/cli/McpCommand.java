package dev.mesh.controller.cli;

import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.StdioBridge;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code mesh-controller mcp [--url URL] [--state DIR] [--token-file FILE]}: an MCP server on
 * standard input and output (newline-delimited JSON-RPC) that forwards every tool call to the
 * running controller, found as the client commands find it ({@link ControllerAddress}). Standard
 * output carries nothing but the protocol; diagnostics go to standard error.
 */
@Command(name = "mcp",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = {
            "Serves MCP on standard input and output (one JSON-RPC message per line) and forwards tools/list and "
                    + "tools/call to the running controller; answers initialize and ping itself. For an MCP client "
                    + "(a tool runtime, an editor) that starts its servers as processes.",
            "While the controller does not answer, a tool call is answered with the tool error 'unavailable' "
                    + "and the serving goes on. It stops, with exit code 0, when standard input ends."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:standard input ended",
            "1:standard input or output failed",
            "2:the command line, the token file or the environment is wrong",
            "3:no controller was found: no --url, no MESH_CONTROLLER_URL, no <state>/url"})
final class McpCommand implements Callable<Integer> {

    private final Map<String, String> env;
    private final InputStream in;
    private final OutputStream out;

    @Mixin
    private ControllerOptions controller;

    /**
     * @param env the environment
     * @param in where the MCP client's messages come from (standard input)
     * @param out where the answers go (standard output), and nothing else
     */
    McpCommand(Map<String, String> env, InputStream in, OutputStream out) {
        this.env = Objects.requireNonNull(env, "env");
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public Integer call() {
        ControllerAddress address = ControllerAddress.find(controller, env);
        try (McpClient client = McpClient.of(address.endpoint(), address.token())) {
            StdioBridge.of(client, JarVersion.version()).run(in, out);
        } catch (UncheckedIOException e) {
            throw new CommandException("mcp stopped: " + e.getMessage() + " (" + e.getCause() + ")", e);
        }
        return 0;
    }
}
