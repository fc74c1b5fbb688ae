package dev.mesh.controller.cli;

import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.manifest.MeshException;
import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.StdioBridge;
import dev.mesh.controller.mcp.Upstream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mesh-controller mcp [--url URL] [--state DIR] [--token-file FILE]}: an MCP server on
 * standard input and output (newline-delimited JSON-RPC) that forwards every tool call to the
 * running controller. Where: with none of the three options given, the {@link Upstreams} the
 * launcher gave it first (over the broker, when the broker's variables are set); otherwise, or when
 * that names none, over HTTP to the controller the client commands find ({@link ControllerAddress}).
 * Standard output carries nothing but the protocol; diagnostics go to standard error.
 */
@Command(name = "mcp",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = {
            "Serves MCP on standard input and output (one JSON-RPC message per line) and forwards tools/list and "
                    + "tools/call to the running controller; answers initialize and ping itself. For an MCP client "
                    + "(a tool runtime, an editor) that starts its servers as processes.",
            "In a mesh (MESH_BROKER_ADDRESS_FILE and MESH_BROKER_ADDRESS_PORT set, MESH_BROKER_CERTIFICATE "
                    + "off loopback, and none of --url, --state, --token-file given) it forwards over the broker, "
                    + "as the broker's user; otherwise over HTTP to the controller the client commands find.",
            "While the controller does not answer, a tool call is answered with the tool error 'unavailable' "
                    + "and the serving goes on. It stops, with exit code 0, when standard input ends."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:standard input ended",
            "1:standard input or output failed",
            "2:the command line, the token file or the environment is wrong",
            "3:no controller was found: no --url, no MESH_CONTROLLER_URL, no <state>/url; or the broker "
                    + "could not be reached or refused the user"})
final class McpCommand implements Callable<Integer> {

    private final Map<String, String> env;
    private final InputStream in;
    private final OutputStream out;
    private final Upstreams upstreams;

    @Mixin
    private ControllerOptions controller;

    @Spec
    private CommandSpec spec;

    /**
     * @param env the environment
     * @param in where the MCP client's messages come from (standard input)
     * @param out where the answers go (standard output), and nothing else
     * @param upstreams the transports the environment may name besides HTTP ({@link Upstreams#HTTP_ONLY}
     *     for none)
     */
    McpCommand(Map<String, String> env, InputStream in, OutputStream out, Upstreams upstreams) {
        this.env = Objects.requireNonNull(env, "env");
        this.in = Objects.requireNonNull(in, "in");
        this.out = Objects.requireNonNull(out, "out");
        this.upstreams = Objects.requireNonNull(upstreams, "upstreams");
    }

    @Override
    public Integer call() {
        try (Upstream upstream = upstream()) {
            StdioBridge.of(upstream, JarVersion.version()).run(in, out);
        } catch (UncheckedIOException e) {
            throw new CommandException("mcp stopped: " + e.getMessage() + " (" + e.getCause() + ")", e);
        }
        return 0;
    }

    /**
     * The options name an HTTP controller, so they win over the environment's transport; without them the
     * environment's transport, else HTTP as the client commands find it.
     */
    private Upstream upstream() {
        if (controller.url == null && controller.state == null && controller.tokenFile == null) {
            PrintWriter err = spec.commandLine().getErr();
            Optional<Upstream> chosen;
            try {
                chosen = upstreams.open(env, warning -> err.println("mesh-controller: warning: " + warning));
            } catch (ConfigException e) {
                throw e;
            } catch (MeshException e) {
                throw new UnreachableException(List.of(Failures.line(e)), e);
            } finally {
                err.flush();
            }
            if (chosen.isPresent()) {
                return chosen.get();
            }
        }
        ControllerAddress address = ControllerAddress.find(controller, env);
        return McpClient.of(address.endpoint(), address.token());
    }
}
