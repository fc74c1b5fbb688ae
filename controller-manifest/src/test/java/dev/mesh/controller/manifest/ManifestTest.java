package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestTest {

    static final String STORE = """
            {
              "$schema": "../docs/manifest.schema.json",
              "module": "mesh-store",
              "version": "16.4-1",
              "claims": [{"name": "mesh-store", "scope": "mesh"}],
              "accesses": [{"path": "${secret:superuser}", "mode": "read"}],
              "own-secrets": {"superuser": "${dir:secrets}/superuser.json"},
              "secrets-owner": "postgres",
              "prepares": true,
              "tools": ["backup"],
              "resources": [
                {"id": "postgres", "type": "user", "name": "postgres", "home": "/var/lib/postgresql"},
                {"id": "data", "type": "directory", "mode": "0700", "owner": "postgres"},
                {"id": "secrets", "type": "directory", "mode": "0750", "place": "mesh", "owner": "root"},
                {"id": "server", "type": "process", "name": "postgres", "artifact": "server", "user": "postgres",
                 "run": ["./bin/postgres", "-D", "${dir:data}", "-c", "cluster_name=${node:name}"],
                 "env": {"PGDATA": "${dir:data}", "BUS": "${seat:mesh-bus:4222}"},
                 "replaces": ["postgres"]},
                {"id": "legacy", "type": "container", "name": "postgres", "image": "postgres:15",
                 "mounts": [{"source": "/srv/pg", "target": "/var/lib/postgresql/data", "mode": "write"}]}
              ],
              "build": {"artifacts": [{"name": "server", "kind": "bundle", "language": "c",
                                       "system": "debian-12", "from": "server", "binary": "postgres"}]}
            }
            """;

    @Test
    void parse_fullManifest_buildsTheModel() {
        Manifest manifest = Manifest.parse(STORE);

        assertThat(manifest.module()).isEqualTo("mesh-store");
        assertThat(manifest.slug()).isEqualTo("mesh-store");
        assertThat(manifest.prepares()).isTrue();
        assertThat(manifest.claims()).extracting(Claim::name, Claim::scope).containsExactly(
                org.assertj.core.groups.Tuple.tuple("mesh-store", Scope.MESH));
        assertThat(manifest.ownSecrets()).containsOnlyKeys("superuser");
        assertThat(manifest.secretsOwner()).isEqualTo("postgres");
        assertThat(manifest.resources()).extracting(Resource::id)
                .containsExactly("postgres", "data", "secrets", "server", "legacy");
        assertThat(manifest.directory("secrets")).get().extracting(Resource.Directory::place).isEqualTo(Place.MESH);
        assertThat(manifest.directory("data")).get().extracting(Resource.Directory::place).isEqualTo(Place.MODULE);
        Resource.Process server = manifest.resources(Resource.Process.class).getFirst();
        assertThat(server.run()).extracting(Template::text)
                .containsExactly("./bin/postgres", "-D", "${dir:data}", "-c", "cluster_name=${node:name}");
        assertThat(server.env()).containsOnlyKeys("PGDATA", "BUS");
        assertThat(server.replaces()).containsExactly("postgres");
        assertThat(manifest.resources(Resource.Container.class).getFirst().mounts())
                .extracting(mount -> mount.source().text(), Mount::target, Mount::mode)
                .containsExactly(tuple("/srv/pg", "/var/lib/postgresql/data", AccessMode.WRITE));
        assertThat(manifest.artifact("server")).get().extracting(Artifact::system).isEqualTo("debian-12");
        assertThat(manifest.requirements()).containsExactly("mesh-bus");
    }

    @Test
    void parse_template_keepsTypedReferencesWithTheirColumns() {
        Manifest manifest = Manifest.parse(STORE);
        Template run = manifest.resources(Resource.Process.class).getFirst().run().get(4);

        assertThat(run.segments()).containsExactly(new Segment.Literal("cluster_name="),
                new Reference.NodeFact(Reference.NodeFactName.NAME, 14));
        assertThat(run.location().pointer()).isEqualTo("/resources/3/run/4");
        assertThat(run.locationOf(run.references().getFirst()).column())
                .isEqualTo(run.location().column() + 14);
    }

    @Test
    void parse_templateInNonTemplateField_pointsAtTheField() {
        String json = STORE.replace("\"postgres:15\"", "\"postgres:${module:version}\"");

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("template-not-allowed");
            assertThat(p.location().pointer()).isEqualTo("/resources/4/image");
        });
    }

    @Test
    void parse_secretsOwnerUndeclared_suggestsTheDeclaredUser() {
        String json = STORE.replace("\"secrets-owner\": \"postgres\"", "\"secrets-owner\": \"postgre\"");

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("unknown-user");
            assertThat(p.location().pointer()).isEqualTo("/secrets-owner");
            assertThat(p.hint()).isEqualTo("did you mean \"postgres\"?");
        });
    }

    @Test
    void parse_dirReferenceToAUser_saysItIsNotADirectory() {
        String json = STORE.replace("\"PGDATA\": \"${dir:data}\"", "\"PGDATA\": \"${dir:postgres}\"");

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("template-unknown-dir");
            assertThat(p.location().pointer()).isEqualTo("/resources/3/env/PGDATA");
            assertThat(p.message()).contains("the resource \"postgres\" is a user, not a directory");
        });
    }

    @Test
    void parse_unknownFieldInEveryObject_isReportedWithItsPointer() {
        String json = STORE.replace("\"mode\": \"read\"}", "\"mode\": \"read\", \"recursive\": true}")
                .replace("\"scope\": \"mesh\"}", "\"scope\": \"mesh\", \"port\": 1}")
                .replace("\"binary\": \"postgres\"}", "\"binary\": \"postgres\", \"args\": []}");

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json));

        assertThat(thrown.problems()).extracting(Problem::code).containsOnly("unknown-field");
        assertThat(thrown.problems()).extracting(p -> p.location().pointer())
                .containsExactly("/claims/0/port", "/accesses/0/recursive", "/build/artifacts/0/args");
    }

    @Test
    void parse_rootNotAnObject_isWrongType() {
        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse("[1, 2]"));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("wrong-type");
            assertThat(p.message()).isEqualTo("a manifest must be an object {…}, but it is an array");
        });
    }

    @Test
    void parse_emptyAndTrailingContent_areSyntaxProblems() {
        assertThat(catchThrowableOfType(ManifestException.class, () -> Manifest.parse("  ")).problems())
                .extracting(Problem::code).containsExactly("json-syntax");
        assertThat(catchThrowableOfType(ManifestException.class,
                () -> Manifest.parse("{\"module\": \"a\", \"version\": \"1\"} {}")).problems())
                .extracting(Problem::code, p -> p.location().column())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("json-syntax", 33));
    }

    @Test
    void parse_minimalManifest_defaultsTheOptionalParts() {
        Manifest manifest = Manifest.parse("{\"module\": \"tiny\", \"version\": \"1\"}");

        assertThat(manifest).isEqualTo(new Manifest("tiny", "1", "tiny", List.of(), List.of(), java.util.Map.of(),
                null, false, List.of(), List.of(), List.of()));
    }

    @Test
    void parse_nonAsciiText_countsColumnsInCharacters() {
        byte[] json = "{\"module\": \"a\", \"slug\": \"\u20ac\u20ac\", \"version\": 1}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json, "m.json"));

        assertThat(thrown.problems()).extracting(Problem::code, p -> p.location().column()).containsExactly(
                org.assertj.core.groups.Tuple.tuple("invalid-format", 25),
                org.assertj.core.groups.Tuple.tuple("wrong-type", 42));
    }

    @Test
    void parse_malformedUtf8_isASyntaxProblemAtItsPosition() {
        byte[] json = {'{', '\n', ' ', '"', 'a', (byte) 0xC3, '"', ':', '1', '}'};

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json, "m.json"));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("json-syntax");
            assertThat(p.location()).isEqualTo(new Location("m.json", "", 2, 4));
            assertThat(p.message()).isEqualTo("the file is not UTF-8: byte 5 starts a malformed sequence; save the "
                    + "file as UTF-8");
        });
    }

    @Test
    void parse_byteOrderMark_isIgnored() {
        byte[] json = "\uFEFF{\"module\": \"a\", \"version\": \"1\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        assertThat(Manifest.parse(json, "bom.json").module()).isEqualTo("a");
    }

    @Test
    void parse_absurdNesting_isASyntaxProblemWithAPosition() {
        String json = "{\"module\": " + "[".repeat(5000) + "]".repeat(5000) + "}";

        ManifestException thrown = catchThrowableOfType(ManifestException.class, () -> Manifest.parse(json));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("json-syntax");
            assertThat(p.location().line()).isEqualTo(1);
            assertThat(p.location().column()).isGreaterThan(500);
            assertThat(p.message()).isEqualTo("the JSON nests deeper than 500 levels; a manifest is a few levels "
                    + "deep and small, so this is not a manifest");
        });
    }

    @Test
    void parse_longModuleNameWithoutSlug_needsASlug() {
        String module = "m" + "-x".repeat(20);

        ManifestException thrown = catchThrowableOfType(ManifestException.class,
                () -> Manifest.parse("{\"module\": \"" + module + "\", \"version\": \"1\"}"));

        assertThat(thrown.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("missing-field");
            assertThat(p.location().pointer()).isEmpty();
        });
        assertThat(Manifest.parse("{\"module\": \"" + module + "\", \"slug\": \"m\", \"version\": \"1\"}").slug())
                .isEqualTo("m");
    }

    @Test
    void check_referenceInTheOldAngleForm_isAWarningAtItsDollar_andTheManifestStaysValid() {
        String json = """
                {"module": "a", "version": "1",
                 "resources": [{"id": "data", "type": "directory", "mode": "0700", "owner": "root"},
                  {"id": "c", "type": "container", "name": "c", "image": "i", "env": {"DATA": "$<dir:data>"}}]}
                """;

        Manifest.Checked checked = Manifest.check(json.getBytes(StandardCharsets.UTF_8), "old.json");

        assertThat(checked.warnings()).singleElement().satisfies(warning -> {
            assertThat(warning.code()).isEqualTo("template-angle-reference");
            assertThat(warning.severity()).isEqualTo(Severity.WARNING);
            assertThat(warning.location()).isEqualTo(new Location("old.json", "/resources/1/env/DATA", 3, 80));
            assertThat(warning.hint()).isEqualTo("did you mean \"${dir:data}\"?");
        });
        Resource.Container container = checked.manifest().resources(Resource.Container.class).getFirst();
        assertThat(container.env().get("DATA").isLiteral()).isTrue();
        assertThat(Manifest.parse(json.getBytes(StandardCharsets.UTF_8), "old.json")).isEqualTo(checked.manifest());
    }

    @Test
    void check_oldAngleFormBesideAnError_isInTheException_whoseMessageIsTheError() {
        String json = """
                {"module": "a", "version": "1", "accesses": [{"path": "$<dir:data>/log", "mode": "read"}],
                 "resources": [{"id": "data", "type": "directory", "mode": "0700", "owner": "root"}]}
                """;

        ManifestException thrown = catchThrowableOfType(ManifestException.class,
                () -> Manifest.check(json.getBytes(StandardCharsets.UTF_8), "old.json"));

        assertThat(thrown.problems()).extracting(Problem::code, Problem::severity).containsExactly(
                tuple("invalid-path", Severity.ERROR), tuple("template-angle-reference", Severity.WARNING));
        assertThat(thrown.getMessage()).contains("access path must be an absolute path");
    }
}
