package dev.mesh.controller.bus;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import java.util.List;
import java.util.Map;

/** Declarations as composition makes them, with their revision, for the delivery tests. */
final class Declarations {

    private Declarations() {
    }

    /**
     * @param node the node
     * @param level put into the process's environment, so two levels give two revisions
     * @return a declaration of one module, {@code mesh-store}, with a process that prepares
     */
    static Declaration of(String node, String level) {
        Declaration.Artifact artifact = Declaration.Artifact.unbuilt("mesh-store", "1.2.0", "server", "debian-12")
                .built("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                        "https://builds.mesh/mesh-store-1.2.0-server.tar.gz");
        Map<String, String> env = Map.of("STORE_LEVEL", level, "STORE_PORT", "5433");
        Declaration unsigned = new Declaration(node, "",
                List.of(new Declaration.Account("mesh-store", "", "/var/lib/mesh-store")),
                List.of(new Declaration.Directory("mesh-store", "data", "/var/lib/mesh-store/data", "0750",
                        "mesh-store")),
                List.of(new Declaration.Secret("mesh-store", "password", "/run/mesh/secrets/mesh-store/password",
                        "mesh-store", "0600")),
                List.of(new Declaration.Access("mesh-store", "/var/lib/mesh-store/data", "write")),
                List.of(new Declaration.Process("mesh-store", "mesh-store", artifact, List.of("/opt/mesh-store/bin/server",
                        "--port", "5433"), "mesh-store", env, List.of("legacy-store"), true, new Declaration.Preparation(
                        List.of("/opt/mesh-store/bin/server", "prepare"), "mesh-store", env))),
                List.of(),
                List.of("store"),
                List.of(new Declaration.Tool("mesh-store", "store-backup")));
        return unsigned.withRevision(CanonicalJson.digest(unsigned));
    }
}
