package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokenTest {

    @TempDir
    Path state;

    @Test
    void create_writesAFileOfMode0600_thatReadsBackAsTheToken() throws IOException {
        BearerToken token = BearerToken.create(state);

        Path file = state.resolve("token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(token.matches(Files.readString(file))).isTrue();
        assertThat(BearerToken.read(state).header()).isEqualTo(token.header());
        assertThat(Files.list(state)).containsExactly(file);
    }

    @Test
    void create_missingStateDirectory_isCreatedOwnerOnly() throws IOException {
        Path nested = state.resolve("a/b");

        BearerToken.create(nested);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested))).isEqualTo("rwx------");
    }

    @Test
    void create_again_replacesTheToken() {
        BearerToken first = BearerToken.create(state);
        BearerToken second = BearerToken.create(state);

        assertThat(second.header()).isNotEqualTo(first.header());
        assertThat(BearerToken.read(state).header()).isEqualTo(second.header());
    }

    @Test
    void read_fileOthersMayRead_isRefused() throws IOException {
        BearerToken.create(state);
        Path file = state.resolve("token");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> BearerToken.read(state)).isInstanceOfSatisfying(McpException.class, e -> {
            assertThat(e.kind()).isEqualTo(McpException.Kind.SETUP);
            assertThat(e.getMessage()).isEqualTo("the token file " + file + " has mode rw-r--r--, so others may "
                    + "read it; run chmod 600 " + file + ", or delete it and restart the controller for a new one");
        });
    }

    @Test
    void read_noFile_saysWhichFileWasLookedFor() {
        assertThatThrownBy(() -> BearerToken.read(state)).isInstanceOfSatisfying(McpException.class, e ->
                assertThat(e.getMessage()).isEqualTo("the token file " + state.resolve("token") + " does not exist; is "
                        + "the controller running with the state directory " + state + "?"));
    }

    @Test
    void matches_onlyTheSameToken() {
        BearerToken token = BearerToken.of("abc");

        assertThat(token.matches("abc")).isTrue();
        assertThat(token.matches("abd")).isFalse();
        assertThat(token.matches("ab")).isFalse();
        assertThat(token.matches(null)).isFalse();
    }

    @Test
    void toString_hidesTheToken() {
        assertThat(BearerToken.random()).hasToString("***");
    }
}
