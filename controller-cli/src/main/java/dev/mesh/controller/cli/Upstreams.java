package dev.mesh.controller.cli;

import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.mcp.Upstream;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where {@code mesh-controller mcp} forwards to when the environment names a transport other than
 * loopback HTTP: the launcher gives one that connects to the broker when the broker's variables are set
 * (docs/design.md section 7: over the broker in a mesh, over loopback HTTP in dev mode). This module knows
 * no broker; it only asks.
 *
 * <p>Implementations are called once per run of {@code mcp}, from its thread.
 */
@FunctionalInterface
public interface Upstreams {

    /** Never another transport: {@code mcp} always finds an HTTP controller. */
    Upstreams HTTP_ONLY = (env, warnings) -> Optional.empty();

    /**
     * Opens the upstream the environment names, connected.
     *
     * @param env the environment
     * @param warnings where to send lines for standard error that do not stop the command (a
     *     credentials file others may read), without the {@code mesh-controller: warning: } prefix
     * @return the connected upstream, or empty when the environment names no other transport (then
     *     {@code mcp} finds a controller over HTTP)
     * @throws ConfigException with one line per problem when the environment names the transport but a
     *     setting is missing or malformed (exit 2)
     * @throws dev.mesh.controller.manifest.MeshException of another kind when the transport cannot be
     *     reached or refuses the caller ({@code mcp} exits 3 with its message)
     */
    Optional<Upstream> open(Map<String, String> env, Consumer<String> warnings);
}
