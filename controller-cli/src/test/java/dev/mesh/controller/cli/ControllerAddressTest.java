package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.mcp.BearerToken;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order in which the controller's endpoint and token are found, and what is said when they are not. */
class ControllerAddressTest {

    @TempDir
    Path dir;

    private static ControllerOptions options(String url, Path state, Path tokenFile) {
        ControllerOptions options = new ControllerOptions();
        options.url = url;
        options.state = state;
        options.tokenFile = tokenFile;
        return options;
    }

    /** A state directory as serve --dev leaves it: the endpoint and a token. */
    private Path state(String name, String url) throws IOException {
        Path state = dir.resolve(name);
        BearerToken.create(state);
        Files.writeString(state.resolve("url"), url + "\n");
        return state;
    }

    private Path tokenFile(String name, String token) throws IOException {
        Path file = Files.writeString(dir.resolve(name), token + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    @Test
    void urlOption_comesFirst() throws IOException {
        Path state = state("state", "http://127.0.0.1:3/mcp");

        ControllerAddress address = ControllerAddress.find(options("http://127.0.0.1:1/mcp", state, null),
                Map.of("MESH_CONTROLLER_URL", "http://127.0.0.1:2/mcp"));

        assertThat(address.endpoint()).isEqualTo(URI.create("http://127.0.0.1:1/mcp"));
        assertThat(address.source()).isEqualTo("--url");
        assertThat(address.consulted()).isEmpty();
    }

    @Test
    void urlVariable_comesSecond() throws IOException {
        Path state = state("state", "http://127.0.0.1:3/mcp");

        ControllerAddress address = ControllerAddress.find(options(null, state, null),
                Map.of("MESH_CONTROLLER_URL", "http://127.0.0.1:2/mcp"));

        assertThat(address.endpoint()).isEqualTo(URI.create("http://127.0.0.1:2/mcp"));
        assertThat(address.source()).isEqualTo("MESH_CONTROLLER_URL");
        assertThat(address.consulted()).containsExactly("--url: not given");
    }

    @Test
    void stateOption_comesBeforeTheStateVariable() throws IOException {
        Path option = state("option", "http://127.0.0.1:3/mcp");
        Path variable = state("variable", "http://127.0.0.1:4/mcp");

        ControllerAddress address = ControllerAddress.find(options(null, option, null),
                Map.of("MESH_CONTROLLER_STATE", variable.toString()));

        assertThat(address.endpoint()).isEqualTo(URI.create("http://127.0.0.1:3/mcp"));
        assertThat(address.source()).isEqualTo(option.resolve("url").toString());
        assertThat(address.consulted()).containsExactly("--url: not given", "MESH_CONTROLLER_URL: not set");
    }

    @Test
    void stateVariable_isUsedWithoutTheOption_andSaysSo() throws IOException {
        Path variable = state("variable", "http://127.0.0.1:4/mcp");

        ControllerAddress address = ControllerAddress.find(options(null, null, null),
                Map.of("MESH_CONTROLLER_STATE", variable.toString(), "MESH_CONTROLLER_URL", " "));

        assertThat(address.endpoint()).isEqualTo(URI.create("http://127.0.0.1:4/mcp"));
        assertThat(address.source()).isEqualTo(variable.resolve("url") + " (MESH_CONTROLLER_STATE)");
        assertThat(address.token().header()).isEqualTo(BearerToken.read(variable).header());
    }

    @Test
    void nothingFound_isUnreachable_namingEachSourceInOrder() {
        Path empty = dir.resolve("nothing-here");

        assertThatThrownBy(() -> ControllerAddress.find(options(null, empty, null), Map.of()))
                .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(e.tried()).containsExactly(
                        "--url: not given",
                        "MESH_CONTROLLER_URL: not set",
                        empty.resolve("url") + ": no such file, so no controller serves from that state directory; "
                                + "start one with mesh-controller serve --dev, or say where it is with --url or "
                                + "--state"));
    }

    @Test
    void defaultState_isDotMeshDev_andTheMessageSaysWhy() {
        assertThatThrownBy(() -> ControllerAddress.find(options(null, null, null), Map.of()))
                .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(e.tried().getLast()).startsWith(
                        ".mesh-dev/url (the default state directory: --state not given, MESH_CONTROLLER_STATE not "
                                + "set): "));
    }

    @Test
    void anEmptyUrlFile_isUnreachable() throws IOException {
        Path state = state("state", "");

        assertThatThrownBy(() -> ControllerAddress.find(options(null, state, null), Map.of()))
                .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(e.tried().getLast())
                        .startsWith(state.resolve("url") + ": empty; the controller is starting"));
    }

    @Test
    void aUrlWithoutPath_meansSlashMcp() throws IOException {
        Path state = state("state", "http://127.0.0.1:7300");

        assertThat(ControllerAddress.find(options(null, state, null), Map.of()).endpoint())
                .isEqualTo(URI.create("http://127.0.0.1:7300/mcp"));
        assertThat(ControllerAddress.find(options("http://[::1]:7300/", state, null), Map.of()).endpoint())
                .isEqualTo(URI.create("http://[::1]:7300/mcp"));
    }

    @Test
    void aValueThatIsNotAUrl_isAConfigurationError_namingItsSource() throws IOException {
        Path state = state("state", "http://127.0.0.1:1/mcp");

        assertThatThrownBy(() -> ControllerAddress.find(options(null, state, null),
                Map.of("MESH_CONTROLLER_URL", "ftp://example.org/mcp")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("MESH_CONTROLLER_URL: \"ftp://example.org/mcp\" is not the URL of a controller (an http:// "
                        + "or https:// URL with a host, and no query or fragment, is needed); give its MCP endpoint, "
                        + "e.g. http://127.0.0.1:7300/mcp");
        assertThatThrownBy(() -> ControllerAddress.find(options("http://a b", state, null), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("--url: \"http://a b\" is not the URL");
    }

    @Test
    void tokenFileOption_comesBeforeTheVariable_whichComesBeforeTheState() throws IOException {
        Path state = state("state", "http://127.0.0.1:1/mcp");
        Path option = tokenFile("option", "from-option");
        Path variable = tokenFile("variable", "from-variable");
        Map<String, String> env = Map.of("MESH_CONTROLLER_TOKEN_FILE", variable.toString());

        assertThat(ControllerAddress.find(options(null, state, option), env).token().header())
                .isEqualTo("Bearer from-option");
        assertThat(ControllerAddress.find(options(null, state, null), env).token().header())
                .isEqualTo("Bearer from-variable");
        assertThat(ControllerAddress.find(options(null, state, null), Map.of()).token().header())
                .isEqualTo(BearerToken.read(state).header());
    }

    @Test
    void theStatesToken_isUsedWithAUrlFromElsewhere() throws IOException {
        Path state = state("state", "http://127.0.0.1:1/mcp");

        ControllerAddress address = ControllerAddress.find(options("http://127.0.0.1:9/mcp", state, null), Map.of());

        assertThat(address.token().header()).isEqualTo(BearerToken.read(state).header());
    }

    @Test
    void aTokenFileOthersMayRead_isRefused() throws IOException {
        Path file = tokenFile("open", "secret");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> ControllerAddress.find(options("http://127.0.0.1:1/mcp", null, file), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("the token file --token-file " + file + " has mode rw-r--r--, so others may read it; "
                        + "run chmod 600 " + file);
    }

    @Test
    void aMissingToken_isAConfigurationError_thatSaysWhereItLooked() {
        Path state = dir.resolve("no-token");

        assertThatThrownBy(() -> ControllerAddress.find(options("http://127.0.0.1:1/mcp", state, null), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("the token file " + state.resolve("token") + " (--token-file not given, "
                        + "MESH_CONTROLLER_TOKEN_FILE not set) does not exist; give the file that holds the "
                        + "controller's token with --token-file FILE (serve --dev writes it to <state>/token)");
    }

    @Test
    void aTokenFileWithoutAToken_isRefused() throws IOException {
        Path file = tokenFile("blank", "  ");

        assertThatThrownBy(() -> ControllerAddress.find(options("http://127.0.0.1:1/mcp", null, file), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("does not hold a token");
    }

    @Test
    void unreachable_listsWhatWasConsulted_thenTheEndpoint() throws IOException {
        Path state = state("state", "http://127.0.0.1:1/mcp");

        UnreachableException e = ControllerAddress.find(options(null, state, null), Map.of())
                .unreachable(new IllegalStateException("connection refused"));

        assertThat(e.tried()).containsExactly("--url: not given", "MESH_CONTROLLER_URL: not set",
                "http://127.0.0.1:1/mcp (from " + state.resolve("url") + "): connection refused");
    }
}
