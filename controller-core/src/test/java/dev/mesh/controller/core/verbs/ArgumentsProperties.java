package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
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

    @Property(tries = 500)
    void extraName_isInvalidAtItsPointer_andChangesNothing(@ForAll("withExtras") Call call) {
        MemoryInventory inventory = new MemoryInventory();
        MemoryEvents events = new MemoryEvents();

        assertThatThrownBy(() -> ArgumentsTest.verbs(inventory, events).call(call.verb(), call.arguments()))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo(pointer(call.stopsAt()));
                    assertThat(e.getMessage()).startsWith("unknown argument " + JSON.writeValueAsString(call.stopsAt())
                            + " for " + call.verb() + "; ");
                });
        assertThat(inventory.modules()).isEmpty();
        assertThat(inventory.requested()).isEmpty();
        assertThat(events.events()).isEmpty();
    }

    @Property(tries = 300)
    void wrongValue_isInvalidAtItsPointer_sayingWhatItMustBe(@ForAll("withWrongValue") Call call) {
        assertThatThrownBy(() -> ArgumentsTest.verbs(new MemoryInventory(), new MemoryEvents())
                .call(call.verb(), call.arguments())).isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
                    assertThat(e.pointer()).isEqualTo(pointer(call.stopsAt()));
                    assertThat(e.getMessage()).startsWith("the argument \"" + call.stopsAt() + "\" must be ");
                });
    }

    @Property(tries = 500)
    void keptToTheSchema_neverFailsForItsNamesOrTypes(@ForAll("valid") Call call) {
        try {
            ArgumentsTest.verbs(new MemoryInventory(), new MemoryEvents()).call(call.verb(), call.arguments());
        } catch (VerbException e) {
            assertThat(e.getMessage()).doesNotStartWith("unknown argument").doesNotStartWith("the argument ");
        }
    }

    @Provide
    Arbitrary<Call> valid() {
        return Arbitraries.of(TOOLS).flatMap(tool -> known(tool).map(args -> new Call(tool.name(), object(args), null)));
    }

    @Provide
    Arbitrary<Call> withExtras() {
        return Arbitraries.of(TOOLS).flatMap(tool -> Combinators.combine(known(tool),
                extraName(tool).list().ofMinSize(1).ofMaxSize(3), values(), Arbitraries.longs())
                .as((known, extras, extraValue, seed) -> {
                    List<Map.Entry<String, JsonNode>> all = new ArrayList<>(known);
                    extras.forEach(name -> all.add(Map.entry(name, extraValue)));
                    Collections.shuffle(all, new Random(seed));
                    String first = all.stream().map(Map.Entry::getKey).filter(extras::contains).findFirst()
                            .orElseThrow();
                    return new Call(tool.name(), object(all), first);
                }));
    }

    @Provide
    Arbitrary<Call> withWrongValue() {
        List<Tool> withArguments = TOOLS.stream().filter(tool -> !tool.inputSchema().path("properties").isEmpty())
                .toList();
        return Arbitraries.of(withArguments).flatMap(tool -> Combinators.combine(known(tool),
                Arbitraries.of(tool.inputSchema().path("properties").propertyNames()))
                .flatAs((known, name) -> wrong(tool.inputSchema().path("properties").path(name)).map(value -> {
                    List<Map.Entry<String, JsonNode>> all = new ArrayList<>(known);
                    all.removeIf(entry -> entry.getKey().equals(name));
                    all.add(Map.entry(name, value));
                    return new Call(tool.name(), object(all), name);
                })));
    }

    /** @return every required argument and some optional ones, each with a value its schema allows */
    private static Arbitrary<List<Map.Entry<String, JsonNode>>> known(Tool tool) {
        JsonNode schema = tool.inputSchema();
        List<Arbitrary<List<Map.Entry<String, JsonNode>>>> parts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            Arbitrary<List<Map.Entry<String, JsonNode>>> present = right(property.getValue())
                    .map(value -> List.of(Map.entry(property.getKey(), value)));
            boolean required = schema.path("required").valueStream()
                    .anyMatch(name -> name.asString().equals(property.getKey()));
            parts.add(required ? present : Arbitraries.oneOf(present, Arbitraries.just(List.of())));
        }
        if (parts.isEmpty()) {
            return Arbitraries.just(List.of());
        }
        return Combinators.combine(parts).as(lists -> lists.stream().flatMap(List::stream).toList());
    }

    private static Arbitrary<String> extraName(Tool tool) {
        JsonNode properties = tool.inputSchema().path("properties");
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(12),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(10),
                Arbitraries.of(properties.propertyNames().isEmpty() ? List.of("name") : properties.propertyNames())
                        .map(name -> name + "s"),
                Arbitraries.of("artefact", "module ", "Module", "a/b", "~", ""))
                .filter(name -> !properties.has(name));
    }

    /** @return values of one of the schema's types, and of its {@code minLength} */
    private static Arbitrary<JsonNode> right(JsonNode schema) {
        int minLength = schema.path("minLength").asInt(0);
        List<Arbitrary<JsonNode>> choices = new ArrayList<>();
        for (String type : types(schema)) {
            choices.add(switch (type) {
                case "string" -> Arbitraries.strings().ofMinLength(minLength).ofMaxLength(minLength + 12)
                        .map(JSON::valueToTree);
                case "object" -> Arbitraries.maps(Arbitraries.strings().ofMaxLength(6), Arbitraries.strings()
                        .ofMaxLength(6)).ofMaxSize(3).map(JSON::valueToTree);
                case "array" -> Arbitraries.strings().list().ofMaxSize(3).map(JSON::valueToTree);
                case "boolean" -> Arbitraries.of(true, false).map(JSON::valueToTree);
                case "number" -> Arbitraries.integers().map(JSON::valueToTree);
                case "null" -> Arbitraries.just(JSON.nullNode());
                default -> throw new IllegalStateException("no values for type " + type);
            });
        }
        return Arbitraries.oneOf(choices);
    }

    /** @return values the schema does not allow: another type, or a string shorter than its {@code minLength} */
    private static Arbitrary<JsonNode> wrong(JsonNode schema) {
        List<String> types = types(schema);
        Arbitrary<JsonNode> otherType = values().filter(value -> !types.contains(kind(value)));
        int minLength = schema.path("minLength").asInt(0);
        return minLength > 0 && types.contains("string") ? Arbitraries.oneOf(otherType, Arbitraries.strings()
                .withCharRange('a', 'z').ofMaxLength(minLength - 1).map(JSON::valueToTree)) : otherType;
    }

    /** @return any JSON value, of every kind */
    private static Arbitrary<JsonNode> values() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(8).map(JSON::valueToTree),
                Arbitraries.integers().map(JSON::valueToTree), Arbitraries.doubles().map(JSON::valueToTree),
                Arbitraries.of(true, false).map(JSON::valueToTree), Arbitraries.just(JSON.nullNode()),
                Arbitraries.just(JSON.createObjectNode()), Arbitraries.just(JSON.createArrayNode().add(1)));
    }

    private static List<String> types(JsonNode schema) {
        JsonNode type = schema.path("type");
        return type.isArray() ? type.valueStream().map(JsonNode::asString).toList() : List.of(type.asString());
    }

    private static String kind(JsonNode value) {
        return value.isNumber() ? "number" : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
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
