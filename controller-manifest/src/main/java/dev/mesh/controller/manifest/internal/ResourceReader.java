package dev.mesh.controller.manifest.internal;

import static dev.mesh.controller.manifest.Location.child;

import dev.mesh.controller.manifest.AccessMode;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Mount;
import dev.mesh.controller.manifest.Place;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
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
    private static final List<String> PROCESS = List.of("id", "type", "name", "artifact", "run", "user", "env", "replaces");
    private static final List<String> CONTAINER =
            List.of("id", "type", "name", "image", "user", "env", "mounts", "network", "run");
    private static final List<String> ANY = List.of("id", "type", "name", "shell", "home", "mode", "place", "owner",
            "artifact", "run", "user", "env", "replaces", "image", "mounts", "network");

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
        List<Resource> resources = new ArrayList<>();
        if (array == null) {
            return resources;
        }
        for (int i = 0; i < array.items().size(); i++) {
            Resource resource = resource(array.items().get(i), pointer + "/" + i);
            if (resource != null) {
                resources.add(resource);
            }
        }
        return resources;
    }

    private Resource resource(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a resource");
        if (object == null) {
            return null;
        }
        int before = checks.count();
        String id = fields.matching(object, pointer, "id", true, "this resource", "resource id", Patterns.NAME,
                Patterns.NAME_RULE);
        String type = fields.word(object, pointer, "type", true, "this resource", "resource type", TYPES);
        if (id != null) {
            Declared.Spot spot = new Declared.Spot(object.members().get("id").value(), pointer, "id");
            Declared.Spot firstSpot = declared.resourceIds.putIfAbsent(id, spot);
            if (firstSpot != null) {
                Location here = spot.location(checks);
                Location first = firstSpot.location(checks);
                checks.add(Problem.error("duplicate-id", "the resource id \"" + id + "\" is used twice (first at "
                        + first.pointer() + ", line " + first.line() + "); resource ids are unique in a manifest, "
                        + "rename one", here).withRelated(List.of(first)));
            } else {
                declared.resourceTypes.put(id, type == null ? "" : type);
            }
        }
        if (type == null) {
            checks.onlyKnown(object, pointer, "a resource", ANY);
            return null;
        }
        String what = switch (type) {
            case "user" -> "this user resource";
            case "directory" -> "this directory resource";
            case "process" -> "this process resource";
            default -> "this container resource";
        };
        Location at = checks.at(object, pointer);
        return switch (type) {
            case "user" -> {
                checks.onlyKnown(object, pointer, "a user resource", USER);
                String name = fields.matching(object, pointer, "name", true, what, "user name", Patterns.ACCOUNT,
                        Patterns.ACCOUNT_RULE);
                String shell = fields.string(object, pointer, "shell", false, what, "an absolute path",
                        ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "shell"));
                String home = fields.string(object, pointer, "home", false, what, "an absolute path",
                        ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "home"));
                named("user", name, object, pointer);
                if (name != null) {
                    declared.users.putIfAbsent(name, at);
                }
                yield checks.count() == before ? new Resource.User(id, name, shell, home, at) : null;
            }
            case "directory" -> {
                checks.onlyKnown(object, pointer, "a directory resource", DIRECTORY);
                String mode = fields.matching(object, pointer, "mode", true, what, "directory mode", Patterns.MODE,
                        Patterns.MODE_RULE);
                Place place = fields.word(object, pointer, "place", false, what, "place", PLACES);
                String owner = userName(object, pointer, "owner", true, what);
                yield checks.count() == before
                        ? new Resource.Directory(id, mode, place == null ? Place.MODULE : place, owner, at) : null;
            }
            case "process" -> process(object, pointer, id, what, at, before);
            case "container" -> container(object, pointer, id, what, at, before);
            default -> throw new IllegalStateException("resource type " + type);
        };
    }

    private Resource process(Json.Obj object, String pointer, String id, String what, Location at, int before) {
        checks.onlyKnown(object, pointer, "a process resource", PROCESS);
        declared.processes++;
        String name = fields.matching(object, pointer, "name", true, what, "process name", Patterns.NAME,
                Patterns.NAME_RULE);
        String artifact = fields.matching(object, pointer, "artifact", true, what, "artifact name", Patterns.NAME,
                Patterns.NAME_RULE);
        if (artifact != null) {
            String runner = name != null ? "process \"" + name + "\""
                    : id != null ? "the process resource \"" + id + "\"" : "a process resource";
            declared.artifactUses.add(new Declared.Use(artifact, runner, object.members().get("artifact").value(),
                    pointer, "artifact"));
        }
        List<Template> run = fields.run(object, pointer, true, what);
        String user = userName(object, pointer, "user", true, what);
        Map<String, Template> env = fields.env(object, pointer, what);
        List<String> replaces = fields.names(object, pointer, "replaces", what, "container name", Patterns.CONTAINER,
                Patterns.CONTAINER_RULE);
        named("process", name, object, pointer);
        return checks.count() == before
                ? new Resource.Process(id, name, artifact, run, user, env, replaces, at) : null;
    }

    private Resource container(Json.Obj object, String pointer, String id, String what, Location at, int before) {
        checks.onlyKnown(object, pointer, "a container resource", CONTAINER);
        String name = fields.matching(object, pointer, "name", true, what, "container name", Patterns.CONTAINER,
                Patterns.CONTAINER_RULE);
        String image = fields.string(object, pointer, "image", true, what, "the image, e.g. \"rabbitmq:3.13\"",
                NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "image"));
        String user = fields.string(object, pointer, "user", false, what, "the user inside the container",
                NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "container user"));
        Map<String, Template> env = fields.env(object, pointer, what);
        List<Mount> mounts = fields.list(object, pointer, "mounts", what, "mount", this::mount);
        String network = fields.string(object, pointer, "network", false, what, "the network mode",
                NON_EMPTY, (n, p) -> checks.nonEmpty(n, p, "network"));
        List<Template> run = fields.run(object, pointer, false, what);
        named("container", name, object, pointer);
        return checks.count() == before
                ? new Resource.Container(id, name, image, user, env, mounts, network, run, at) : null;
    }

    private Mount mount(Json node, String pointer) {
        Json.Obj object = checks.object(node, pointer, "a mount");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "a mount", List.of("source", "target", "mode"));
        String what = "this mount";
        String source = fields.string(object, pointer, "source", true, what, "the absolute path on the node",
                ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "mount source"));
        String target = fields.string(object, pointer, "target", true, what, "the absolute path in the container",
                ABSOLUTE, (n, p) -> checks.absolutePath(n, p, "mount target"));
        AccessMode mode = fields.word(object, pointer, "mode", true, what, "mount mode", MODES);
        return source == null || target == null || mode == null ? null : new Mount(source, target, mode);
    }

    /** A user or owner field: a valid account name, whose declaration is checked at the end. */
    private String userName(Json.Obj object, String pointer, String key, boolean required, String what) {
        String name = fields.matching(object, pointer, key, required, what, key, Patterns.ACCOUNT,
                "a user resource's name, or \"root\"");
        if (name != null) {
            declared.userUses.add(new Declared.Use(name, what, object.members().get(key).value(), pointer, key));
        }
        return name;
    }

    private void named(String type, String name, Json.Obj object, String pointer) {
        if (name == null) {
            return;
        }
        Map<String, Declared.Spot> seen = declared.names.get(type);
        if (seen == null) {
            seen = new LinkedHashMap<>();
            declared.names.put(type, seen);
        }
        Declared.Spot spot = new Declared.Spot(object.members().get("name").value(), pointer, "name");
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
