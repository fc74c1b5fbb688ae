package dev.mesh.controller.core;

import tools.jackson.databind.JsonNode;

/** Reading a verb's arguments: a missing or malformed one is {@code invalid}, with its pointer. */
final class Arguments {

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

    static JsonNode object(JsonNode args, String name) {
        JsonNode value = args.get(name);
        if (value == null || !value.isObject()) {
            throw new VerbException(VerbException.Code.INVALID, "the argument \"" + name + "\" is required: a JSON "
                    + "object", "/" + name);
        }
        return value;
    }
}
