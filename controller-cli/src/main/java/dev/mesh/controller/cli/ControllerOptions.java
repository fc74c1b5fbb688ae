package dev.mesh.controller.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options that say where the running controller is and which token it wants (a picocli mixin of
 * every command that talks to a controller). {@link ControllerAddress} resolves them with the
 * environment.
 */
final class ControllerOptions {

    @Option(names = "--url", paramLabel = "URL",
            description = "The controller's MCP endpoint, e.g. http://127.0.0.1:7300/mcp (default: "
                    + "$MESH_CONTROLLER_URL, else the one in <state>/url).")
    String url;

    @Option(names = "--state", paramLabel = "DIR",
            description = "The state directory of a controller started with serve --dev, holding its url and "
                    + "token (default: $MESH_CONTROLLER_STATE, else ./.mesh-dev).")
    Path state;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "The file holding the controller's bearer token (default: $MESH_CONTROLLER_TOKEN_FILE, "
                    + "else <state>/token).")
    Path tokenFile;
}
