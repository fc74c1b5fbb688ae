package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456Z");
    private static final HostSettings HOST = HostSettings.of("n1", "10.0.0.1", "debian-12",
            new BrokerSettings("127.0.0.1", 5672, "/", "n1", "n1"), NatsSettings.of("nats://127.0.0.1:4222"), "guest");

    @Test
    void facts_beforeAnyRevision_isTheWholeMessage_withNullRevision() {
        assertThat(text(Wire.facts(HOST, null, List.of(), T0))).isEqualTo("{\"node\":\"n1\",\"address\":\"10.0.0.1\","
                + "\"system\":\"debian-12\",\"revision\":null,\"processes\":[],\"at\":\"2026-12-01T10:00:00.123Z\"}");
    }

    @Test
    void facts_withProcesses_listsThemInOrder() {
        byte[] facts = Wire.facts(HOST, "sha256:r1", List.of(new HostProcess("mesh-store", "running",
                Instant.parse("2026-12-01T09:59:00Z"), 3), new HostProcess("mesh-host", "starting", T0, 0)), T0);

        assertThat(text(facts)).isEqualTo("{\"node\":\"n1\",\"address\":\"10.0.0.1\",\"system\":\"debian-12\","
                + "\"revision\":\"sha256:r1\",\"processes\":[{\"name\":\"mesh-store\",\"state\":\"running\","
                + "\"since\":\"2026-12-01T09:59:00Z\",\"checks\":3},{\"name\":\"mesh-host\",\"state\":\"starting\","
                + "\"since\":\"2026-12-01T10:00:00.123Z\",\"checks\":0}],\"at\":\"2026-12-01T10:00:00.123Z\"}");
    }

    @Test
    void hostReport_failing_failsTheFirstStepOnly() {
        byte[] report = Wire.hostReport("failed", "n1", "sha256:r1", Wire.steps("n1", List.of("a", "b"), true), T0);

        assertThat(text(report)).isEqualTo("{\"kind\":\"failed\",\"node\":\"n1\",\"revision\":\"sha256:r1\",\"steps\":["
                + "{\"id\":\"n1/process:a\",\"status\":\"failed\",\"detail\":\"simulated failure\"},"
                + "{\"id\":\"n1/process:b\",\"status\":\"done\",\"detail\":\"\"}],\"at\":\"2026-12-01T10:00:00.123Z\"}");
    }

    @Test
    void steps_failingWithoutProcesses_failsTheDeclarationStep() {
        assertThat(Wire.steps("n1", List.of(), true)).containsExactly(
                new Wire.Step("n1/declaration", "failed", "simulated failure"));
        assertThat(Wire.steps("n1", List.of(), false)).isEmpty();
    }

    @Test
    void buildReport_isTheWholeMessage_namingTheArchiveOfASuccess() {
        Archive archive = Archive.simulated("build:m@1/a");
        assertThat(text(Wire.buildReport("build:m@1/a", "succeeded", "", archive, T0))).isEqualTo("{\"kind\":\"build\","
                + "\"build\":\"build:m@1/a\",\"status\":\"succeeded\",\"detail\":\"\",\"sha256\":\""
                + archive.sha256() + "\",\"location\":\"urn:mesh-simhost:build:m@1/a\","
                + "\"at\":\"2026-12-01T10:00:00.123Z\"}");
        assertThat(text(Wire.buildReport("build:m@1/a", "failed", "exit 1", null, T0))).isEqualTo("{\"kind\":\"build\","
                + "\"build\":\"build:m@1/a\",\"status\":\"failed\",\"detail\":\"exit 1\","
                + "\"at\":\"2026-12-01T10:00:00.123Z\"}");
    }

    @Test
    void declaration_readsEachProcessAsDeclared_forAHostThatRunsItForReal() {
        Wire.Declaration declaration = Wire.declaration(bytes("{\"node\": \"n1\", \"revision\": \"sha256:r\", \"processes\": "
                + "[{\"module\": \"mesh-controller\", \"name\": \"mesh-controller\", \"artifact\": {\"module\": "
                + "\"mesh-controller\", \"version\": \"2\", \"name\": \"controller\", \"system\": \"debian-12\", "
                + "\"sha256\": \"ab\", \"location\": \"file:///b.tar.gz\"}, \"run\": [\"./mesh-controller\", \"serve\"], "
                + "\"env\": {\"A\": \"1\"}, \"user\": \"mesh-controller\", \"overlap\": true, \"replaces\": [\"server\"], "
                + "\"prepare\": {\"run\": [\"./mesh-controller\", \"prepare\"], \"user\": \"mesh-controller\", "
                + "\"env\": {\"A\": \"1\"}}}, {\"name\": \"plain\", \"artifact\": {}, \"prepare\": null}]}"), null);

        assertThat(declaration.declared()).containsExactly(
                new Wire.Process("mesh-controller", "mesh-controller", new Wire.Artifact("mesh-controller", "2",
                        "controller", "ab", "file:///b.tar.gz"), List.of("./mesh-controller", "serve"), Map.of("A", "1"),
                        "mesh-controller", true, List.of("server"), new Wire.Preparation(List.of("./mesh-controller",
                        "prepare"), "mesh-controller", Map.of("A", "1"))),
                new Wire.Process("", "plain", new Wire.Artifact("", "", "", null, null), List.of(), Map.of(), "", false,
                        List.of(), null));
    }

    @Test
    void declaration_takesTheHeadersRevision_andTheProcessNames_ignoringUnknownFields() {
        Wire.Declaration declaration = Wire.declaration(bytes("{\"node\": \"n1\", \"revision\": \"sha256:body\","
                + " \"processes\": [{\"name\": \"a\", \"run\": []}, {\"name\": \"b\"}], \"extra\": 1}"), "sha256:header");

        assertThat(declaration).extracting(Wire.Declaration::node, Wire.Declaration::revision,
                Wire.Declaration::processes).containsExactly("n1", "sha256:header", List.of("a", "b"));
        assertThat(Wire.declaration(bytes("{\"node\": \"n1\", \"revision\": \"sha256:body\", \"processes\": []}"), null)
                .revision()).isEqualTo("sha256:body");
    }

    @Test
    void declaration_unreadable_saysWhy() {
        assertThatThrownBy(() -> Wire.declaration(bytes("[]"), "r")).hasMessage("the body is not a JSON object");
        assertThatThrownBy(() -> Wire.declaration(bytes("{\"processes\": []}"), "r"))
                .hasMessage("node is missing, empty or not a string");
        assertThatThrownBy(() -> Wire.declaration(bytes("{\"node\": \"n1\", \"processes\": []}"), null))
                .hasMessage("revision is missing, empty or not a string");
        assertThatThrownBy(() -> Wire.declaration(bytes("{\"node\": \"n1\", \"processes\": {}}"), "r"))
                .hasMessage("processes is not an array");
        assertThatThrownBy(() -> Wire.declaration(bytes("{\"node\": \"n1\", \"processes\": [{\"name\": \"a\"},"
                + " {\"name\": \"a\"}]}"), "r")).hasMessage("process a is declared twice");
        assertThatThrownBy(() -> Wire.declaration(bytes("{nope"), "r")).hasMessageStartingWith("the body is not JSON (");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
