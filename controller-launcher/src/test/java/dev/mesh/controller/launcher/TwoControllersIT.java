package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.store.TestDatabases;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two mesh controllers, each {@code serve} as a process of its own (so each has an instance of its own,
 * {@code host:pid}), on the same store and virtual host: docs/design.md section 10's life cycle through the
 * handover — exactly one is active, and after SIGTERM of that one (the planned release) the other is
 * active within a couple of seconds, which {@code status} over the broker tells with the new epoch and
 * the first as {@code previous}.
 */
class TwoControllersIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String STATUS = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", "
            + "\"params\": {\"name\": \"status\", \"arguments\": {}}}";

    @TempDir
    Path dir;

    private MeshEnvironment mesh;
    private ServeProcess first;
    private ServeProcess second;
    private BrokerUpstream caller;

    @BeforeEach
    void environment() {
        mesh = MeshEnvironment.create(databases, dir);
        mesh.grantEveryVerb("guest");
    }

    @AfterEach
    void stop() {
        if (caller != null) {
            caller.close();
        }
        for (ServeProcess serve : new ServeProcess[] {second, first}) {
            if (serve != null) {
                serve.close();
            }
        }
        mesh.close();
    }

    @Test
    void exactlyOneActive_andAfterSigtermOfItTheOtherIsActive_withTheNextEpoch_andTheFirstAsPrevious()
            throws Exception {
        first = ServeProcess.startMesh(mesh.env(), dir);
        // The second's ready line says standby once it is warm or its wait ends; the host's 1.5 s will do (the
        // longer wait ServeProcess gives is for a controller that must become active).
        Map<String, String> standby = new HashMap<>(mesh.env());
        standby.put("MESH_HANDOVER_READY_WAIT", "1500ms");
        second = ServeProcess.startMesh(standby, dir);
        assertThat(first.instance()).isNotEqualTo(second.instance());
        assertThat(first.role()).as("the first started, fed first: " + first.err()).isEqualTo("active");
        assertThat(second.role()).as("the second, a standby: " + second.err()).isEqualTo("standby");
        caller = BrokerUpstream.connect(mesh.config().broker().settings(mesh.config().certificate()), Duration.ofSeconds(20));

        JsonNode before = status();
        assertThat(before.path("role").asString()).isEqualTo("active");
        assertThat(before.path("instance").asString()).isEqualTo(first.instance());
        long epoch = before.path("epoch").asLong();
        Awaitility.await("the standby takes nothing").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(second.err()).doesNotContain("handover activated"));

        long stopping = System.nanoTime();
        int exit = first.stop();
        double stoppedMs = (System.nanoTime() - stopping) / 1e6;
        assertThat(exit).as(first.err()).isZero();
        assertThat(first.err()).contains("handover released");

        JsonNode after;
        try {
            after = Awaitility.await("the second active within 3 s of the first's exit")
                    .atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50)).until(this::status,
                            now -> now.path("instance").asString().equals(second.instance())
                                    && now.path("role").asString().equals("active"));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; its log:\n" + second.err(), e);
        }
        double takenMs = (System.nanoTime() - stopping) / 1e6;
        System.out.printf("TwoControllersIT: first exited %.0f ms after SIGTERM, second answered status as active "
                + "%.0f ms after SIGTERM%n", stoppedMs, takenMs);
        assertThat(after.path("epoch").asLong()).isGreaterThan(epoch);
        assertThat(after.path("previous").asString()).isEqualTo(first.instance());
        assertThat(second.err()).contains("handover activated");
    }

    /** @return {@code status}'s structured content, over the broker, from whichever controller the broker feeds */
    private JsonNode status() {
        JsonNode response = caller.exchange(JSON.readTree(STATUS)).orElseThrow();
        JsonNode result = response.path("result");
        assertThat(result.path("isError").asBoolean()).as(response.toString()).isFalse();
        return result.path("structuredContent");
    }
}
