package dev.mesh.controller.manifest;

import static dev.mesh.controller.manifest.ManifestGens.allOf;
import static dev.mesh.controller.manifest.ManifestGens.oneOf;
import static dev.mesh.controller.manifest.ManifestGens.stringsOf;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.mesh.controller.manifest.GeneratedJson.Arr;
import dev.mesh.controller.manifest.GeneratedJson.Bool;
import dev.mesh.controller.manifest.GeneratedJson.Member;
import dev.mesh.controller.manifest.GeneratedJson.Null;
import dev.mesh.controller.manifest.GeneratedJson.Num;
import dev.mesh.controller.manifest.GeneratedJson.Obj;
import dev.mesh.controller.manifest.GeneratedJson.Str;
import dev.mesh.controller.manifest.GeneratedJson.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * JSON shaped like a manifest: the real fields with mostly plausible values drawn from small
 * vocabularies (so names refer to each other), with some noise in keys, types and values, so
 * that the parser reaches its deepest checks.
 *
 * <p>Built from QuickTheories' generators only, so a failing tree shrinks: members drop out, lists
 * get shorter, and values move to the first word of their vocabulary.
 */
final class ManifestShapes {

    private static final List<String> ROOT_KEYS = List.of("$schema", "module", "version", "slug", "claims", "accesses",
            "own-secrets", "secrets-owner", "prepares", "tools", "resources", "build");
    private static final Map<String, List<String>> RESOURCE_KEYS = Map.of(
            "user", List.of("id", "type", "name", "shell", "home"),
            "directory", List.of("id", "type", "mode", "place", "owner"),
            "process", List.of("id", "type", "name", "artifact", "run", "user", "env", "replaces"),
            "container", List.of("id", "type", "name", "image", "user", "env", "mounts", "network", "run"));
    private static final List<String> NOISE_KEYS = List.of("modul", "Type", "mdoe", "resource", "", "a/b", "~x",
            "env ", "é", "na\"me", "0");
    private static final List<String> WORDS = List.of("mesh", "node", "read", "write", "user", "directory",
            "process", "container", "bundle", "module", "root", "data", "app", "0700", "java", "debian-12", "1.0.0",
            "./bin/app", "/var/lib/app", "", "Mesh", "proces", "${dir:data}", "a b", "é✓");
    private static final List<String> TEMPLATE_PIECES = List.of("/srv/", "${dir:data}", "${dir:cache}", "/x",
            "${secret:token}", "${secret:nope}", "${seat:db:5432}", "${seat:db:0}", "${seat:Db:1}", "${node:name}",
            "${node:nam}", "${module:slug}", "${foo:x}", "${", "$${", "}", "${}", "${:x}", "${dir:a:b}", "${dir:}",
            "${dir:${dir:x}}", "x", "é", "\"", "\\", "$", " ", ":");

    private ManifestShapes() {
    }

    /** Mostly an object with the root's fields, sometimes any JSON value. */
    static Gen<Value> root() {
        return Generate.frequency(Pair.of(12, object(ROOT_KEYS)), Pair.of(1, any(2)));
    }

    /**
     * An object with each of {@code keys} present 85 times in 100, in that order, rarely one or two
     * noise members after them, and rarely one of its members repeated at the end (a duplicate key).
     */
    private static Gen<Value> object(List<String> keys) {
        List<Gen<Optional<Member>>> members = keys.stream()
                .map(key -> valueFor(key).map(value -> new Member(key, value)).toOptionals(15)).toList();
        Gen<List<Member>> known = allOf(members).map(list -> list.stream().flatMap(Optional::stream).toList());
        Gen<List<Member>> extra = Generate.frequency(Pair.of(8, Generate.constant(List.<Member>of())),
                Pair.of(1, lists().of(key().zip(any(1), Member::new)).ofSizeBetween(1, 2)));
        Gen<Integer> duplicate = Generate.frequency(Pair.of(15, Generate.constant(-1)),
                Pair.of(1, integers().between(0, 100)));
        return known.zip(extra, duplicate, (k, e, d) -> {
            List<Member> all = new ArrayList<>(k);
            all.addAll(e);
            if (d >= 0 && !all.isEmpty()) {
                all.add(all.get(d % all.size()));
            }
            return new Obj(all);
        });
    }

    /** A resource of each type. */
    private static Gen<Value> resource() {
        return oneOf(new TreeSet<>(RESOURCE_KEYS.keySet()).stream().map(ManifestShapes::resourceOf).toList());
    }

    /** A resource with the fields of {@code type}, its {@code type} set to match them whenever it is a string. */
    private static Gen<Value> resourceOf(String type) {
        return object(RESOURCE_KEYS.get(type)).map(o -> new Obj(((Obj) o).members().stream()
                .map(m -> m.key().equals("type") && m.value() instanceof Str ? new Member("type", new Str(type)) : m)
                .toList()));
    }

    private static Gen<Value> valueFor(String key) {
        return Generate.frequency(Pair.of(12, shaped(key)), Pair.of(1, any(1)));
    }

    private static Gen<Value> shaped(String key) {
        return switch (key) {
            case "module", "slug" -> words("app", "mesh-store", "App", "1app", "a".repeat(64), "${module:name}", "");
            case "version" -> words("1.0.0", "4.2.0+mesh.1", "", "-1", "v1 beta", "1".repeat(65));
            case "claims" -> array(object(List.of("name", "scope")));
            case "name" -> words("app", "app-user", "root", "db", "mesh-store", "Bad", "_x", "", "a.b");
            case "scope" -> words("mesh", "node", "Mesh", "nod", "cluster");
            case "accesses" -> array(object(List.of("path", "mode")));
            case "path" -> template();
            case "mode" -> words("read", "write", "0700", "0750", "rw", "777", "08", "Read");
            case "own-secrets" -> keyed(List.of("token", "key", "Bad_Name", "k~/"), template());
            case "secrets-owner", "owner", "user" -> words("app", "root", "app-user", "nobody", "Root", "");
            case "prepares" -> Generate.frequency(Pair.of(4, Generate.booleans().map(Bool::new)),
                    Pair.of(1, words("true")));
            case "tools", "replaces" -> array(words("status", "plan", "app", "Bad Tool", "legacy.app-1", ""));
            case "resources" -> array(resource());
            case "id" -> words("data", "secrets", "app", "cache", "Data", "");
            case "type" -> words("user", "directory", "process", "container", "dir", "usr");
            case "shell", "home", "source", "target" -> words("/bin/sh", "/home/app", "relative", "", "${dir:data}");
            case "place" -> words("mesh", "module", "node");
            case "artifact" -> words("app", "tool", "App", "nope");
            case "run" -> array(template());
            case "env" -> keyed(List.of("PATH", "APP_HOME", "_X", "lower", "1BAD", ""), template());
            case "image", "network" -> words("rabbitmq:3.13", "", "host", "${node:name}");
            case "mounts" -> array(object(List.of("source", "target", "mode")));
            case "build" -> object(List.of("artifacts"));
            case "artifacts" -> array(object(List.of("name", "kind", "language", "system", "from", "binary")));
            case "kind" -> words("bundle", "jar", "Bundle");
            case "language" -> words("java", "c++", "Java", "");
            case "system" -> words("debian-12", "Debian 12", "");
            case "from" -> words("app", "tools/helper", "/abs", "../up", "a//b", ".", "");
            case "binary" -> words("app", "bin/app", ".", "..", "", "a+b");
            default -> Generate.oneOf(words(WORDS.toArray(String[]::new)), template());
        };
    }

    /** One of {@code words}, or (one time in seven) any short {@link #text()}. */
    private static Gen<Value> words(String... words) {
        return Generate.frequency(Pair.of(6, Generate.pick(List.of(words))), Pair.of(1, text())).map(Str::new);
    }

    /** Up to four pieces of template syntax, well-formed or not, joined. */
    private static Gen<Value> template() {
        return lists().of(Generate.pick(TEMPLATE_PIECES)).ofSizeBetween(0, 4).map(p -> new Str(String.join("", p)));
    }

    private static Gen<Value> array(Gen<Value> item) {
        return lists().of(item).ofSizeBetween(0, 4).map(Arr::new);
    }

    /** An object of up to four members with distinct keys of {@code keys}: a member with a used key is dropped. */
    private static Gen<Value> keyed(List<String> keys, Gen<Value> values) {
        return lists().of(Generate.pick(keys).zip(values, Member::new)).ofSizeBetween(0, 4).map(members -> {
            Map<String, Member> byKey = new LinkedHashMap<>();
            members.forEach(member -> byKey.putIfAbsent(member.key(), member));
            return new Obj(List.copyOf(byKey.values()));
        });
    }

    /** A key of the manifest (of any object) or a near miss, or any short {@link #text()}. */
    private static Gen<String> key() {
        List<String> known = new ArrayList<>(ROOT_KEYS);
        RESOURCE_KEYS.values().forEach(known::addAll);
        known.addAll(NOISE_KEYS);
        return Generate.frequency(Pair.of(3, Generate.pick(known)), Pair.of(1, text()));
    }

    /** Up to 12 characters among those that JSON escapes, templates use, or that are not ASCII. */
    private static Gen<String> text() {
        return stringsOf("abz-_./~${}: é✓\"\\\n\t", 0, 12);
    }

    /** Any JSON value, arrays and objects nested at most {@code depth} deep. */
    private static Gen<Value> any(int depth) {
        Gen<Value> scalar = Generate.frequency(
                Pair.of(3, Generate.oneOf(text(), Generate.pick(WORDS)).map(Str::new)),
                Pair.of(1, Generate.pick(List.of("0", "-1", "42", "1.5", "1e3", "-0.0", "12345678901234567890"))
                        .map(Num::new)),
                Pair.of(1, Generate.booleans().map(Bool::new)),
                Pair.of(1, Generate.constant(new Null())));
        if (depth == 0) {
            return scalar;
        }
        Gen<Value> array = lists().of(any(depth - 1)).ofSizeBetween(0, 3).map(Arr::new);
        Gen<Value> object = lists().of(key().zip(any(depth - 1), Member::new)).ofSizeBetween(0, 3).map(Obj::new);
        return Generate.frequency(Pair.of(3, scalar), Pair.of(1, array), Pair.of(1, object));
    }
}
