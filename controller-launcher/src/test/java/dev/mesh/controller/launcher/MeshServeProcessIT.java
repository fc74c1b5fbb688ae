package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.simhost.HostSettings;
import dev.mesh.controller.simhost.NatsSettings;
import dev.mesh.controller.simhost.SimulatedBuilder;
import dev.mesh.controller.simhost.SimulatedHost;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.TestDatabases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Done-when check with the bundle as a process: {@code mesh-controller serve} (no
 * {@code --dev}) from the environment its manifest gives it, on the local PostgreSQL (databases migrated
 * first), RabbitMQ and NATS; a client in Python ({@code tools/mesh-call.py}, pika) calls the verbs over
 * the broker; one simulated host gets its declaration; SIGTERM ends it with exit 0 (the planned release)
 * and the plan lock free. One test, since each costs a JVM start.
 */
class MeshServeProcessIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** One process, whose artifact the simulated builder builds. */
    private static final String MODULE = "{\"module\": \"tiny\", \"version\": \"1.0.0\", \"resources\": [{\"id\": "
            + "\"app\", \"type\": \"process\", \"name\": \"tiny\", \"artifact\": \"tiny\", \"run\": [\"./tiny\"], "
            + "\"user\": \"root\"}], \"build\": {\"artifacts\": [{\"name\": \"tiny\", \"kind\": \"bundle\", "
            + "\"language\": \"go\", \"system\": \"debian-12\", \"from\": \"tiny\", \"binary\": \"tiny\"}]}}";

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void environment() {
        mesh = MeshEnvironment.create(databases, dir, "n1");
        mesh.grantEveryVerb("guest");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
        mesh.close();
    }

    @Test
    void serve_asAProcess_answersPython_deliversToAHost_sigtermExits0_andFreesTheLock() throws Exception {
        Path classes = dir.resolve("classes.txt");
        Map<String, String> env = new HashMap<>(mesh.env());
        env.put("MESH_CONTROLLER_JAVA_OPTS", "-Xlog:class+load=info:file=" + classes);
        Path ready = dir.resolve("serve.ready");
        env.put("MESH_READY_FILE", ready.toString());
        ServeProcess serve = ServeProcess.startMesh(env, dir);
        opened.add(serve);
        assertThat(ready).as("MESH_READY_FILE, written once serve consumes its queues").content()
                .startsWith("mesh-controller ready");
        assertThat(classes).as("serve alone, the host's command line, runs without picocli (ServeCommand.direct)")
                .content().contains("dev.mesh.controller.launcher.ServeCommand ")
                .doesNotContain("picocli.CommandLine source").doesNotContain("picocli.CommandLine$Model");
        assertThat(serve.role()).as(serve.err()).isEqualTo("active");
        assertThat(serve.epoch()).isPositive();
        assertThat(serve.instance()).endsWith(":" + serve.process.pid());
        assertThat(advisoryLocks()).as("the plan lock, held by serve").isEqualTo(1);

        String node = mesh.node("n1");
        opened.add(SimulatedBuilder.open("debian-12", mesh.simhostBroker("guest")));
        SimulatedHost host = SimulatedHost.open(HostSettings.of(node, "10.0.0.1", "debian-12",
                mesh.simhostBroker(node), NatsSettings.of(MeshEnvironment.NATS_URL), "guest")
                .withFactsInterval(Duration.ofMillis(300)).withApplyTime(Duration.ofMillis(100)));
        opened.add(host);

        assertSucceeds(python("push", JSON.writeValueAsString(java.util.Map.of("manifest", MODULE))));
        await("the host's facts", () -> !python("node", "{\"name\": \"" + node + "\"}").path("isError").asBoolean());
        assertSucceeds(python("assign", "{\"module\": \"tiny\", \"node\": \"" + node + "\"}"));
        // The target read once nothing is left to do: before the build's report it is the declaration without the
        // artifact's digest, which is never delivered (docs/execution.md).
        await("no changes left", () -> python("plan", "{}").at("/structuredContent/plan/changes").isEmpty());
        String target = python("node", "{\"name\": \"" + node + "\"}").at("/structuredContent/rollout/target")
                .asString();
        assertThat(target).startsWith("sha256:");
        assertThat(host.awaitApplied(target, PATIENCE)).as("the host applied " + target + "; serve's log:\n"
                + serve.err()).isTrue();
        JsonNode status = python("status", "{}");
        assertThat(status.at("/structuredContent/role").asString()).isEqualTo("active");

        int exit = serve.stop();

        assertThat(exit).as(serve.err()).isZero();
        assertThat(advisoryLocks()).as("the plan lock after SIGTERM").isZero();
        assertThat(serve.err()).contains("plan lock released");
    }

    /**
     * Calls a verb with {@code tools/mesh-call.py} as {@code guest}.
     *
     * @return the JSON-RPC {@code result}
     */
    private JsonNode python(String verb, String arguments) {
        try {
            Process python = new ProcessBuilder("/usr/bin/python3", "../tools/mesh-call.py", "--vhost", mesh.vhost(),
                    verb, arguments).redirectErrorStream(true).start();
            if (!python.waitFor(30, TimeUnit.SECONDS)) {
                python.destroyForcibly();
                throw new AssertionError("mesh-call.py " + verb + " did not end in 30 s");
            }
            String answer = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(python.exitValue()).as("mesh-call.py " + verb + ": " + answer).isZero();
            JsonNode response = JSON.readTree(answer);
            assertThat(response.at("/_headers/epoch").asLong()).as("the reply's epoch header").isPositive();
            return response.path("result");
        } catch (IOException e) {
            throw new AssertionError("cannot run tools/mesh-call.py (python3 and python3-pika: bin/services)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** @return how many advisory locks are held on the controller's inventory database */
    private long advisoryLocks() throws SQLException {
        try (Connection connection = mesh.endpoint(Database.INVENTORY).dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("select count(*) from pg_locks where locktype = 'advisory' "
                        + "and granted and database = (select oid from pg_database where datname = current_database())")) {
            count.next();
            return count.getLong(1);
        }
    }

    private static void assertSucceeds(JsonNode result) {
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(300)).until(done::getAsBoolean);
    }
}
