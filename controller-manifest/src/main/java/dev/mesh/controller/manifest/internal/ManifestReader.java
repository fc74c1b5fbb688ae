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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The strict manifest parser: JSON syntax, fields, forms and the rules across fields of docs/design.md
 * section 3, every problem located. Stateless; each call reads one document.
 */
public final class ManifestReader {

    private static final List<String> ROOT = List.of("$schema", "module", "version", "slug", "claims", "accesses",
            "own-secrets", "secrets-owner", "prepares", "tools", "resources", "build");
    private static final List<String> CLAIM = List.of("name", "scope");
    private static final List<String> ACCESS = List.of("path", "mode");
    private static final Map<String, Scope> SCOPES = ResourceReader.ordered("mesh", Scope.MESH, "node", Scope.NODE);
    private static final Set<Kind> SECRET_KINDS = EnumSet.of(Kind.DIR, Kind.NODE, Kind.MODULE);
    private static final java.util.function.Predicate<String> ANY = value -> true;

    private final Checks checks;
    private final Fields fields;
    private final Declared declared = new Declared();
    /** The pointer of the manifest in its document: {@code ""}, or e.g. {@code /modules/2} inline in a mesh file. */
    private final String base;

    private ManifestReader(String file, String base, List<Problem> problems, List<Problem> warnings) {
        this.checks = new Checks(file, problems, warnings);
        this.fields = new Fields(checks, declared);
        this.base = base;
    }

    /**
     * @throws ManifestException with every problem of the file, {@code unreadable-file} included
     */
    public static Manifest.Checked read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | SecurityException e) {
            throw new ManifestException(List.of(Problem.error("unreadable-file", "cannot read the file: " + why(path, e)
                    + "; check the path and that the file is readable", Location.of(path.toString()))));
        }
        return read(bytes, path.toString());
    }

    /** Why {@code path} could not be read, in a few words. */
    static String why(Path path, Exception e) {
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
     * @return the manifest and its warnings, in document order
     * @throws ManifestException with every problem of the document, warnings included, when one is
     *     an error
     */
    public static Manifest.Checked read(byte[] bytes, String file) {
        List<Problem> problems = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        Json root = JsonReader.read(bytes, file, problems);
        Manifest manifest = root == null ? null : new ManifestReader(file, "", problems, warnings).manifest(root);
        if (!problems.isEmpty()) {
            problems.addAll(warnings);
            throw new ManifestException(inDocumentOrder(problems));
        }
        return new Manifest.Checked(manifest, inDocumentOrder(warnings));
    }

    private static List<Problem> inDocumentOrder(List<Problem> problems) {
        problems.sort(Comparator.comparingInt((Problem p) -> p.location().line())
                .thenComparingInt(p -> p.location().column()));
        return problems;
    }

    /**
     * Reads a manifest that is one value of a larger document (a mesh file's inline module):
     * problems are located in that document, below {@code pointer}.
     *
     * @param node the manifest's value in the document
     * @param file the document's file name
     * @param pointer the manifest's pointer in the document
     * @param problems where every error is added
     * @param warnings where every warning is added
     * @return the manifest, or {@code null} when it has an error
     */
    static Manifest read(Json node, String file, String pointer, List<Problem> problems, List<Problem> warnings) {
        int before = problems.size();
        Manifest manifest = new ManifestReader(file, pointer, problems, warnings).manifest(node);
        return problems.size() == before ? manifest : null;
    }

    /** The root's members by key, gathered in one pass (a switch on the key). */
    private static final class Root {
        Json schema;
        Json module;
        Json version;
        Json slug;
        Json claims;
        Json accesses;
        Json ownSecrets;
        Json secretsOwner;
        Json prepares;
        Json tools;
        Json resources;
        Json build;
    }

    private Root members(Json.Obj object) {
        Root root = new Root();
        for (Json.Member member : object.members()) {
            Json value = member.value();
            switch (member.key()) {
                case "$schema" -> root.schema = value;
                case "module" -> root.module = value;
                case "version" -> root.version = value;
                case "slug" -> root.slug = value;
                case "claims" -> root.claims = value;
                case "accesses" -> root.accesses = value;
                case "own-secrets" -> root.ownSecrets = value;
                case "secrets-owner" -> root.secretsOwner = value;
                case "prepares" -> root.prepares = value;
                case "tools" -> root.tools = value;
                case "resources" -> root.resources = value;
                case "build" -> root.build = value;
                default -> checks.unknown(member, base, "the manifest", ROOT);
            }
        }
        return root;
    }

    private Manifest manifest(Json node) {
        Json.Obj object = checks.object(node, base, "a manifest");
        if (object == null) {
            return null;
        }
        Root root = members(object);
        String owner = "the manifest";
        // Fields.string and the Bool test below: a valid value, as nearly all are, needs no pointer.
        fields.string(root.schema, object, base, "$schema", false, owner, "", ANY, (n, p) -> checks.plain(n, p, "\"$schema\""));
        String module = fields.matching(root.module, object, base, "module", true, owner, "module name", Patterns.NAME,
                Patterns.NAME_RULE + ", e.g. \"mesh-store\"");
        String version = fields.matching(root.version, object, base, "version", true, owner, "version",
                Patterns.VERSION, Patterns.VERSION_RULE);
        String slug = fields.matching(root.slug, object, base, "slug", false, owner, "slug", Patterns.SLUG,
                Patterns.SLUG_RULE);
        if (module != null && root.slug == null && !Patterns.SLUG.matches(module)) {
            checks.error("missing-field", "the manifest lacks \"slug\", which is required when the module name is "
                    + "longer than 32 characters (the slug defaults to the module name); add it: " + Patterns.SLUG_RULE,
                    checks.at(object, base));
        }
        List<Claim> claims = fields.list(root.claims, base, "claims", owner, "claim", this::claim);
        List<Access> accesses = fields.list(root.accesses, base, "accesses", owner, "access", this::access);
        Map<String, Template> ownSecrets = ownSecrets(root.ownSecrets);
        String secretsOwner = fields.matching(root.secretsOwner, object, base, "secrets-owner", false, owner,
                "secrets-owner", Patterns.ACCOUNT, "a user resource's name, or \"root\"");
        Boolean prepares = root.prepares instanceof Json.Bool bool ? Boolean.valueOf(bool.value())
                : fields.get(root.prepares, object, base, "prepares", false, owner, "true or false",
                        (n, p) -> checks.bool(n, p, "\"prepares\""));
        List<String> tools = fields.names(root.tools, base, "tools", owner, "tool name", Patterns.NAME,
                Patterns.NAME_RULE);
        List<Resource> resources = fields.get(root.resources, object, base, "resources", false, owner, "",
                (n, p) -> new ResourceReader(checks, fields, declared).read(n, p));
        List<Artifact> artifacts = fields.get(root.build, object, base, "build", false, owner, "",
                (n, p) -> new BuildReader(checks, fields, declared).read(n, p));
        rules(object, root, secretsOwner, prepares);
        return module == null || version == null ? null : new Manifest(module, version, slug == null ? module : slug,
                claims, accesses, ownSecrets, secretsOwner, Boolean.TRUE.equals(prepares), tools,
                resources == null ? List.of() : resources, artifacts == null ? List.of() : artifacts);
    }

    /** The rules across the root's fields, then those across the whole manifest. */
    private void rules(Json.Obj object, Root root, String secretsOwner, Boolean prepares) {
        checks.unique("claim", root.claims, base, "claims", "name");
        checks.unique("tool", root.tools, base, "tools", null);
        if (secretsOwner != null) {
            declared.userUses.add(new Declared.Use(secretsOwner, "secrets-owner", root.secretsOwner, base + "/secrets-owner",
                    null));
        } else if (root.secretsOwner == null && root.ownSecrets instanceof Json.Obj secrets
                && !secrets.members().isEmpty()) {
            checks.error("missing-secrets-owner", "the manifest has own-secrets but no \"secrets-owner\"; add "
                    + "\"secrets-owner\": the name of the user resource that owns the secret files, or \"root\"",
                    checks.at(object, base));
        }
        if (Boolean.TRUE.equals(prepares) && declared.processes == 0) {
            checks.error("prepares-without-process", "\"prepares\" is true but the manifest declares no process "
                    + "resource; a preparation runs a process's binary with the argument \"prepare\", so declare a "
                    + "process or remove \"prepares\"", checks.at(root.prepares, base + "/prepares"));
        }
        new CrossChecks(checks, declared).check();
    }

    private Claim claim(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a claim");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "a claim", CLAIM);
        Json name = Fields.value(object, "name");
        Json scope = Fields.value(object, "scope");
        String seat = fields.matching(name, object, pointer, "name", true, "this claim", "seat name", Patterns.NAME,
                Patterns.NAME_RULE);
        Scope where = fields.word(scope, object, pointer, "scope", true, "this claim", "scope", SCOPES);
        return seat == null || where == null ? null : new Claim(seat, where, checks.at(object, pointer));
    }

    private Access access(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "an access");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "an access", ACCESS);
        Json path = Fields.value(object, "path");
        Json mode = Fields.value(object, "mode");
        Template template = fields.get(path, object, pointer, "path", true, "this access", "an absolute path template",
                (n, p) -> fields.template(n, p, "access path", Fields.PATH_KINDS, true));
        AccessMode access = fields.word(mode, object, pointer, "mode", true, "this access", "access mode",
                ResourceReader.MODES);
        return template == null || access == null ? null : new Access(template, access);
    }

    private Map<String, Template> ownSecrets(Json node) {
        Json.Obj object = node == null ? null : checks.object(node, base + "/own-secrets", "\"own-secrets\"");
        if (object == null) {
            return Map.of();
        }
        declared.secrets = object;
        Object[] names = new Object[object.members().size()];
        Object[] paths = new Object[names.length];
        int size = 0;
        for (Json.Member member : object.members().values()) {
            if (!Patterns.SECRET.matches(member.key())) {
                checks.error("invalid-format", "\"" + member.key() + "\" is not a valid secret name: "
                        + Patterns.SECRET_RULE, new Location(checks.file(), child(base + "/own-secrets", member.key()),
                        member.line(), member.column()));
                continue;
            }
            // A valid name has no '~' or '/' to escape.
            Template path = fields.template(member.value(), base + "/own-secrets/" + member.key(), "own-secrets value",
                    SECRET_KINDS, true);
            if (path != null) {
                names[size] = member.key();
                paths[size++] = path;
            }
        }
        return FrozenMap.of(names, paths, size);
    }

}
