package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Suggestions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed, located access to the fields of a {@link Json} tree. Every accessor adds a problem and
 * returns {@code null} when the value is absent-but-required, of the wrong type or malformed, so
 * the caller reads on and all problems of a document are found in one pass.
 */
final class Checks {

    /** Lists up to this long are checked for repeats without a map. */
    private static final int SHORT = 16;

    private final String file;
    private final List<Problem> problems;
    private final List<Problem> warnings;

    /**
     * @param problems where errors are added
     * @param warnings where warnings are added: apart, so that counting problems counts errors
     */
    Checks(String file, List<Problem> problems, List<Problem> warnings) {
        this.file = file;
        this.problems = problems;
        this.warnings = warnings;
    }

    String file() {
        return file;
    }

    /** The live list problems are added to. */
    List<Problem> problems() {
        return problems;
    }

    /** The live list warnings are added to. */
    List<Problem> warnings() {
        return warnings;
    }

    /** @return the number of errors so far */
    int count() {
        return problems.size();
    }

    Location at(Json node, String pointer) {
        return new Location(file, pointer, node.line(), node.column());
    }

    void add(Problem problem) {
        problems.add(problem);
    }

    void error(String code, String message, Location location) {
        problems.add(Problem.error(code, message, location));
    }

    /** An object, or a {@code wrong-type} problem. */
    Json.Obj object(Json node, String pointer, String what) {
        if (node instanceof Json.Obj object) {
            return object;
        }
        wrongType(node, pointer, what, "an object {…}");
        return null;
    }

    /** An array, or a {@code wrong-type} problem. */
    Json.Arr array(Json node, String pointer, String what) {
        if (node instanceof Json.Arr array) {
            return array;
        }
        wrongType(node, pointer, what, "an array […]");
        return null;
    }

    /** Reports every member of {@code object} whose key is not in {@code known}. */
    void onlyKnown(Json.Obj object, String pointer, String what, List<String> known) {
        for (Json.Member member : object.members().values()) {
            if (!isKnown(member.key(), known)) {
                unknown(member, pointer, what, known);
            }
        }
    }

    /**
     * Whether {@code known} holds {@code key}. Keys are interned ({@link JsonReader}), like the
     * literals of {@code known}, so comparing references finds every known key; {@code contains}
     * only confirms the rare unknown one. Saved a few percent of a parse over {@code contains} alone.
     */
    private static boolean isKnown(String key, List<String> known) {
        for (int i = 0; i < known.size(); i++) {
            if (known.get(i) == key) {
                return true;
            }
        }
        return known.contains(key);
    }

    /** An {@code unknown-field} problem: {@code member} of the object at {@code pointer} is not in {@code known}. */
    void unknown(Json.Member member, String pointer, String what, List<String> known) {
        Problem problem = Problem.error("unknown-field", "unknown field \"" + member.key() + "\" in " + what
                + "; remove it, or use one of: " + String.join(", ", known),
                new Location(file, Location.child(pointer, member.key()), member.line(), member.column()));
        problems.add(Suggestions.hint(member.key(), known).map(problem::withHint).orElse(problem));
    }

    /** A {@code missing-field} problem when {@code node}, the value of {@code key}, is absent but required. */
    void present(Json node, Json.Obj object, String pointer, String key, boolean required, String what, String rule) {
        if (node == null && required) {
            error("missing-field", what + " lacks the required field \"" + key + "\"; add it: " + rule,
                    at(object, pointer));
        }
    }

    /** A string that may hold templates; {@code null} with a problem when it is not a string. */
    String text(Json node, String pointer, String what) {
        if (node instanceof Json.Str string) {
            return string.value();
        }
        wrongType(node, pointer, what, "a string");
        return null;
    }

    /** A string that must hold no template: a {@code ${} in it is {@code template-not-allowed}. */
    String plain(Json node, String pointer, String what) {
        String value = text(node, pointer, what);
        if (value != null && value.contains("${")) {
            error("template-not-allowed", what + " takes no templates, but \"" + value + "\" contains \"${\"; "
                    + "templates are allowed only in accesses paths, own-secrets values, container mount sources "
                    + "and the run and env of processes and containers", at(node, pointer));
            return null;
        }
        return value;
    }

    /** A plain string matching {@code pattern} entirely. */
    String matching(Json node, String pointer, String what, Form pattern, String rule) {
        String value = plain(node, pointer, what);
        if (value != null && !pattern.matches(value)) {
            error("invalid-format", "\"" + value + "\" is not a valid " + what + ": " + rule, at(node, pointer));
            return null;
        }
        return value;
    }

    /** A plain, non-empty string. */
    String nonEmpty(Json node, String pointer, String what) {
        String value = plain(node, pointer, what);
        if (value != null && value.isEmpty()) {
            error("empty-value", what + " is empty; give it a value", at(node, pointer));
            return null;
        }
        return value;
    }

    /** One of the allowed words, mapped to its value. */
    <E> E word(Json node, String pointer, String what, Map<String, E> words) {
        String value = plain(node, pointer, what);
        if (value == null) {
            return null;
        }
        E chosen = words.get(value);
        if (chosen == null) {
            Problem problem = Problem.error("invalid-value", "\"" + value + "\" is not a valid " + what
                    + "; write one of: " + String.join(", ", words.keySet()), at(node, pointer));
            problems.add(Suggestions.hint(value, words.keySet()).map(problem::withHint).orElse(problem));
        }
        return chosen;
    }

    /** A boolean. */
    Boolean bool(Json node, String pointer, String what) {
        if (node instanceof Json.Bool bool) {
            return bool.value();
        }
        wrongType(node, pointer, what, "true or false");
        return null;
    }

    /** An absolute path without templates. */
    String absolutePath(Json node, String pointer, String what) {
        String value = plain(node, pointer, what);
        if (value != null && !value.startsWith("/")) {
            error("invalid-path", what + " must be an absolute path, but \"" + value + "\" does not start with \"/\"",
                    at(node, pointer));
            return null;
        }
        return value;
    }

    /** A relative path inside the module: not empty, not absolute, no empty or {@code ..} segment. */
    String relativePath(Json node, String pointer, String what) {
        String value = plain(node, pointer, what);
        if (value == null) {
            return null;
        }
        if (!isRelativePath(value)) {
            error("invalid-path", what + " must be a relative path inside the module, like \"controller-launcher\","
                    + " but \"" + value + "\" " + (value.startsWith("/") ? "is absolute" : "has an empty or \"..\" segment"),
                    at(node, pointer));
            return null;
        }
        return value;
    }

    /** Whether {@code value} is a relative path inside the module: not empty, not absolute, no empty or {@code ..} segment. */
    static boolean isRelativePath(String value) {
        return !(value.isEmpty() || value.startsWith("/") || value.endsWith("/") || value.contains("//")
                || value.equals("..") || value.startsWith("../") || value.endsWith("/..") || value.contains("/../"));
    }

    /** Whether {@code value} is a file name: no directory part. */
    static boolean isFileName(String value) {
        return Patterns.FILE_NAME.matches(value) && !value.equals(".") && !value.equals("..");
    }

    /** A file name: no directory part. */
    String fileName(Json node, String pointer, String what) {
        String value = plain(node, pointer, what);
        if (value != null && !isFileName(value)) {
            error("invalid-path", what + " must be a file name (letters, digits, '.', '_', '+', '-'; no '/'), but it is \""
                    + value + "\"", at(node, pointer));
            return null;
        }
        return value;
    }

    private void wrongType(Json node, String pointer, String what, String expected) {
        error("wrong-type", what + " must be " + expected + ", but it is " + article(node.typeName()),
                at(node, pointer));
    }

    private static String article(String type) {
        return switch (type) {
            case "object", "array" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    /** Reports repeated names in an array of objects (by {@code key}) or of strings ({@code key} null). */
    void unique(String what, Json list, String parentPointer, String arrayKey, String key) {
        if (!(list instanceof Json.Arr array) || array.items().size() < 2) {
            return;
        }
        // Names to the index of their first item; locations are made only for a repeat. Short
        // lists (all of a manifest's) are searched in place.
        Map<String, Integer> seen = array.items().size() > SHORT ? new HashMap<>() : null;
        for (int i = 0; i < array.items().size(); i++) {
            Json named = name(array.items().get(i), key);
            if (named instanceof Json.Str string) {
                Integer first = seen != null ? seen.putIfAbsent(string.value(), i) : earlier(array, key, i, string.value());
                if (first != null) {
                    String pointer = Location.child(parentPointer, arrayKey);
                    Location here = nameLocation(named, pointer, i, key);
                    Location there = nameLocation(name(array.items().get(first), key), pointer, first, key);
                    add(Problem.error("duplicate-name", "the " + what + " \"" + string.value()
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
        return at(named, key == null ? itemPointer : Location.child(itemPointer, key));
    }

    /** The index of the first item before {@code end} named {@code name}, or {@code null}. */
    private static Integer earlier(Json.Arr array, String key, int end, String name) {
        for (int j = 0; j < end; j++) {
            if (name(array.items().get(j), key) instanceof Json.Str string && string.value().equals(name)) {
                return j;
            }
        }
        return null;
    }
}
