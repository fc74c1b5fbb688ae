package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code serve} alone, as the host runs the mesh's controller, runs without picocli ({@link ServeCommand#direct}):
 * held to picocli's run of the same command line — the same lines and exit code — in every environment that
 * stops it before it connects; and every other command line is left to picocli. (Its runs that connect and
 * serve are the process tests': {@code MeshServeProcessIT}, {@code TwoControllersIT} start {@code serve} alone.)
 */
class ServeDirectlyTest {

    @TempDir
    static Path dir;

    static Stream<Map<String, String>> environmentsThatStopIt() throws IOException {
        Map<String, String> whole = new HashMap<>();
        for (String role : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            String name = role.toLowerCase(Locale.ROOT);
            whole.put("MESH_STORE_" + role + "_FILE", write(name + ".json", "{\"user\": \"mesh\", \"password\": "
                    + "\"s3cret\", \"database\": \"" + name + "\"}"));
            whole.put("MESH_STORE_" + role + "_PORT", "127.0.0.1:5432");
        }
        whole.put("MESH_BROKER_ADDRESS_FILE", write("broker.json", "{\"user\": \"mesh-controller\", \"password\": "
                + "\"s3cret\", \"vhost\": \"mesh\"}"));
        whole.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672");
        whole.put("MESH_BUS_NATS_FILE", write("nats.json", "{\"url\": \"nats://127.0.0.1:4222\"}"));

        Map<String, String> badPort = new HashMap<>(whole);
        badPort.put("MESH_STORE_LICENCES_PORT", "127.0.0.1:70000");
        Map<String, String> brokenFile = new HashMap<>(whole);
        brokenFile.put("MESH_BROKER_ADDRESS_FILE", write("broken.json", "{\"user\": \"mesh-controller\", "));
        brokenFile.remove("MESH_BUS_NATS_FILE");
        Map<String, String> missingFile = new HashMap<>(whole);
        missingFile.put("MESH_STORE_IDENTITY_FILE", dir.resolve("absent.json").toString());
        Map<String, String> badGenesis = new HashMap<>(badPort);
        badGenesis.put("MESH_GENESIS_FILE", write("genesis.json", "[]"));
        return Stream.of(Map.of(), badPort, brokenFile, missingFile, badGenesis);
    }

    @ParameterizedTest
    @MethodSource("environmentsThatStopIt")
    void direct_serveAlone_printsAndExitsAsPicocliDoes(Map<String, String> env) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        OptionalInt exitCode = ServeCommand.direct(new String[] {"serve"}, env, new PrintWriter(out),
                new PrintWriter(err));

        Cli.Run picocli = Cli.run(env, "serve");
        assertThat(exitCode).hasValue(picocli.exitCode());
        assertThat(exitCode.getAsInt()).as("stopped before it connects").isNotZero();
        assertThat(out.toString()).isEqualTo(picocli.out());
        assertThat(err.toString()).isEqualTo(picocli.err()).isNotEmpty().doesNotContain("s3cret");
    }

    static Stream<List<String>> otherCommandLines() {
        return Stream.of(List.of(), List.of("validate"), List.of("serve", "--dev"), List.of("serve", "--help"),
                List.of("serve", "-h"), List.of("serve", "--version"), List.of("serve", "--http", "127.0.0.1:0"),
                List.of("serve", "--log-format", "json"), List.of("serve", ""), List.of("serve", "serve"),
                List.of("Serve"), List.of("serve", "--state", "x"));
    }

    @ParameterizedTest
    @MethodSource("otherCommandLines")
    void direct_anyOtherCommandLine_isLeftToPicocli(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        assertThat(ServeCommand.direct(args.toArray(String[]::new), Map.of(), new PrintWriter(out),
                new PrintWriter(err))).isEmpty();
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEmpty();
    }

    private static String write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }
}
