package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.VerbException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reading a verb's arguments: a missing or malformed one is {@code invalid}, with its pointer. */
final class Arguments {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Arguments() {
    }

    static String text(JsonNode args, String name) {
        String value = optionalText(args, name);
        if (value == null) {
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" is required: a "
                    + "non-empty string", "/" + name);
        }
        return value;
    }

    static String optionalText(JsonNode args, String name) {
        JsonNode value = args.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString() || value.asString().isEmpty()) {
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" must be a non-empty "
                    + "string, not " + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT), "/" + name);
        }
        return value.asString();
    }

    /**
     * @return the argument as JSON text: a string as it is, an object written out
     * @throws VerbException {@code invalid} when it is missing or neither
     */
    static String document(JsonNode args, String name) {
        JsonNode value = args.get(name);
        if (value != null && value.isString()) {
            return value.asString();
        }
        if (value != null && value.isObject()) {
            return MAPPER.writeValueAsString(value);
        }
        throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" is required: a JSON "
                + "document, as text or as an object", "/" + name);
    }
}
