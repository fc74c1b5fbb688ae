package dev.mesh.controller.core;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A verb as an MCP tool: its name, what it does, and the JSON Schemas of its input and output.
 *
 * @param name the verb
 * @param description one sentence
 * @param inputSchema JSON Schema of the arguments
 * @param outputSchema JSON Schema of the structured result
 */
public record Tool(String name, String description, JsonNode inputSchema, JsonNode outputSchema) {

    /** Checks the parts. */
    public Tool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
        Objects.requireNonNull(outputSchema, "outputSchema");
    }
}
