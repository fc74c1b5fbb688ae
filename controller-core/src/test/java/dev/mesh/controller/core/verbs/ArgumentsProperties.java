package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Over every tool of the list and argument objects built from its own input schema: an extra name
 * is {@code invalid} at its pointer and changes nothing; a known name with a value its schema does
 * not allow is {@code invalid} at its pointer; arguments that keep to the schema never fail for
 * their names or types. Never another exception.
 */
class ArgumentsProperties {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<Tool> TOOLS = ArgumentsTest.verbs(new MemoryInventory(), new MemoryEvents()).tools();

    /** A verb's arguments, and the name of the argument the check must stop at, if any. */
    record Call(String verb, ObjectNode arguments, String stopsAt) {
    }

    @Test
    void extraName_isInvalidAtItsPointer_andChangesNothing() {
        qt().withExamples(500).forAll(withExtras()).checkAssert(call -> {
            MemoryInventory inventory = new MemoryInventory();
            MemoryEvents events = new MemoryEvents();

            assertThatThrownBy(() -> ArgumentsTest.verbs(inventory, events).call(call.verb(), call.arguments()))
                    .isInstanceOfSatisfying(VerbException.class, e -> {
                        assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                        assertThat(e.pointer()).isEqualTo(pointer(call.stopsAt()));
                        assertThat(e.getMessage()).startsWith("unknown argument "
                                + JSON.writeValueAsString(call.stopsAt()) + " for " + call.verb() + "; ");
                    });
            assertThat(inventory.modules()).isEmpty();
            assertThat(inventory.requested()).isEmpty();
            assertThat(events.events()).isEmpty();
        });
    }

    @Test
    void wrongValue_isInvalidAtItsPointer_sayingWhatItMustBe() {
        qt().withExamples(300).forAll(withWrongValue()).checkAssert(call -> assertThatThrownBy(() -> ArgumentsTest
                .verbs(new MemoryInventory(), new MemoryEvents()).call(call.verb(), call.arguments()))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo(pointer(call.stopsAt()));
                    assertThat(e.getMessage()).startsWith("the argument \"" + call.stopsAt() + "\" must be ");
                }));
    }

    @Test
    void keptToTheSchema_neverFailsForItsNamesOrTypes() {
        qt().withExamples(500).forAll(valid()).checkAssert(call -> {
            try {
                ArgumentsTest.verbs(new MemoryInventory(), new MemoryEvents()).call(call.verb(), call.arguments());
            } catch (VerbException e) {
                assertThat(e.getMessage()).doesNotStartWith("unknown argument").doesNotStartWith("the argument ");
            }
        });
    }

    /** @return a call of any tool with what {@link #known} gives it */
    private static Gen<Call> valid() {
        return arbitrary().pick(TOOLS)
                .flatMap(tool -> known(tool).map(args -> new Call(tool.name(), object(args), null)));
    }

    /** @return a call with 1 to 3 names its tool does not know among the known ones, stopping at the first */
    private static Gen<Call> withExtras() {
        return arbitrary().pick(TOOLS).flatMap(tool -> known(tool).zip(
                lists().of(extraName(tool)).ofSizeBetween(1, 3), values(), longs().all(),
                (known, extras, extraValue, seed) -> {
                    List<Map.Entry<String, JsonNode>> all = new ArrayList<>(known);
                    extras.forEach(name -> all.add(Map.entry(name, extraValue)));
                    Collections.shuffle(all, new Random(seed));
                    String first = all.stream().map(Map.Entry::getKey).filter(extras::contains).findFirst()
                            .orElseThrow();
                    return new Call(tool.name(), object(all), first);
                }));
    }

    /** @return a call of a tool that has arguments, one of them with a value its schema does not allow */
    private static Gen<Call> withWrongValue() {
        List<Tool> withArguments = TOOLS.stream().filter(tool -> !tool.inputSchema().path("properties").isEmpty())
                .toList();
        return arbitrary().pick(withArguments).flatMap(tool -> {
            JsonNode properties = tool.inputSchema().path("properties");
            return arbitrary().pick(List.copyOf(properties.propertyNames())).flatMap(name -> known(tool)
                    .zip(wrong(properties.path(name)), (known, value) -> {
                        List<Map.Entry<String, JsonNode>> all = new ArrayList<>(known);
                        all.removeIf(entry -> entry.getKey().equals(name));
                        all.add(Map.entry(name, value));
                        return new Call(tool.name(), object(all), name);
                    }));
        });
    }

    /** @return every required argument and some optional ones, each with a value its schema allows */
    private static Gen<List<Map.Entry<String, JsonNode>>> known(Tool tool) {
        JsonNode schema = tool.inputSchema();
        List<Map.Entry<String, JsonNode>> none = List.of();
        Gen<List<Map.Entry<String, JsonNode>>> all = Generate.constant(none);
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            Gen<List<Map.Entry<String, JsonNode>>> present = right(property.getValue())
                    .map(value -> List.of(Map.entry(property.getKey(), value)));
            boolean required = schema.path("required").valueStream()
                    .anyMatch(name -> name.asString().equals(property.getKey()));
            Gen<List<Map.Entry<String, JsonNode>>> part = required ? present
                    : Generate.oneOf(Generate.constant(none), present);
            all = all.zip(part, (before, more) -> {
                List<Map.Entry<String, JsonNode>> both = new ArrayList<>(before);
                both.addAll(more);
                return both;
            });
        }
        return all;
    }

    private static Gen<String> extraName(Tool tool) {
        JsonNode properties = tool.inputSchema().path("properties");
        List<String> names = properties.propertyNames().isEmpty() ? List.of("name")
                : List.copyOf(properties.propertyNames());
        return Generate.oneOf(text(0, 12), strings().betweenCodePoints('a', 'z').ofLengthBetween(1, 10),
                arbitrary().pick(names).map(name -> name + "s"),
                arbitrary().pick("artefact", "module ", "Module", "a/b", "~", ""))
                .assuming(name -> !properties.has(name));
    }

    /** @return values of one of the schema's types, and of its {@code minLength} */
    private static Gen<JsonNode> right(JsonNode schema) {
        int minLength = schema.path("minLength").asInt(0);
        List<Gen<JsonNode>> choices = new ArrayList<>();
        for (String type : types(schema)) {
            choices.add(switch (type) {
                case "string" -> json(text(minLength, minLength + 12));
                case "object" -> json(lists().of(text(0, 6).zip(text(0, 6), Pair::of)).ofSizeBetween(0, 3)
                        .map(entries -> {
                            Map<String, String> map = new LinkedHashMap<>();
                            entries.forEach(entry -> map.putIfAbsent(entry._1, entry._2));
                            return map;
                        }));
                case "array" -> json(lists().of(text(0, 12)).ofSizeBetween(0, 3));
                case "boolean" -> json(booleans().all());
                case "number" -> json(integers().all());
                case "integer" -> json(integers().between(schema.path("minimum").asInt(Integer.MIN_VALUE),
                        schema.path("maximum").asInt(Integer.MAX_VALUE)));
                case "null" -> Generate.constant(JSON::nullNode);
                default -> throw new IllegalStateException("no values for type " + type);
            });
        }
        return anyOf(choices);
    }

    /**
     * @return values the schema does not allow: another type, a string shorter than its {@code minLength},
     *     or for an integer a number with a fraction or out of its bounds
     */
    private static Gen<JsonNode> wrong(JsonNode schema) {
        List<String> types = types(schema);
        boolean integer = types.contains("integer");
        Gen<JsonNode> otherType = values(kind -> !types.contains(kind) && !(integer && kind.equals("number")));
        int minLength = schema.path("minLength").asInt(0);
        if (minLength > 0 && types.contains("string")) {
            return Generate.oneOf(otherType,
                    json(strings().betweenCodePoints('a', 'z').ofLengthBetween(0, minLength - 1)));
        }
        if (integer) {
            long minimum = schema.path("minimum").asLong(Integer.MIN_VALUE);
            long maximum = schema.path("maximum").asLong(Integer.MAX_VALUE);
            return Generate.oneOf(otherType, json(doubles().between(minimum, maximum).map(d -> Math.floor(d) + 0.5)),
                    json(longs().between(Long.MIN_VALUE, minimum - 1)), json(longs().between(maximum + 1, Long.MAX_VALUE)));
        }
        return otherType;
    }

    /** @return any JSON value, of every kind */
    private static Gen<JsonNode> values() {
        return values(kind -> true);
    }

    /** @return JSON values of every kind (a type of JSON Schema) {@code kinds} accepts */
    private static Gen<JsonNode> values(Predicate<String> kinds) {
        List<Pair<String, Gen<JsonNode>>> all = List.of(Pair.of("string", json(text(0, 8))),
                Pair.of("number", json(integers().all())), Pair.of("number", json(doubles().any())),
                Pair.of("boolean", json(booleans().all())), Pair.of("null", Generate.constant(JSON::nullNode)),
                Pair.of("object", Generate.constant(JSON::createObjectNode)),
                Pair.of("array", Generate.constant(() -> JSON.createArrayNode().add(1))));
        return anyOf(all.stream().filter(value -> kinds.test(value._1)).map(value -> value._2).toList());
    }

    /**
     * @return strings of {@code min} to {@code max} code points: mostly printable ASCII, then any of
     *     the basic multilingual plane but surrogates, then of the other planes
     */
    private static Gen<String> text(int min, int max) {
        Gen<Integer> codePoints = Generate.frequency(List.of(Pair.of(6, integers().between(' ', '~')),
                Pair.of(3, integers().between(0, Character.MIN_SURROGATE - 1)),
                Pair.of(1, integers().between(Character.MAX_SURROGATE + 1, Character.MAX_CODE_POINT))));
        return lists().of(codePoints).ofSizeBetween(min, max).map(list -> {
            StringBuilder text = new StringBuilder();
            list.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    /** @return a value of one of {@code choices}; shrinks toward the first */
    private static Gen<JsonNode> anyOf(List<Gen<JsonNode>> choices) {
        return arbitrary().pick(choices).flatMap(choice -> choice);
    }

    private static Gen<JsonNode> json(Gen<?> values) {
        return values.map(JSON::valueToTree);
    }

    private static List<String> types(JsonNode schema) {
        JsonNode type = schema.path("type");
        return type.isArray() ? type.valueStream().map(JsonNode::asString).toList() : List.of(type.asString());
    }

    private static ObjectNode object(List<Map.Entry<String, JsonNode>> entries) {
        ObjectNode object = JSON.createObjectNode();
        entries.forEach(entry -> object.set(entry.getKey(), entry.getValue()));
        return object;
    }

    /** RFC 6901, written out here rather than taken from the code under test. */
    private static String pointer(String name) {
        return "/" + name.replace("~", "~0").replace("/", "~1");
    }
}
