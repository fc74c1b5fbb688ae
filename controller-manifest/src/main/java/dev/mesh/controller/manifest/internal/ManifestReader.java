package dev.mesh.controller.manifest.internal;

import static dev.mesh.controller.manifest.Location.child;

import dev.mesh.controller.manifest.Access;
import dev.mesh.controller.manifest.AccessMode;
import dev.mesh.controller.manifest.Artifact;
import dev.mesh.controller.manifest.Claim;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Reference.Kind;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Scope;
import dev.mesh.controller.manifest.Template;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The strict manifest parser: JSON syntax, fields, forms and the rules across fields of DESIGN.md
 * section 3, every problem located. Stateless; each call reads one document.
 */
public final class ManifestReader {

    private static final List<String> ROOT = List.of("$schema", "module", "version", "slug", "claims", "accesses",
            "own-secrets", "secrets-owner", "prepares", "tools", "resources", "build");
    private static final Map<String, Scope> SCOPES = ResourceReader.ordered("mesh", Scope.MESH, "node", Scope.NODE);
    private static final Map<String, String> KINDS = ResourceReader.words("bundle");
    private static final Set<Kind> PATH_KINDS = EnumSet.of(Kind.DIR, Kind.SECRET, Kind.NODE, Kind.MODULE);
    private static final Set<Kind> SECRET_KINDS = EnumSet.of(Kind.DIR, Kind.NODE, Kind.MODULE);

    private final Checks checks;
    private final Fields fields;
    private final Declared declared = new Declared();

    private ManifestReader(String file, List<Problem> problems) {
        this.checks = new Checks(file, problems);
        this.fields = new Fields(checks, declared);
    }

    /**
     * @throws ManifestException with every problem of the file, {@code unreadable-file} included
     */
    public static Manifest read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | SecurityException e) {
            throw new ManifestException(List.of(Problem.error("unreadable-file", "cannot read the file: " + reason(path, e)
                    + "; check the path and that the file is readable", Location.of(path.toString()))));
        }
        return read(bytes, path.toString());
    }

    private static String reason(Path path, Exception e) {
        if (Files.isDirectory(path)) {
            return "it is a directory, not a file";
        }
        return switch (e) {
            case java.nio.file.NoSuchFileException missing -> "it does not exist";
            case java.nio.file.AccessDeniedException denied -> "permission denied";
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }

    /**
     * @throws ManifestException with every problem of the document
     */
    public static Manifest read(byte[] bytes, String file) {
        List<Problem> problems = new ArrayList<>();
        Json root = JsonReader.read(bytes, file, problems);
        Manifest manifest = root == null ? null : new ManifestReader(file, problems).manifest(root);
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparingInt((Problem p) -> p.location().line())
                    .thenComparingInt(p -> p.location().column()));
            throw new ManifestException(problems);
        }
        return manifest;
    }

    private Manifest manifest(Json root) {
        Json.Obj object = checks.object(root, "", "a manifest");
        if (object == null) {
            return null;
        }
        String owner = "the manifest";
        checks.onlyKnown(object, "", owner, ROOT);
        fields.get(object, "", "$schema", false, owner, "", (n, p) -> checks.plain(n, p, "\"$schema\""));
        String module = fields.matching(object, "", "module", true, owner, "module name", Patterns.NAME,
                Patterns.NAME_RULE + ", e.g. \"mesh-store\"");
        String version = fields.matching(object, "", "version", true, owner, "version", Patterns.VERSION,
                Patterns.VERSION_RULE);
        String slug = fields.matching(object, "", "slug", false, owner, "slug", Patterns.SLUG, Patterns.SLUG_RULE);
        if (module != null && !object.members().containsKey("slug") && !Patterns.SLUG.matches(module)) {
            checks.error("missing-field", "the manifest lacks \"slug\", which is required when the module name is "
                    + "longer than 32 characters (the slug defaults to the module name); add it: " + Patterns.SLUG_RULE,
                    checks.at(object, ""));
        }
        List<Claim> claims = fields.list(object, "", "claims", owner, "claim", this::claim);
        List<Access> accesses = fields.list(object, "", "accesses", owner, "access", this::access);
        Map<String, Template> ownSecrets = ownSecrets(object);
        String secretsOwner = fields.matching(object, "", "secrets-owner", false, owner, "secrets-owner",
                Patterns.ACCOUNT, "a user resource's name, or \"root\"");
        Boolean prepares = fields.get(object, "", "prepares", false, owner, "true or false",
                (n, p) -> checks.bool(n, p, "\"prepares\""));
        List<String> tools = fields.names(object, "", "tools", owner, "tool name", Patterns.NAME, Patterns.NAME_RULE);
        List<Resource> resources = fields.get(object, "", "resources", false, owner, "",
                (n, p) -> new ResourceReader(checks, fields, declared).read(n, p));
        List<Artifact> artifacts = fields.get(object, "", "build", false, owner, "", this::build);

        unique("claim", object, "", "claims", "name");
        unique("tool", object, "", "tools", null);
        if (secretsOwner != null) {
            declared.userUses.add(new Declared.Use(secretsOwner, "secrets-owner",
                    object.members().get("secrets-owner").value(), "/secrets-owner", null));
        } else if (!object.members().containsKey("secrets-owner") && hasMembers(object, "own-secrets")) {
            checks.error("missing-secrets-owner", "the manifest has own-secrets but no \"secrets-owner\"; add "
                    + "\"secrets-owner\": the name of the user resource that owns the secret files, or \"root\"",
                    checks.at(object, ""));
        }
        if (Boolean.TRUE.equals(prepares) && declared.processes == 0) {
            checks.error("prepares-without-process", "\"prepares\" is true but the manifest declares no process "
                    + "resource; a preparation runs a process's binary with the argument \"prepare\", so declare a "
                    + "process or remove \"prepares\"", checks.at(object.members().get("prepares").value(), "/prepares"));
        }
        new CrossChecks(checks, declared).check();
        return module == null || version == null ? null : new Manifest(module, version, slug == null ? module : slug,
                claims, accesses, ownSecrets, secretsOwner, Boolean.TRUE.equals(prepares), tools,
                resources == null ? List.of() : resources, artifacts == null ? List.of() : artifacts);
    }

    private Claim claim(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a claim");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "a claim", List.of("name", "scope"));
        String name = fields.matching(object, pointer, "name", true, "this claim", "seat name", Patterns.NAME,
                Patterns.NAME_RULE);
        Scope scope = fields.word(object, pointer, "scope", true, "this claim", "scope", SCOPES);
        return name == null || scope == null ? null : new Claim(name, scope, checks.at(object, pointer));
    }

    private Access access(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "an access");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "an access", List.of("path", "mode"));
        Template path = fields.get(object, pointer, "path", true, "this access", "an absolute path template",
                (n, p) -> fields.template(n, p, "access path", PATH_KINDS, true));
        AccessMode mode = fields.word(object, pointer, "mode", true, "this access", "access mode", ResourceReader.MODES);
        return path == null || mode == null ? null : new Access(path, mode);
    }

    private Map<String, Template> ownSecrets(Json.Obj root) {
        Json.Member field = root.members().get("own-secrets");
        Json.Obj object = field == null ? null : checks.object(field.value(), "/own-secrets", "\"own-secrets\"");
        if (object == null) {
            return Map.of();
        }
        LinkedHashMap<String, Template> secrets = new LinkedHashMap<>();
        for (Json.Member member : object.members().values()) {
            String pointer = child("/own-secrets", member.key());
            declared.secrets.put(member.key(), new Location(checks.file(), pointer, member.line(), member.column()));
            if (!Patterns.SECRET.matches(member.key())) {
                checks.error("invalid-format", "\"" + member.key() + "\" is not a valid secret name: "
                        + Patterns.SECRET_RULE, new Location(checks.file(), pointer, member.line(), member.column()));
                continue;
            }
            Template path = fields.template(member.value(), pointer, "own-secrets value", SECRET_KINDS, true);
            if (path != null) {
                secrets.put(member.key(), path);
            }
        }
        return FrozenMap.of(secrets);
    }

    private List<Artifact> build(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "\"build\"");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "\"build\"", List.of("artifacts"));
        checks.member(object, pointer, "artifacts", true, "\"build\"", "the list of artifacts the build produces");
        List<Artifact> artifacts = fields.list(object, pointer, "artifacts", "\"build\"", "artifact", this::artifact);
        unique("artifact", object, pointer, "artifacts", "name");
        return artifacts;
    }

    private Artifact artifact(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "an artifact");
        if (object == null) {
            return null;
        }
        int before = checks.count();
        String what = "this artifact";
        checks.onlyKnown(object, pointer, "an artifact", List.of("name", "kind", "language", "system", "from", "binary"));
        String name = fields.matching(object, pointer, "name", true, what, "artifact name", Patterns.NAME,
                Patterns.NAME_RULE);
        if (name != null) {
            declared.artifacts.putIfAbsent(name, checks.at(object, pointer));
        }
        String kind = fields.word(object, pointer, "kind", true, what, "artifact kind", KINDS);
        String language = fields.matching(object, pointer, "language", true, what, "language", Patterns.LANGUAGE,
                Patterns.LANGUAGE_RULE);
        String system = fields.matching(object, pointer, "system", true, what, "system", Patterns.SYSTEM,
                Patterns.SYSTEM_RULE);
        String from = fields.get(object, pointer, "from", true, what, "the source directory relative to the module",
                (n, p) -> checks.relativePath(n, p, "\"from\""));
        String binary = fields.get(object, pointer, "binary", true, what, "the executable's file name",
                (n, p) -> checks.fileName(n, p, "\"binary\""));
        return checks.count() == before
                ? new Artifact(name, kind, language, system, from, binary, checks.at(object, pointer)) : null;
    }

    /** Reports repeated names in an array of objects (by {@code key}) or of strings ({@code key} null). */
    private void unique(String what, Json.Obj parent, String parentPointer, String arrayKey, String key) {
        Json.Member member = parent.members().get(arrayKey);
        if (member == null || !(member.value() instanceof Json.Arr array)) {
            return;
        }
        // Names to the index of their first item; locations are made only for a repeat.
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < array.items().size(); i++) {
            Json named = name(array.items().get(i), key);
            if (named instanceof Json.Str string) {
                Integer first = seen.putIfAbsent(string.value(), i);
                if (first != null) {
                    String pointer = child(parentPointer, arrayKey);
                    Location here = nameLocation(named, pointer, i, key);
                    Location there = nameLocation(name(array.items().get(first), key), pointer, first, key);
                    checks.add(Problem.error("duplicate-name", "the " + what + " \"" + string.value()
                            + "\" appears twice (first at " + there.pointer() + ", line " + there.line() + "); " + what
                            + " names are unique in a manifest, remove or rename one", here)
                            .withRelated(List.of(there)));
                }
            }
        }
    }

    private static Json name(Json item, String key) {
        if (key == null) {
            return item;
        }
        Json.Member member = item instanceof Json.Obj object ? object.members().get(key) : null;
        return member == null ? null : member.value();
    }

    private Location nameLocation(Json named, String arrayPointer, int index, String key) {
        String itemPointer = arrayPointer + "/" + index;
        return checks.at(named, key == null ? itemPointer : child(itemPointer, key));
    }

    private static boolean hasMembers(Json.Obj object, String key) {
        Json.Member member = object.members().get(key);
        return member != null && member.value() instanceof Json.Obj o && !o.members().isEmpty();
    }
}
