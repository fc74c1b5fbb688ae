package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Artifact;
import dev.mesh.controller.manifest.Location;
import java.util.List;
import java.util.Map;

/** Reads the {@code build} object: the artifacts the module's build produces. */
final class BuildReader {

    private static final List<String> BUILD = List.of("artifacts");
    private static final List<String> ARTIFACT = List.of("name", "kind", "language", "system", "from", "binary");
    private static final Map<String, String> KINDS = ResourceReader.words("bundle");

    private final Checks checks;
    private final Fields fields;
    private final Declared declared;

    BuildReader(Checks checks, Fields fields, Declared declared) {
        this.checks = checks;
        this.fields = fields;
        this.declared = declared;
    }

    List<Artifact> read(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "\"build\"");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "\"build\"", BUILD);
        Json list = Fields.value(object, "artifacts");
        checks.present(list, object, pointer, "artifacts", true, "\"build\"", "the list of artifacts the build produces");
        List<Artifact> artifacts = fields.list(list, pointer, "artifacts", "\"build\"", "artifact", this::artifact);
        checks.unique("artifact", list, pointer, "artifacts", "name");
        return artifacts;
    }

    private Artifact artifact(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "an artifact");
        if (object == null) {
            return null;
        }
        int before = checks.count();
        checks.onlyKnown(object, pointer, "an artifact", ARTIFACT);
        String what = "this artifact";
        String name = fields.matching(Fields.value(object, "name"), object, pointer, "name", true, what,
                "artifact name", Patterns.NAME, Patterns.NAME_RULE);
        Location at = checks.at(object, pointer);
        if (name != null) {
            declared.artifacts.putIfAbsent(name, at);
        }
        String kind = fields.word(Fields.value(object, "kind"), object, pointer, "kind", true, what, "artifact kind",
                KINDS);
        String language = fields.matching(Fields.value(object, "language"), object, pointer, "language", true, what,
                "language", Patterns.LANGUAGE, Patterns.LANGUAGE_RULE);
        String system = fields.matching(Fields.value(object, "system"), object, pointer, "system", true, what,
                "system", Patterns.SYSTEM, Patterns.SYSTEM_RULE);
        // Fields.string: a valid value, as nearly all are, needs no pointer.
        String from = fields.string(Fields.value(object, "from"), object, pointer, "from", true, what,
                "the source directory relative to the module", Checks::isRelativePath,
                (n, p) -> checks.relativePath(n, p, "\"from\""));
        String binary = fields.string(Fields.value(object, "binary"), object, pointer, "binary", true, what,
                "the executable's file name", Checks::isFileName, (n, p) -> checks.fileName(n, p, "\"binary\""));
        return checks.count() == before
                ? new Artifact(name, kind, language, system, from, binary, at) : null;
    }
}
