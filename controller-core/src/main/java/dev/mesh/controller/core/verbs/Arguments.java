package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.manifest.Suggestions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reading a verb's arguments: {@link #check} holds them to the verb's input schema (the one the
 * tool list publishes), and the readers take them out; a missing, unknown or malformed one is
 * {@code invalid}, with its pointer.
 *
 * <p>Stateless; thread-safe.
 */
final class Arguments {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Arguments() {
    }

    /**
     * Checks a verb's arguments against the input schema of the tool of that name, when there is
     * one (an unknown verb is the caller's to report): every name must be one of the schema's
     * {@code properties} unless it allows {@code additionalProperties}, every {@code required} one
     * must be there, and each must have its {@code type} and {@code minLength}, and an integer its
     * {@code minimum} and {@code maximum} ({@code description} says what it is for, and holds nothing).
     *
     * @param tools the verbs as tools
     * @param verb the verb called
     * @param args its arguments, an object
     * @throws VerbException {@code invalid} at the pointer of the first argument that breaks its schema
     */
    static void check(List<Tool> tools, String verb, JsonNode args) {
        for (Tool tool : tools) {
            if (tool.name().equals(verb)) {
                check(tool, args);
                return;
            }
        }
    }

    private static void check(Tool tool, JsonNode args) {
        JsonNode schema = tool.inputSchema();
        JsonNode properties = schema.path("properties");
        if (!schema.path("additionalProperties").asBoolean(true)) {
            for (String name : args.propertyNames()) {
                if (!properties.has(name)) {
                    throw unknown(tool.name(), name, properties.propertyNames());
                }
            }
        }
        for (JsonNode required : schema.path("required")) {
            String name = required.asString();
            if (!args.has(name)) {
                throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" is required: "
                        + expected(properties.path(name)), pointer(name));
            }
        }
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            JsonNode value = args.get(property.getKey());
            if (value != null) {
                checkValue(property.getKey(), value, property.getValue());
            }
        }
    }

    private static VerbException unknown(String verb, String name, Collection<String> known) {
        String hint = Suggestions.hint(name, known).map(text -> text + " ").orElse("");
        String takes = known.isEmpty() ? "no arguments" : String.join(", ", known);
        return new VerbException(VerbException.Code.INVALID, "unknown argument " + MAPPER.writeValueAsString(name)
                + " for " + verb + "; " + hint + verb + " takes " + takes, pointer(name));
    }

    private static void checkValue(String name, JsonNode value, JsonNode schema) {
        String kind = kind(value);
        List<String> types = types(schema);
        if (!types.isEmpty() && !types.contains(kind) && !(kind.equals("number") && types.contains("integer"))) {
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" must be "
                    + expected(schema) + ", not " + kind, pointer(name));
        }
        int length = value.isString() ? value.asString().codePointCount(0, value.asString().length()) : 0;
        if (value.isString() && length < schema.path("minLength").asInt(0)) {
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" must be "
                    + expected(schema) + ", not " + (length == 0 ? "an empty string"
                    : "a string of " + length + " characters"), pointer(name));
        }
        if (value.isNumber() && types.contains("integer") && !types.contains("number") && !within(value, schema)) {
            // Named by its value: "not 0", "not 2.5", where a type's name would not say what is wrong.
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" must be "
                    + expected(schema) + ", not " + value, pointer(name));
        }
    }

    /** @return whether a number is an integer (also written {@code 5.0}, as JSON Schema has it) within the schema's bounds */
    private static boolean within(JsonNode value, JsonNode schema) {
        if (!value.canConvertToExactIntegral()) {
            return false;
        }
        BigDecimal number = value.decimalValue();
        JsonNode minimum = schema.path("minimum");
        JsonNode maximum = schema.path("maximum");
        return (!minimum.isNumber() || number.compareTo(minimum.decimalValue()) >= 0)
                && (!maximum.isNumber() || number.compareTo(maximum.decimalValue()) <= 0);
    }

    /** @return what a schema allows, in words: {@code a non-empty string}, {@code a string or an object} */
    private static String expected(JsonNode schema) {
        int minLength = schema.path("minLength").asInt(0);
        List<String> words = new ArrayList<>();
        for (String type : types(schema)) {
            words.add(switch (type) {
                case "string" -> minLength == 1 ? "a non-empty string"
                        : minLength > 1 ? "a string of at least " + minLength + " characters" : "a string";
                case "object", "array" -> "an " + type;
                case "integer" -> "an integer" + range(schema);
                case "null" -> "null";
                default -> "a " + type;
            });
        }
        return words.isEmpty() ? "any JSON value" : String.join(" or ", words);
    }

    /** @return an integer's bounds, in words: {@code  from 1 to 1000}, {@code  of at least 1}, or nothing */
    private static String range(JsonNode schema) {
        JsonNode minimum = schema.path("minimum");
        JsonNode maximum = schema.path("maximum");
        if (minimum.isNumber() && maximum.isNumber()) {
            return " from " + minimum + " to " + maximum;
        }
        return minimum.isNumber() ? " of at least " + minimum : maximum.isNumber() ? " of at most " + maximum : "";
    }

    private static List<String> types(JsonNode schema) {
        JsonNode type = schema.path("type");
        return type.isArray() ? type.valueStream().map(JsonNode::asString).toList()
                : type.isString() ? List.of(type.asString()) : List.of();
    }

    /** @return the JSON Schema type of a value: every number is a {@code number}, which an {@code integer} must also be */
    private static String kind(JsonNode value) {
        return value.isNumber() ? "number" : value.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** @return the JSON pointer (RFC 6901) of a top-level argument */
    private static String pointer(String name) {
        return "/" + name.replace("~", "~0").replace("/", "~1");
    }

    /**
     * @return a string argument {@link #check} found there (its schema requires it)
     */
    static String text(JsonNode args, String name) {
        return args.get(name).asString();
    }

    /** @return a string argument {@link #check} let through, or {@code null} when it is not given */
    static String optionalText(JsonNode args, String name) {
        JsonNode value = args.get(name);
        return value == null ? null : value.asString();
    }

    /**
     * @return an integer argument {@link #check} held to its schema's bounds, or {@code absent} when it is
     *     not given
     */
    static int integer(JsonNode args, String name, int absent) {
        JsonNode value = args.get(name);
        return value == null ? absent : value.intValue();
    }

    /** @return a string-or-object argument {@link #check} found there, as JSON text: a string as it is, an object written out */
    static String document(JsonNode args, String name) {
        JsonNode value = args.get(name);
        return value.isString() ? value.asString() : MAPPER.writeValueAsString(value);
    }
}
