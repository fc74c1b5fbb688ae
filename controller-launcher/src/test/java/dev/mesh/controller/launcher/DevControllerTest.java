package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.store.EmbeddedStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where development controllers unpack the embedded PostgreSQL ({@link EmbeddedStore#binaries}). */
class DevControllerTest {

    private static final Path STATE = Path.of("/srv/dev-state");

    @Test
    void binaries_followTheCacheVariable_thenXdg_thenHome() {
        assertThat(EmbeddedStore.binaries(Map.of("MESH_CONTROLLER_CACHE", "/var/cache/mesh", "XDG_CACHE_HOME",
                "/x", "HOME", "/home/ada"), STATE)).isEqualTo(Path.of("/var/cache/mesh/postgres"));
        assertThat(EmbeddedStore.binaries(Map.of("XDG_CACHE_HOME", "/x/cache", "HOME", "/home/ada"), STATE))
                .isEqualTo(Path.of("/x/cache/mesh-controller/postgres"));
        assertThat(EmbeddedStore.binaries(Map.of("HOME", "/home/ada/"), STATE))
                .isEqualTo(Path.of("/home/ada/.cache/mesh-controller/postgres"));
    }

    /** A relative or empty value is ignored (the XDG rule), and with nothing left the state directory holds it. */
    @Test
    void binaries_withoutAnAbsoluteDirectory_areInTheStateDirectory() {
        assertThat(EmbeddedStore.binaries(Map.of("MESH_CONTROLLER_CACHE", "cache", "XDG_CACHE_HOME", "",
                "HOME", "/home/ada"), STATE)).isEqualTo(Path.of("/home/ada/.cache/mesh-controller/postgres"));
        assertThat(EmbeddedStore.binaries(Map.of("HOME", "relative"), STATE))
                .isEqualTo(Path.of("/srv/dev-state/postgres-binaries"));
        assertThat(EmbeddedStore.binaries(Map.of(), STATE)).isEqualTo(Path.of("/srv/dev-state/postgres-binaries"));
    }
}
