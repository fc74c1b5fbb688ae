package dev.mesh.controller.launcher;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.cli.Upstreams;
import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.Upstream;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code mesh-controller mcp} in a mesh (docs/design.md section 7): when the broker's address is in the
 * environment ({@link Config#forMcp}), the bridge forwards over the broker ({@link BrokerUpstream}), as
 * the broker's user, each request waiting for its reply as long as an HTTP request would
 * ({@link McpClient#DEFAULT_REQUEST_TIMEOUT}). Stateless; thread-safe.
 */
final class BrokerUpstreams implements Upstreams {

    @Override
    public Optional<Upstream> open(Map<String, String> env, Consumer<String> warnings) {
        Optional<Config.Mcp> config = Config.forMcp(env);
        config.ifPresent(mcp -> mcp.warnings().forEach(warnings));
        return config.map(mcp -> BrokerUpstream.connect(mcp.broker().settings(mcp.certificate()),
                McpClient.DEFAULT_REQUEST_TIMEOUT));
    }
}
