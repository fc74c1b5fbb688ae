package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.GeneratedJson.Arr;
import dev.mesh.controller.manifest.GeneratedJson.Bool;
import dev.mesh.controller.manifest.GeneratedJson.Member;
import dev.mesh.controller.manifest.GeneratedJson.Null;
import dev.mesh.controller.manifest.GeneratedJson.Num;
import dev.mesh.controller.manifest.GeneratedJson.Obj;
import dev.mesh.controller.manifest.GeneratedJson.Str;
import dev.mesh.controller.manifest.GeneratedJson.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * JSON shaped like a manifest: the real fields with mostly plausible values drawn from small
 * vocabularies (so names refer to each other), with some noise in keys, types and values, so
 * that the parser reaches its deepest checks.
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

    static Arbitrary<Value> root() {
        return Arbitraries.frequencyOf(List.of(Tuple.of(12, object(ROOT_KEYS)), Tuple.of(1, any(2))));
    }

    private static Arbitrary<Value> object(List<String> keys) {
        List<Arbitrary<Member>> members = keys.stream()
                .map(key -> valueFor(key).map(value -> new Member(key, value)).injectNull(0.15)).toList();
        Arbitrary<List<Member>> known = Combinators.combine(members)
                .as(list -> list.stream().filter(java.util.Objects::nonNull).toList());
        Arbitrary<List<Member>> extra = Arbitraries.frequencyOf(List.of(
                Tuple.of(8, Arbitraries.just(List.<Member>of())),
                Tuple.of(1, Combinators.combine(key(), any(1)).as(Member::new).list().ofMinSize(1).ofMaxSize(2))));
        Arbitrary<Integer> duplicate = Arbitraries.frequencyOf(List.of(Tuple.of(15, Arbitraries.just(-1)),
                Tuple.of(1, Arbitraries.integers().between(0, 100))));
        return Combinators.combine(known, extra, duplicate).as((k, e, d) -> {
            List<Member> all = new ArrayList<>(k);
            all.addAll(e);
            if (d >= 0 && !all.isEmpty()) {
                all.add(all.get(d % all.size()));
            }
            return new Obj(all);
        });
    }

    /** A resource of each type, its {@code type} mostly set to match its fields. */
    private static Arbitrary<Value> resource() {
        return Arbitraries.oneOf(new TreeSet<>(RESOURCE_KEYS.keySet()).stream().map(type -> object(
                RESOURCE_KEYS.get(type)).map(o -> (Value) new Obj(((Obj) o).members().stream()
                .map(m -> m.key().equals("type") && !(m.value() instanceof Str) ? m : m.key().equals("type")
                        ? new Member("type", new Str(type)) : m).toList()))).toList());
    }

    private static Arbitrary<Value> valueFor(String key) {
        return Arbitraries.frequencyOf(List.of(Tuple.of(12, shaped(key)), Tuple.of(1, any(1))));
    }

    private static Arbitrary<Value> shaped(String key) {
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
            case "prepares" -> Arbitraries.frequencyOf(List.of(Tuple.of(4, Arbitraries.of(true, false)
                    .map(Bool::new)), Tuple.of(1, words("true"))));
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
            default -> Arbitraries.oneOf(List.of(words(WORDS.toArray(String[]::new)), template()));
        };
    }

    private static Arbitrary<Value> words(String... words) {
        return Arbitraries.frequencyOf(List.of(Tuple.of(6, Arbitraries.of(words)), Tuple.of(1, text())))
                .map(Str::new);
    }

    private static Arbitrary<Value> template() {
        return Arbitraries.of(TEMPLATE_PIECES).list().ofMaxSize(4).map(p -> new Str(String.join("", p)));
    }

    private static Arbitrary<Value> array(Arbitrary<Value> item) {
        return item.list().ofMaxSize(4).map(Arr::new);
    }

    private static Arbitrary<Value> keyed(List<String> keys, Arbitrary<Value> values) {
        return Combinators.combine(Arbitraries.of(keys), values).as(Member::new).list().ofMaxSize(4)
                .uniqueElements(Member::key).map(Obj::new);
    }

    private static Arbitrary<String> key() {
        List<String> known = new ArrayList<>(ROOT_KEYS);
        RESOURCE_KEYS.values().forEach(known::addAll);
        known.addAll(NOISE_KEYS);
        return Arbitraries.frequencyOf(List.of(Tuple.of(3, Arbitraries.of(known)), Tuple.of(1, text())));
    }

    private static Arbitrary<String> text() {
        return Arbitraries.strings().withChars("abz-_./~${}: é✓\"\\\n\t").ofMaxLength(12);
    }

    private static Arbitrary<Value> any(int depth) {
        Arbitrary<Value> scalar = Arbitraries.frequencyOf(List.of(
                Tuple.of(3, Arbitraries.oneOf(List.of(text(), Arbitraries.of(WORDS))).map(Str::new)),
                Tuple.of(1, Arbitraries.of("0", "-1", "42", "1.5", "1e3", "-0.0", "12345678901234567890")
                        .map(Num::new)),
                Tuple.of(1, Arbitraries.of(true, false).map(Bool::new)),
                Tuple.of(1, Arbitraries.just(new Null()))));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<Value> array = any(depth - 1).list().ofMaxSize(3).map(Arr::new);
        Arbitrary<Value> object = Combinators.combine(key(), any(depth - 1)).as(Member::new).list().ofMaxSize(3)
                .map(Obj::new);
        return Arbitraries.frequencyOf(List.of(Tuple.of(3, scalar), Tuple.of(1, array), Tuple.of(1, object)));
    }
}
