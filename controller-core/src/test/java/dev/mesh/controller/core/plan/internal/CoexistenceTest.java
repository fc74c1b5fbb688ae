package dev.mesh.controller.core.plan.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Plan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a process and the container it replaces can run side by side, and why not. */
class CoexistenceTest {

    private static final Declaration.Artifact ARTIFACT = Declaration.Artifact.unbuilt("broker", "1", "rabbitmq", "debian-12");
    private static final Declaration.Directory DATA = new Declaration.Directory("broker", "data",
            "/var/lib/mesh/modules/broker/data", "0700", "rabbitmq");

    private static Declaration.Process process(List<String> run, Map<String, String> env) {
        return new Declaration.Process("broker", "broker", ARTIFACT, run, "rabbitmq", env, List.of("rabbitmq"), false, null);
    }

    private static Declaration.Container container(String network, Map<String, String> env,
            List<Declaration.Mount> mounts, List<String> run) {
        return new Declaration.Container("broker", "rabbitmq", "rabbitmq:3.13", "", env, mounts, network, run);
    }

    private static Declaration with(Declaration.Container container) {
        return new Declaration("beta", "", List.of(), List.of(DATA), List.of(), List.of(), List.of(),
                container == null ? List.of() : List.of(container), List.of(), List.of());
    }

    private static final Declaration.Process SERVER = process(List.of("./broker", "serve"),
            Map.of("AMQP_PORT", "5671", "DATA", "/var/lib/mesh/modules/broker/data/mnesia"));

    @Test
    void clash_sameName_cannotOverlap() {
        Declaration.Process named = new Declaration.Process("broker", "rabbitmq", ARTIFACT, List.of("./x"), "u",
                Map.of(), List.of("rabbitmq"), false, null);

        assertThat(Coexistence.clash(named, "rabbitmq", with(null))).contains("of the same name");
    }

    @Test
    void clash_undescribedContainer_isJudgedByNameOnly() {
        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(null), null)).isEmpty();
    }

    @Test
    void clash_publishedHostPortTheProcessUses_cannotOverlap() {
        Declaration.Container old = container("", Map.of(), List.of(),
                List.of("--publish", "127.0.0.1:5671:5672/tcp", "-p=15672:15672"));

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(null), with(old)))
                .contains("that also listens on port 5671");
    }

    @Test
    void clash_hostNetworkPortVariable_cannotOverlap() {
        Declaration.Container old = container("host", Map.of("RABBITMQ_NODE_PORT", "5671"), List.of(), List.of());

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(old))).contains("that also listens on port 5671");
    }

    @Test
    void clash_portVariableWithoutHostNetwork_isNotPublished() {
        Declaration.Container old = container("", Map.of("RABBITMQ_NODE_PORT", "5671"), List.of(), List.of());

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(old))).isEmpty();
    }

    @Test
    void clash_containerWritesTheModulesDirectory_cannotOverlap() {
        Declaration.Container old = container("", Map.of(), List.of(new Declaration.Mount(
                "/var/lib/mesh/modules/broker", "/var/lib/rabbitmq", "write")), List.of());

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(old)))
                .contains("that also writes /var/lib/mesh/modules/broker");
    }

    @Test
    void clash_containerReadsASharedPath_canOverlap() {
        Declaration.Container old = container("", Map.of(), List.of(new Declaration.Mount(
                "/var/lib/mesh/modules/broker/data", "/data", "read")), List.of());

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(old))).isEmpty();
    }

    @Test
    void clash_pathOnlyPrefixAsText_isNotBelow() {
        Declaration.Container old = container("", Map.of(), List.of(new Declaration.Mount(
                "/var/lib/mesh/modules/broker/data-old", "/data", "write")), List.of());

        assertThat(Coexistence.clash(SERVER, "rabbitmq", with(old))).isEmpty();
    }

    @Test
    void clash_processPortArgument_isAPort() {
        Declaration.Process flagged = process(List.of("./broker", "--port=15672"), Map.of());
        Declaration.Container old = container("", Map.of(), List.of(), List.of("-p", "15672:15672"));

        assertThat(Coexistence.clash(flagged, "rabbitmq", with(old))).contains("that also listens on port 15672");
    }

    @Test
    void plan_processReplacingAContainerTheNodeRanThatWritesItsData_isAGap() {
        Declaration.Container old = container("", Map.of(), List.of(new Declaration.Mount(
                "/var/lib/mesh/modules/broker/data", "/var/lib/rabbitmq", "write")), List.of());
        Declaration before = with(old);
        Declaration after = new Declaration("beta", "", List.of(), List.of(DATA), List.of(), List.of(),
                List.of(SERVER), List.of(), List.of(), List.of());

        List<Plan.Change> changes = NodeChanges.of(before, after).changes();

        assertThat(changes).filteredOn(c -> c.id().equals("beta/process:broker")).singleElement().satisfies(c -> {
            assertThat(c.actions()).containsExactly("start", "gap");
            assertThat(c.reason()).endsWith("; replaces container rabbitmq that also writes "
                    + "/var/lib/mesh/modules/broker/data: downtime expected");
        });
        assertThat(changes).filteredOn(c -> c.id().equals("beta/container:rabbitmq")).singleElement()
                .satisfies(c -> assertThat(c.requires()).containsExactly("beta/process:broker#healthy"));
    }
}
