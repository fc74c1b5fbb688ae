package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.cli.PrepareCommand;
import dev.mesh.controller.testing.CommandRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code serve} alone and {@code prepare} alone, as the host runs the mesh's controller and its preparation, run
 * without picocli ({@link ServeCommand#direct}, {@link PrepareCommand#direct}): held to picocli's run of the same
 * command line — the same lines and exit code — in every environment that stops it before it connects; and every
 * other command line is left to picocli. (Their runs that connect are the process tests': {@code
 * MeshServeProcessIT} and {@code TwoControllersIT} start {@code serve} alone, {@code BundleIT} runs {@code
 * prepare} alone.)
 */
class DirectCommandsTest {

    /** How each command runs directly. */
    private interface Direct {
        OptionalInt run(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err);
    }

    private static final Map<String, Direct> DIRECT = Map.of("serve", ServeCommand::direct, "prepare",
            (args, env, out, err) -> PrepareCommand.direct(args, env, Main::preparation, out, err));

    @TempDir
    static Path dir;

    static Stream<Arguments> environmentsThatStopIt() throws IOException {
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
        return Stream.<Map<String, String>>of(Map.of(), badPort, brokenFile, missingFile, badGenesis)
                .flatMap(env -> Stream.of(Arguments.of("serve", env), Arguments.of("prepare", env)));
    }

    @ParameterizedTest
    @MethodSource("environmentsThatStopIt")
    void direct_commandAlone_printsAndExitsAsPicocliDoes(String command, Map<String, String> env) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        OptionalInt exitCode = DIRECT.get(command).run(new String[] {command}, env, new PrintWriter(out),
                new PrintWriter(err));

        CommandRun picocli = Cli.run(env, command);
        assertThat(exitCode).hasValue(picocli.exitCode());
        assertThat(exitCode.getAsInt()).as("stopped before it connects").isNotZero();
        assertThat(out.toString()).isEqualTo(picocli.out());
        assertThat(err.toString()).isEqualTo(picocli.err()).isNotEmpty().doesNotContain("s3cret");
    }

    static Stream<Arguments> otherCommandLines() {
        Stream<Arguments> serve = Stream.of(List.of(), List.of("validate"), List.of("prepare"), List.of("serve",
                "--dev"), List.of("serve", "--help"), List.of("serve", "-h"), List.of("serve", "--version"),
                List.of("serve", "--http", "127.0.0.1:0"), List.of("serve", "--log-format", "json"), List.of("serve",
                ""), List.of("serve", "serve"), List.of("Serve"), List.of("serve", "--state", "x"))
                .map(args -> Arguments.of("serve", args));
        Stream<Arguments> prepare = Stream.of(List.of(), List.of("serve"), List.of("prepare", "--help"),
                List.of("prepare", "-V"), List.of("prepare", ""), List.of("prepare", "prepare"), List.of("Prepare"))
                .map(args -> Arguments.of("prepare", args));
        return Stream.concat(serve, prepare);
    }

    @ParameterizedTest
    @MethodSource("otherCommandLines")
    void direct_anyOtherCommandLine_isLeftToPicocli(String command, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        assertThat(DIRECT.get(command).run(args.toArray(String[]::new), Map.of(), new PrintWriter(out),
                new PrintWriter(err))).isEmpty();
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void serve_genesisFileWithProblems_exits1_withItsLocatedProblems_beforeConnectingToAnything() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad-genesis.json"),
                "{\"nodes\": [], \"modules\": [], \"assignments\": {}}");
        Map<String, String> env = new HashMap<>();
        for (String database : List.of("INVENTORY", "IDENTITY", "LICENCES")) {
            env.put("MESH_STORE_" + database + "_FILE", credentials(database.toLowerCase(Locale.ROOT) + "-u.json",
                    "{\"user\": \"u\", \"password\": \"p\", \"database\": \"d\"}"));
            env.put("MESH_STORE_" + database + "_PORT", "127.0.0.1:1"); // nothing listens: a connection would fail
        }
        env.put("MESH_BROKER_ADDRESS_FILE", credentials("broker-u.json",
                "{\"user\": \"u\", \"password\": \"p\", \"vhost\": \"v\"}"));
        env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:1");
        env.put("MESH_BUS_NATS_FILE", credentials("nats-u.json", "{\"url\": \"nats://127.0.0.1:1\"}"));
        env.put("MESH_GENESIS_FILE", bad.toString());

        CommandRun run = Cli.run(env, "serve");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines().toList()).hasSize(2).first().asString()
                .isEqualTo(bad + ":1:45: /assignments: \"assignments\" of the mesh file must be an array […], but it "
                        + "is an object");
        assertThat(run.err().lines().toList().getLast()).isEqualTo("mesh-controller: MESH_GENESIS_FILE=" + bad
                + " has 1 problem; nothing was started: write it again with mesh-controller genesis, or unset "
                + "MESH_GENESIS_FILE");
        assertThat(run.out()).isEmpty();
    }

    private static String credentials(String name, String json) throws IOException {
        Path file = Files.writeString(dir.resolve(name), json);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file.toString();
    }

    private static String write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }
}
