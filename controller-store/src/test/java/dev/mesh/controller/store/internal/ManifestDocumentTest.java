package dev.mesh.controller.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Template;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ManifestDocumentTest {

    /** Every field of the format, with maps whose document order is not sorted. */
    private static final String EVERYTHING = """
            {"module": "legacy-store", "version": "2.1.0+b3", "slug": "lstore",
             "claims": [{"name": "mesh-store", "scope": "mesh"}, {"name": "cache", "scope": "node"}],
             "accesses": [{"path": "/srv/${module:name}", "mode": "write"}],
             "own-secrets": {"zeta": "${dir:state}/zeta", "alpha": "/etc/ls/alpha"},
             "secrets-owner": "ls",
             "prepares": true,
             "tools": ["store-status"],
             "resources": [
               {"id": "ls", "type": "user", "name": "ls", "shell": "/bin/sh", "home": "/home/ls"},
               {"id": "plain", "type": "user", "name": "plain"},
               {"id": "state", "type": "directory", "mode": "0700", "place": "mesh", "owner": "ls"},
               {"id": "server", "type": "process", "name": "store", "artifact": "server",
                "run": ["./server", "--peer=${seat:mesh-broker:5672}", "--literal=$${not-a-ref}"], "user": "ls",
                "env": {"Z_LAST": "z", "A_FIRST": "${secret:zeta}"}, "replaces": ["old-store"]},
               {"id": "old", "type": "container", "name": "old-store", "image": "store:1", "user": "1000",
                "env": {"B": "b", "A": "a"}, "mounts": [{"source": "/srv/a", "target": "/a", "mode": "read"}],
                "network": "host", "run": ["serve"]},
               {"id": "bare", "type": "container", "name": "bare", "image": "bare:1"}
             ],
             "build": {"artifacts": [{"name": "server", "kind": "bundle", "language": "java",
               "system": "debian-12", "from": "server", "binary": "server"}]}}
            """;

    @Test
    void write_everyField_inTheFormatsOrder() {
        String written = ManifestDocument.write(Manifest.parse(EVERYTHING));

        assertThat(written).isEqualTo("{\"module\":\"legacy-store\",\"version\":\"2.1.0+b3\",\"slug\":\"lstore\","
                + "\"claims\":[{\"name\":\"mesh-store\",\"scope\":\"mesh\"},{\"name\":\"cache\",\"scope\":\"node\"}],"
                + "\"accesses\":[{\"path\":\"/srv/${module:name}\",\"mode\":\"write\"}],"
                + "\"own-secrets\":{\"zeta\":\"${dir:state}/zeta\",\"alpha\":\"/etc/ls/alpha\"},"
                + "\"secrets-owner\":\"ls\",\"prepares\":true,\"tools\":[\"store-status\"],\"resources\":["
                + "{\"id\":\"ls\",\"type\":\"user\",\"name\":\"ls\",\"shell\":\"/bin/sh\",\"home\":\"/home/ls\"},"
                + "{\"id\":\"plain\",\"type\":\"user\",\"name\":\"plain\"},"
                + "{\"id\":\"state\",\"type\":\"directory\",\"mode\":\"0700\",\"place\":\"mesh\",\"owner\":\"ls\"},"
                + "{\"id\":\"server\",\"type\":\"process\",\"name\":\"store\",\"artifact\":\"server\","
                + "\"run\":[\"./server\",\"--peer=${seat:mesh-broker:5672}\",\"--literal=$${not-a-ref}\"],"
                + "\"user\":\"ls\",\"env\":{\"Z_LAST\":\"z\",\"A_FIRST\":\"${secret:zeta}\"},"
                + "\"replaces\":[\"old-store\"]},"
                + "{\"id\":\"old\",\"type\":\"container\",\"name\":\"old-store\",\"image\":\"store:1\",\"user\":\"1000\","
                + "\"env\":{\"B\":\"b\",\"A\":\"a\"},\"mounts\":[{\"source\":\"/srv/a\",\"target\":\"/a\",\"mode\":\"read\"}],"
                + "\"network\":\"host\",\"run\":[\"serve\"]},"
                + "{\"id\":\"bare\",\"type\":\"container\",\"name\":\"bare\",\"image\":\"bare:1\"}],"
                + "\"build\":{\"artifacts\":[{\"name\":\"server\",\"kind\":\"bundle\",\"language\":\"java\","
                + "\"system\":\"debian-12\",\"from\":\"server\",\"binary\":\"server\"}]}}");
    }

    static Stream<Path> manifests() throws IOException {
        try (Stream<Path> examples = Files.list(Path.of("../examples/modules"))) {
            return Stream.concat(Stream.of(Path.of("../manifest.json")),
                    examples.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream());
        }
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void write_thenParse_givesTheSameManifest(Path path) {
        Manifest original = Manifest.read(path);

        Manifest back = Manifest.parse(ManifestDocument.write(original));

        // Equal but for locations, which now point into the written document.
        assertThat(ManifestDocument.write(back)).isEqualTo(ManifestDocument.write(original));
        assertThat(back.requirements()).isEqualTo(original.requirements());
        assertThat(texts(back.templates())).isEqualTo(texts(original.templates()));
        assertThat(back.ownSecrets().keySet()).containsExactlyElementsOf(original.ownSecrets().keySet());
        assertThat(back.resources()).extracting(r -> r.getClass().getSimpleName() + ":" + r.id())
                .containsExactlyElementsOf(original.resources().stream()
                        .map(r -> r.getClass().getSimpleName() + ":" + r.id()).toList());
    }

    private static List<String> texts(List<Template> templates) {
        return templates.stream().map(Template::text).toList();
    }
}
