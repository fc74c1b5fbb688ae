package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * JSON as the properties generate it: a tree that can hold duplicate keys, and a writer that
 * remembers where it wrote each value and each key, so that problem locations can be checked.
 */
final class GeneratedJson {

    private GeneratedJson() {
    }

    /** A JSON value as generated: objects keep every member, duplicates included, in order. */
    sealed interface Value permits Obj, Arr, Str, Num, Bool, Null {

        static Value from(JsonNode node) {
            if (node.isObject()) {
                return new Obj(node.properties().stream().map(e -> new Member(e.getKey(), from(e.getValue()))).toList());
            } else if (node.isArray()) {
                return new Arr(node.values().stream().map(Value::from).toList());
            } else if (node.isString()) {
                return new Str(node.stringValue());
            } else if (node.isNumber()) {
                return new Num(node.toString());
            } else if (node.isBoolean()) {
                return new Bool(node.booleanValue());
            }
            return new Null();
        }
    }

    record Member(String key, Value value) {
    }

    record Obj(List<Member> members) implements Value {
    }

    record Arr(List<Value> items) implements Value {
    }

    record Str(String value) implements Value {
    }

    record Num(String text) implements Value {
    }

    record Bool(boolean value) implements Value {
    }

    record Null() implements Value {
    }

    /** RFC 6901 on the generated tree, the first of duplicate keys winning; {@code null} when absent. */
    static Value resolve(Value root, String pointer) {
        if (pointer.isEmpty()) {
            return root;
        }
        Value value = root;
        for (String raw : pointer.substring(1).split("/", -1)) {
            String token = raw.replace("~1", "/").replace("~0", "~");
            value = switch (value) {
                case Obj obj -> obj.members().stream().filter(m -> m.key().equals(token)).map(Member::value)
                        .findFirst().orElse(null);
                case Arr arr -> token.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(token) < arr.items().size()
                        ? arr.items().get(Integer.parseInt(token)) : null;
                default -> null;
            };
            if (value == null) {
                return null;
            }
        }
        return value;
    }

    static boolean hasDuplicateKeys(Value value) {
        return switch (value) {
            case Obj obj -> obj.members().stream().map(Member::key).distinct().count() < obj.members().size()
                    || obj.members().stream().anyMatch(m -> hasDuplicateKeys(m.value()));
            case Arr arr -> arr.items().stream().anyMatch(GeneratedJson::hasDuplicateKeys);
            default -> false;
        };
    }

    /** Where each value (and each member's key) starts, by pointer; several when keys repeat. */
    record Written(String text, Map<String, List<Position>> values, Map<String, List<Position>> keys,
            Map<String, List<Boolean>> escaped) {

        /** Asserts that a problem's location, and its related locations, are where the JSON text writes them. */
        void assertLocated(Problem problem) {
            locate(problem, problem.location());
            problem.related().forEach(related -> locate(problem, related));
        }

        private void locate(Problem problem, Location location) {
            String pointer = location.pointer();
            Position at = new Position(location.line(), location.column());
            List<Position> value = values.getOrDefault(pointer, List.of());
            List<Position> key = keys.getOrDefault(pointer, List.of());
            String code = problem.code();
            if (code.startsWith("template-") && !code.equals("template-not-allowed")) {
                // The column of the "${" inside the string; exact when no escape sequence precedes it.
                assertThat(value).as("template %s is in a string at %s", problem, pointer).isNotEmpty();
                assertThat(at.line()).as("line of %s", problem).isEqualTo(value.getFirst().line());
                String line = text.lines().toList().get(at.line() - 1);
                // A warning of the old form points at its "$<".
                String start = code.equals("template-angle-reference") ? "$<" : "${";
                if (!escaped.get(pointer).getFirst()) {
                    assertThat(line.substring(Math.min(line.length(), at.column() - 1)))
                            .as("%s points at a \"%s\" in line %s", problem, start, line).startsWith(start);
                }
            } else if (code.equals("unknown-field") || code.equals("duplicate-key")) {
                assertThat(key).as("%s is where its key is written", problem).contains(at);
            } else if (code.equals("invalid-format") && !key.isEmpty() && key.contains(at)) {
                return; // a malformed secret or env name is located at its key
            } else {
                assertThat(value).as("%s is where its value is written", problem).contains(at);
            }
        }
    }

    record Position(int line, int column) {
    }

    /** Writes a {@link Value} as JSON, compact or one member per line, remembering positions. */
    static final class Writer {

        private final StringBuilder out = new StringBuilder();
        private final boolean pretty;
        private final Map<String, List<Position>> values = new HashMap<>();
        private final Map<String, List<Position>> keys = new HashMap<>();
        private final Map<String, List<Boolean>> escaped = new HashMap<>();
        private int line = 1;
        private int lineStart;

        private Writer(boolean pretty) {
            this.pretty = pretty;
        }

        static Written write(Value value, boolean pretty) {
            Writer writer = new Writer(pretty);
            writer.value(value, "", 0);
            return new Written(writer.out.toString(), writer.values, writer.keys, writer.escaped);
        }

        /** RFC 6901, written here independently of the code under test. */
        static String child(String pointer, String token) {
            return pointer + "/" + token.replace("~", "~0").replace("/", "~1");
        }

        private void value(Value value, String pointer, int indent) {
            values.computeIfAbsent(pointer, p -> new ArrayList<>()).add(position());
            switch (value) {
                case Obj obj -> {
                    out.append('{');
                    for (int i = 0; i < obj.members().size(); i++) {
                        Member member = obj.members().get(i);
                        separator(i, indent + 1);
                        String child = child(pointer, member.key());
                        keys.computeIfAbsent(child, p -> new ArrayList<>()).add(position());
                        string(member.key());
                        out.append(pretty ? ": " : ":");
                        value(member.value(), child, indent + 1);
                    }
                    close(obj.members().isEmpty(), indent, '}');
                }
                case Arr arr -> {
                    out.append('[');
                    for (int i = 0; i < arr.items().size(); i++) {
                        separator(i, indent + 1);
                        value(arr.items().get(i), pointer + "/" + i, indent + 1);
                    }
                    close(arr.items().isEmpty(), indent, ']');
                }
                case Str str -> escaped.computeIfAbsent(pointer, p -> new ArrayList<>()).add(string(str.value()));
                case Num num -> out.append(num.text());
                case Bool bool -> out.append(bool.value());
                case Null n -> out.append("null");
            }
        }

        private void separator(int index, int indent) {
            if (index > 0) {
                out.append(',');
            }
            if (pretty) {
                newline(indent);
            }
        }

        private void close(boolean empty, int indent, char bracket) {
            if (pretty && !empty) {
                newline(indent);
            }
            out.append(bracket);
        }

        private void newline(int indent) {
            out.append('\n');
            line++;
            lineStart = out.length();
            out.append("  ".repeat(indent));
        }

        /** @return whether an escape sequence was needed */
        private boolean string(String s) {
            boolean escapes = false;
            out.append('"');
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                    escapes = true;
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                    escapes = true;
                } else {
                    out.append(c);
                }
            }
            out.append('"');
            return escapes;
        }

        private Position position() {
            return new Position(line, out.length() - lineStart + 1);
        }
    }
}
