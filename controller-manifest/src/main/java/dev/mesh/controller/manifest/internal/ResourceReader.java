package dev.mesh.controller.manifest.internal;

import static dev.mesh.controller.manifest.Location.child;

import dev.mesh.controller.manifest.AccessMode;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Mount;
import dev.mesh.controller.manifest.Place;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Template;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the {@code resources} array: the four resource types and their fields. */
final class ResourceReader {

    static final Map<String, String> TYPES = words("user", "directory", "process", "container");
    static final Map<String, AccessMode> MODES = ordered("read", AccessMode.READ, "write", AccessMode.WRITE);
    private static final Map<String, Place> PLACES = ordered("mesh", Place.MESH, "module", Place.MODULE);

    private static final List<String> USER = List.of("id", "type", "name", "shell", "home");
    private static final List<String> DIRECTORY = List.of("id", "type", "mode", "place", "owner");
    private static final List<String> PROCESS = List.of("id", "type", "name", "artifact", "run", "user", "env", "replaces",
            "overlap");
    private static final List<String> CONTAINER =
            List.of("id", "type", "name", "image", "user", "env", "mounts", "network", "run");
    private static final List<String> ANY = List.of("id", "type", "name", "shell", "home", "mode", "place", "owner",
            "artifact", "run", "user", "env", "replaces", "overlap", "image", "mounts", "network");

    private static final List<String> MOUNT = List.of("source", "target", "mode");

    private static final java.util.function.Predicate<String> ABSOLUTE = value -> value.startsWith("/");
    private static final java.util.function.Predicate<String> NON_EMPTY = value -> !value.isEmpty();

    private final Checks checks;
    private final Fields fields;
    private final Declared declared;

    ResourceReader(Checks checks, Fields fields, Declared declared) {
        this.checks = checks;
        this.fields = fields;
        this.declared = declared;
    }

    List<Resource> read(Json node, String pointer) {
        Json.Arr array = checks.array(node, pointer, "resources");
        if (array == null) {
            return List.of();
        }
        Object[] resources = new Object[array.items().size()];
        int size = 0;
        for (int i = 0; i < resources.length; i++) {
            Resource resource = resource(array.items().get(i), pointer + "/" + i);
            if (resource != null) {
                resources[size++] = resource;
            }
        }
        return Fields.immutable(resources, size);
    }

    private Resource resource(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a resource");
        if (object == null) {
            return null;
        }
        int before = checks.count();
        Json idNode = Fields.value(object, "id");
        String id = fields.matching(idNode, object, pointer, "id", true, "this resource", "resource id", Patterns.NAME,
                Patterns.NAME_RULE);
        String type = fields.word(Fields.value(object, "type"), object, pointer, "type", true, "this resource",
                "resource type", TYPES);
        if (id != null) {
            Declared.Spot spot = new Declared.Spot(idNode, pointer, "id");
            Declared.Id firstId = declared.resourceIds.putIfAbsent(id, new Declared.Id(spot, type == null ? "" : type));
            if (firstId != null) {
                Location here = spot.location(checks);
                Location first = firstId.spot().location(checks);
                checks.add(Problem.error("duplicate-id", "the resource id \"" + id + "\" is used twice (first at "
                        + first.pointer() + ", line " + first.line() + "); resource ids are unique in a manifest, "
                        + "rename one", here).withRelated(List.of(first)));
            }
        }
        if (type == null) {
            checks.onlyKnown(object, pointer, "a resource", ANY);
            return null;
        }
        Location at = checks.at(object, pointer);
        return switch (type) {
            case "user" -> user(object, pointer, id, at, before);
            case "directory" -> directory(object, pointer, id, at, before);
            case "process" -> process(object, pointer, id, at, before);
            case "container" -> container(object, pointer, id, at, before);
            default -> throw new IllegalStateException("resource type " + type);
        };
    }

    // Every object kind first reports the keys it does not know, then checks its fields in a fixed
    // order, so problems at the same position (missing fields) keep their order.

    private Resource user(Json.Obj object, String pointer, String id, Location at, int before) {
        checks.onlyKnown(object, pointer, "a user resource", USER);
        Json name = Fields.value(object, "name");
        Json shell = Fields.value(object, "shell");
        Json home = Fields.value(object, "home");
        String what = "this user resource";
        String user = fields.matching(name, object, pointer, "name", true, what, "user name", Patterns.ACCOUNT,
                Patterns.ACCOUNT_RULE);
        String shellPath = fields.string(shell, object, pointer, "shell", false, what, "an absolute path",
                ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "shell"));
        String homePath = fields.string(home, object, pointer, "home", false, what, "an absolute path",
                ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "home"));
        named("user", user, name, pointer);
        if (user != null) {
            declared.users.putIfAbsent(user, at);
        }
        return checks.count() == before ? new Resource.User(id, user, shellPath, homePath, at) : null;
    }

    private Resource directory(Json.Obj object, String pointer, String id, Location at, int before) {
        checks.onlyKnown(object, pointer, "a directory resource", DIRECTORY);
        Json mode = Fields.value(object, "mode");
        Json place = Fields.value(object, "place");
        Json owner = Fields.value(object, "owner");
        String what = "this directory resource";
        String octal = fields.matching(mode, object, pointer, "mode", true, what, "directory mode", Patterns.MODE,
                Patterns.MODE_RULE);
        Place where = fields.word(place, object, pointer, "place", false, what, "place", PLACES);
        String user = userName(owner, object, pointer, "owner", true, what);
        return checks.count() == before
                ? new Resource.Directory(id, octal, where == null ? Place.MODULE : where, user, at) : null;
    }

    private Resource process(Json.Obj object, String pointer, String id, Location at, int before) {
        declared.processes++;
        checks.onlyKnown(object, pointer, "a process resource", PROCESS);
        String what = "this process resource";
        Json nameNode = Fields.value(object, "name");
        Json artifactNode = Fields.value(object, "artifact");
        String name = fields.matching(nameNode, object, pointer, "name", true, what, "process name", Patterns.NAME,
                Patterns.NAME_RULE);
        String artifact = fields.matching(artifactNode, object, pointer, "artifact", true, what, "artifact name",
                Patterns.NAME, Patterns.NAME_RULE);
        if (artifact != null) {
            String runner = name != null ? "process \"" + name + "\""
                    : id != null ? "the process resource \"" + id + "\"" : "a process resource";
            declared.artifactUses.add(new Declared.Use(artifact, runner, artifactNode, pointer, "artifact"));
        }
        List<Template> run = fields.run(Fields.value(object, "run"), object, pointer, true, what);
        String user = userName(Fields.value(object, "user"), object, pointer, "user", true, what);
        Map<String, Template> env = fields.env(Fields.value(object, "env"), pointer, what);
        List<String> replaces = fields.names(Fields.value(object, "replaces"), pointer, "replaces", what,
                "container name", Patterns.CONTAINER, Patterns.CONTAINER_RULE);
        Boolean overlap = fields.get(Fields.value(object, "overlap"), object, pointer, "overlap", false, what,
                "true or false", (n, p) -> checks.bool(n, p, "\"overlap\""));
        named("process", name, nameNode, pointer);
        return checks.count() == before ? new Resource.Process(id, name, artifact, run, user, env, replaces,
                Boolean.TRUE.equals(overlap), at) : null;
    }

    private Resource container(Json.Obj object, String pointer, String id, Location at, int before) {
        checks.onlyKnown(object, pointer, "a container resource", CONTAINER);
        String what = "this container resource";
        Json nameNode = Fields.value(object, "name");
        String name = fields.matching(nameNode, object, pointer, "name", true, what, "container name",
                Patterns.CONTAINER, Patterns.CONTAINER_RULE);
        String image = fields.string(Fields.value(object, "image"), object, pointer, "image", true, what,
                "the image, e.g. \"rabbitmq:3.13\"", NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "image"));
        String user = fields.string(Fields.value(object, "user"), object, pointer, "user", false, what,
                "the user inside the container", NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "container user"));
        Map<String, Template> env = fields.env(Fields.value(object, "env"), pointer, what);
        List<Mount> mounts = fields.list(Fields.value(object, "mounts"), pointer, "mounts", what, "mount",
                this::mount);
        String network = fields.string(Fields.value(object, "network"), object, pointer, "network", false, what,
                "the network mode", NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "network"));
        List<Template> run = fields.run(Fields.value(object, "run"), object, pointer, false, what);
        named("container", name, nameNode, pointer);
        return checks.count() == before
                ? new Resource.Container(id, name, image, user, env, mounts, network, run, at) : null;
    }

    private Mount mount(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a mount");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "a mount", MOUNT);
        Json source = Fields.value(object, "source");
        Json target = Fields.value(object, "target");
        Json mode = Fields.value(object, "mode");
        String what = "this mount";
        Template from = fields.get(source, object, pointer, "source", true, what, "the absolute path on the node",
                (n, p) -> fields.template(n, p, "mount source", Fields.PATH_KINDS, true));
        String to = fields.string(target, object, pointer, "target", true, what, "the absolute path in the container",
                ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "mount target"));
        AccessMode access = fields.word(mode, object, pointer, "mode", true, what, "mount mode", MODES);
        return from == null || to == null || access == null ? null : new Mount(from, to, access);
    }

    /** A user or owner field: a valid account name, whose declaration is checked at the end. */
    private String userName(Json node, Json.Obj object, String pointer, String key, boolean required, String what) {
        String name = fields.matching(node, object, pointer, key, required, what, key, Patterns.ACCOUNT,
                "a user resource's name, or \"root\"");
        if (name != null) {
            declared.userUses.add(new Declared.Use(name, what, node, pointer, key));
        }
        return name;
    }

    private void named(String type, String name, Json node, String pointer) {
        if (name == null) {
            return;
        }
        NameTable<Declared.Spot> seen = declared.names(type);
        Declared.Spot spot = new Declared.Spot(node, pointer, "name");
        Declared.Spot firstSpot = seen.putIfAbsent(name, spot);
        if (firstSpot != null) {
            Location here = spot.location(checks);
            Location first = firstSpot.location(checks);
            checks.add(Problem.error("duplicate-name", "two " + type + " resources are named \"" + name + "\" (the "
                    + "first at " + first.pointer() + ", line " + first.line() + "); " + type + " names are unique in "
                    + "a manifest, rename one", here).withRelated(List.of(first)));
        }
    }

    static <E> Map<String, E> ordered(String first, E firstValue, String second, E secondValue) {
        Map<String, E> map = new LinkedHashMap<>();
        map.put(first, firstValue);
        map.put(second, secondValue);
        return java.util.Collections.unmodifiableMap(map);
    }

    static Map<String, String> words(String... words) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String word : words) {
            map.put(word, word);
        }
        return map;
    }
}
