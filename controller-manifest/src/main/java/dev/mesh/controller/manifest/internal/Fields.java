package dev.mesh.controller.manifest.internal;

import static dev.mesh.controller.manifest.Location.child;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Reference.Kind;
import dev.mesh.controller.manifest.Reference;
import dev.mesh.controller.manifest.Segment;
import dev.mesh.controller.manifest.Template;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Reads named fields of an object: presence, type and form, templates included. */
final class Fields {

    /** Reference kinds for {@code run} and {@code env}: all of them. */
    static final Set<Kind> EVERY_KIND = EnumSet.allOf(Kind.class);
    /** Reference kinds for paths on the node (access paths, mount sources): all but {@code seat}. */
    static final Set<Kind> PATH_KINDS = EnumSet.of(Kind.DIR, Kind.SECRET, Kind.NODE, Kind.MODULE);

    /** Reads one located value; returns {@code null} after adding a problem. */
    @FunctionalInterface
    interface Read<T> {
        T read(Json node, String pointer);
    }

    private final Checks checks;
    private final Declared declared;
    private final TemplateSyntax templates;

    Fields(Checks checks, Declared declared) {
        this.checks = checks;
        this.declared = declared;
        this.templates = new TemplateSyntax(checks.problems(), checks.warnings());
    }

    /** The value of {@code key} in {@code object}, or {@code null}; for objects read without a dispatch. */
    static Json value(Json.Obj object, String key) {
        Json.Member member = object.members().get(key);
        return member == null ? null : member.value();
    }

    /**
     * Reads {@code node}, the value of {@code key} in {@code object} or {@code null} when absent (a
     * {@code missing-field} problem when required). The other readers below take the value the same way.
     */
    <T> T get(Json node, Json.Obj object, String pointer, String key, boolean required, String owner, String rule,
            Read<T> read) {
        checks.present(node, object, pointer, key, required, owner, rule);
        return node == null ? null : read.read(node, child(pointer, key));
    }

    /**
     * A plain string that passes {@code valid}; otherwise {@code check} runs on it to report why.
     * The valid case, nearly every case, builds no pointer.
     */
    String string(Json node, Json.Obj object, String pointer, String key, boolean required, String owner, String rule,
            Predicate<String> valid, Read<String> check) {
        checks.present(node, object, pointer, key, required, owner, rule);
        if (node == null) {
            return null;
        }
        if (node instanceof Json.Str string && valid.test(string.value()) && string.value().indexOf("${") < 0) {
            return string.value();
        }
        return check.read(node, child(pointer, key));
    }

    String matching(Json node, Json.Obj object, String pointer, String key, boolean required, String owner,
            String what, Form pattern, String rule) {
        checks.present(node, object, pointer, key, required, owner, rule);
        if (node == null) {
            return null;
        }
        // No form admits '$', so a match holds no template.
        if (node instanceof Json.Str string && pattern.matches(string.value())) {
            return string.value();
        }
        return checks.matching(node, child(pointer, key), what, pattern, rule);
    }

    <E> E word(Json node, Json.Obj object, String pointer, String key, boolean required, String owner, String what,
            Map<String, E> words) {
        if (node == null) {
            if (required) {
                checks.present(null, object, pointer, key, true, owner, "one of " + String.join(", ", words.keySet()));
            }
            return null;
        }
        E chosen = node instanceof Json.Str string ? words.get(string.value()) : null;
        return chosen != null ? chosen : checks.word(node, child(pointer, key), what, words);
    }

    /** An optional array; absent is empty. Items with problems are left out. */
    <T> List<T> list(Json node, String pointer, String key, String owner, String what, Read<T> read) {
        if (node == null) {
            return List.of();
        }
        String arrayPointer = child(pointer, key);
        Json.Arr array = node instanceof Json.Arr a ? a : checks.array(node, arrayPointer, "\"" + key + "\" of " + owner);
        if (array == null) {
            return List.of();
        }
        Object[] items = new Object[array.items().size()];
        int size = 0;
        for (int i = 0; i < items.length; i++) {
            T item = read.read(array.items().get(i), arrayPointer + "/" + i);
            if (item != null) {
                items[size++] = item;
            }
        }
        return immutable(items, size);
    }

    /**
     * The first {@code size} of {@code items} as an immutable list, which the model's records keep
     * as it is ({@code List.copyOf} returns it): an {@code ArrayList} was copied again by every
     * record. One or two items need no array at all.
     */
    @SuppressWarnings("unchecked")
    static <T> List<T> immutable(Object[] items, int size) {
        return switch (size) {
            case 0 -> List.of();
            case 1 -> List.of((T) items[0]);
            case 2 -> List.of((T) items[0], (T) items[1]);
            default -> (List<T>) List.of(size == items.length ? items : Arrays.copyOf(items, size));
        };
    }

    /** An optional array of names of one form; valid names (nearly all) need no pointer. */
    List<String> names(Json node, String pointer, String key, String owner, String what, Form form, String rule) {
        if (node == null) {
            return List.of();
        }
        if (node instanceof Json.Arr array) {
            Object[] names = new Object[array.items().size()];
            for (int i = 0; i < names.length; i++) {
                if (!(array.items().get(i) instanceof Json.Str name && form.matches(name.value()))) {
                    return list(node, pointer, key, owner, what, (n, p) -> checks.matching(n, p, what, form, rule));
                }
                names[i] = name.value();
            }
            return immutable(names, names.length);
        }
        return list(node, pointer, key, owner, what, (n, p) -> checks.matching(n, p, what, form, rule));
    }

    /** A process's or container's {@code run}: templates of every kind; a process needs at least one. */
    List<Template> run(Json node, Json.Obj object, String pointer, boolean required, String owner) {
        checks.present(node, object, pointer, "run", required, owner,
                "the program and its arguments, e.g. [\"./bin/server\", \"--port\", \"8080\"]");
        List<Template> run = list(node, pointer, "run", owner, "run argument",
                (n, p) -> template(n, p, "run argument", EVERY_KIND, false));
        if (required && node instanceof Json.Arr array && array.items().isEmpty()) {
            checks.error("empty-value", "\"run\" of " + owner + " is empty; give at least the program to run, e.g. "
                    + "[\"./bin/server\"]", checks.at(node, child(pointer, "run")));
        }
        return run;
    }

    /** An {@code env} object: keys in the environment-name form, values templates of every kind. */
    Map<String, Template> env(Json node, String pointer, String owner) {
        if (node == null) {
            return Map.of();
        }
        String envPointer = child(pointer, "env");
        Json.Obj map = checks.object(node, envPointer, "\"env\" of " + owner);
        if (map == null) {
            return Map.of();
        }
        Object[] names = new Object[map.members().size()];
        Object[] values = new Object[names.length];
        int size = 0;
        for (Json.Member variable : map.members().values()) {
            if (!Patterns.ENV.matches(variable.key())) {
                checks.error("invalid-format", "\"" + variable.key() + "\" is not a valid environment variable name: "
                        + Patterns.ENV_RULE, new Location(checks.file(), child(envPointer, variable.key()),
                        variable.line(), variable.column()));
                continue;
            }
            // A valid name has no '~' or '/' to escape.
            Template value = template(variable.value(), envPointer + "/" + variable.key(), "env value", EVERY_KIND, false);
            if (value != null) {
                names[size] = variable.key();
                values[size++] = value;
            }
        }
        return FrozenMap.of(names, values, size);
    }

    /**
     * A template string. When {@code absolute}, it must start with {@code /}, {@code ${dir:…}} or
     * {@code ${secret:…}}.
     */
    Template template(Json node, String pointer, String what, Set<Kind> allowed, boolean absolute) {
        String text = checks.text(node, pointer, what);
        if (text == null) {
            return null;
        }
        int before = checks.count();
        Template template = templates.scan(text, checks.at(node, pointer), allowed, what);
        if (checks.count() != before) {
            return null;
        }
        if (absolute && !isAbsolute(template)) {
            checks.error("invalid-path", what + " must be an absolute path, but \"" + text + "\" does not start with "
                    + "\"/\", ${dir:…} or ${secret:…}", checks.at(node, pointer));
            return null;
        }
        declared.templates.add(template);
        return template;
    }

    private static boolean isAbsolute(Template template) {
        if (template.segments().isEmpty()) {
            return false;
        }
        Segment first = template.segments().getFirst();
        return first instanceof Segment.Literal literal ? literal.text().startsWith("/")
                : first instanceof Reference.Dir || first instanceof Reference.Secret;
    }
}
