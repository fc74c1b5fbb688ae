package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Reference;
import dev.mesh.controller.manifest.Segment;
import dev.mesh.controller.manifest.Suggestions;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.List;

/** The rules of docs/design.md section 3 that name one part of a manifest from another. */
final class CrossChecks {

    private final Checks checks;
    private final Declared declared;

    CrossChecks(Checks checks, Declared declared) {
        this.checks = checks;
        this.declared = declared;
    }

    void check() {
        users();
        artifacts();
        for (Template template : declared.templates) {
            List<Segment> segments = template.segments();
            for (int i = 0; i < segments.size(); i++) {
                // instanceof tests: cheaper than a pattern switch's type dispatch, run for every segment.
                Segment segment = segments.get(i);
                if (segment instanceof Reference.Dir dir) {
                    directory(template, dir);
                } else if (segment instanceof Reference.Secret secret) {
                    secret(template, secret);
                }
            }
        }
    }

    private void users() {
        for (Declared.Use use : declared.userUses) {
            if (!use.name().equals("root") && !declared.users.containsKey(use.name())) {
                List<String> known = declared.users.names();
                known.add("root");
                Problem problem = Problem.error("unknown-user", "\"" + use.name() + "\" in " + use.user()
                        + " is not a user this manifest declares; declare a user resource named \"" + use.name()
                        + "\", or use \"root\"", use.location(checks));
                checks.add(Suggestions.hint(use.name(), known).map(problem::withHint).orElse(problem));
            }
        }
    }

    private void artifacts() {
        for (Declared.Use use : declared.artifactUses) {
            if (!declared.artifacts.containsKey(use.name())) {
                Problem problem = Problem.error("unknown-artifact", use.user() + " runs the artifact \"" + use.name()
                        + "\", which build.artifacts does not declare; declare it there, or name one of: "
                        + (declared.artifacts.isEmpty() ? "(none declared)" : String.join(", ", declared.artifacts.names())),
                        use.location(checks));
                checks.add(Suggestions.hint(use.name(), declared.artifacts.names()).map(problem::withHint)
                        .orElse(problem));
            }
        }
    }

    private void directory(Template template, Reference.Dir dir) {
        Declared.Id id = declared.resourceIds.get(dir.id());
        String type = id == null ? null : id.type();
        if ("directory".equals(type)) {
            return;
        }
        List<String> directories = new ArrayList<>();
        for (int i = 0; i < declared.resourceIds.size(); i++) {
            if (declared.resourceIds.value(i).type().equals("directory")) {
                directories.add(declared.resourceIds.name(i));
            }
        }
        String why = type == null ? "no resource has the id \"" + dir.id() + "\""
                : "the resource \"" + dir.id() + "\" is a " + (type.isEmpty() ? "resource of unknown type" : type)
                        + ", not a directory";
        Problem problem = Problem.error("template-unknown-dir", dir.text() + " names no directory of this manifest: "
                + why + "; declare a directory resource with that id, or use one of: "
                + (directories.isEmpty() ? "(none declared)" : String.join(", ", directories)),
                template.locationOf(dir));
        checks.add(Suggestions.hint(dir.id(), directories).map(problem::withHint).orElse(problem));
    }

    private void secret(Template template, Reference.Secret secret) {
        if (declared.isSecret(secret.name())) {
            return;
        }
        List<String> secrets = declared.secretNames();
        Problem problem = Problem.error("template-unknown-secret", secret.text() + " names no secret of this "
                + "manifest; add \"" + secret.name() + "\" to own-secrets, or use one of: "
                + (secrets.isEmpty() ? "(none declared)" : String.join(", ", secrets)),
                template.locationOf(secret));
        checks.add(Suggestions.hint(secret.name(), secrets).map(problem::withHint).orElse(problem));
    }
}
