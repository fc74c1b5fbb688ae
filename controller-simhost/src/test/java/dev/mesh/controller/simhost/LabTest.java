package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabTest {

    private static final List<String> BASE = List.of("--nodes", "n1,n2,n3", "--broker", "127.0.0.1:5672", "--vhost", "/",
            "--nats", "nats://127.0.0.1:4222");

    @Test
    void parse_nodes_eachConnectsAsItsOwnUser_withDefaults() {
        Lab.Plan plan = Lab.parse(BASE);

        assertThat(plan.hosts()).extracting(HostSettings::node).containsExactly("n1", "n2", "n3");
        assertThat(plan.hosts()).extracting(h -> h.broker().user()).containsExactly("n1", "n2", "n3");
        assertThat(plan.hosts()).extracting(h -> h.broker().password()).containsExactly("n1", "n2", "n3");
        assertThat(plan.hosts()).extracting(HostSettings::address).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3");
        HostSettings first = plan.hosts().getFirst();
        assertThat(first.broker().where()).isEqualTo("n1@127.0.0.1:5672//");
        assertThat(first.nats()).isEqualTo(NatsSettings.of("nats://127.0.0.1:4222"));
        assertThat(first.factsInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(first.applyTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(first.system()).isEqualTo("debian-12");
        assertThat(plan.builders()).isEmpty();
    }

    @Test
    void parse_userAndOptions_applyToEveryHost_andBuilders() {
        Lab.Plan plan = Lab.parse(concat(BASE, "--user", "lab", "--password", "secret", "--interval", "200ms",
                "--apply", "PT2S", "--prefix", "lab.", "--system", "arch", "--builders", "arch,debian-12",
                "--builder-user", "builder", "--builder-password", "b"));

        assertThat(plan.hosts()).extracting(h -> h.broker().user()).containsOnly("lab");
        assertThat(plan.hosts()).extracting(h -> h.broker().password()).containsOnly("secret");
        assertThat(plan.hosts().getFirst().factsInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(plan.hosts().getFirst().checkInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(plan.hosts().getFirst().applyTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(plan.hosts().getFirst().nats().subjectPrefix()).isEqualTo("lab.");
        assertThat(plan.builders()).containsExactly("arch", "debian-12");
        assertThat(plan.builderBroker().user()).isEqualTo("builder");
    }

    @Test
    void parse_busCredentials_eachHostConnectsToNatsAsItsOwnBusUser(@TempDir Path dir) throws Exception {
        for (String node : List.of("n1", "n2", "n3")) {
            Files.writeString(dir.resolve(node + ".json"), "{\"user\": \"" + node + "\", \"password\": \"pw-" + node
                    + "\"}");
        }
        Lab.Plan plan = Lab.parse(concat(BASE, "--bus-credentials", dir.toString()));

        assertThat(plan.hosts()).extracting(h -> h.nats().user()).containsExactly("n1", "n2", "n3");
        assertThat(plan.hosts()).extracting(h -> h.nats().password()).containsExactly("pw-n1", "pw-n2", "pw-n3");
        assertThat(plan.hosts().getFirst().nats().toString()).doesNotContain("pw-n1");

        Files.delete(dir.resolve("n2.json"));
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--bus-credentials", dir.toString())))
                .hasMessageStartingWith("--bus-credentials: cannot read " + dir.resolve("n2.json"));
        Files.writeString(dir.resolve("n2.json"), "{\"user\": \"n2\"}");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--bus-credentials", dir.toString())))
                .hasMessage("--bus-credentials: " + dir.resolve("n2.json") + " has no \"user\" and \"password\"; "
                        + "it should be the file genesis wrote for n2");
    }

    @Test
    void parse_mistakes_sayWhichFlagAndValue() {
        assertThatThrownBy(() -> Lab.parse(List.of("--nodes"))).hasMessage("--nodes needs a value");
        assertThatThrownBy(() -> Lab.parse(List.of("--vhost", "/"))).hasMessage("--nodes is missing");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--nodes", "n4"))).hasMessage("--nodes is given twice");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--verbose", "yes"))).hasMessage("unknown argument \"--verbose\"");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--interval", "soon")))
                .hasMessage("--interval: \"soon\" is not a duration such as 200ms, 5s or PT5S");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--user", "lab"))).hasMessage("--user lab needs --password");
        assertThatThrownBy(() -> Lab.parse(concat(BASE, "--builders", "arch")))
                .hasMessage("--builder-user is missing");
        assertThatThrownBy(() -> Lab.parse(List.of("--nodes", "n1,,n2", "--broker", "h:1", "--vhost", "/", "--nats",
                "nats://h:1"))).hasMessage("\"n1,,n2\" is not a list of distinct names separated by ','");
        assertThatThrownBy(() -> Lab.parse(List.of("--nodes", "N1", "--broker", "h:1", "--vhost", "/", "--nats",
                "nats://h:1"))).hasMessage("the node name \"N1\" is not 1 to 63 of a-z, 0-9 and -, starting with a letter or digit");
    }

    private static List<String> concat(List<String> base, String... more) {
        return java.util.stream.Stream.concat(base.stream(), java.util.Arrays.stream(more)).toList();
    }
}
