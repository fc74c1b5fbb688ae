package dev.mesh.controller.core;

import java.util.Objects;
import java.util.Set;
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

    /** The verbs that change the mesh; every other verb only reads. */
    private static final Set<String> MUTATING = Set.of("assign", "unassign", "push", "build");

    /**
     * @param verb a verb's name
     * @return whether it changes the mesh ({@code assign}, {@code unassign}, {@code push}, {@code build}):
     *     such a verb needs a grant, runs only while this controller is active, and a request id makes
     *     it idempotent; every other verb reads, and any known principal may call it
     */
    public static boolean mutates(String verb) {
        return MUTATING.contains(verb);
    }


    /** Checks the parts. */
    public Tool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
        Objects.requireNonNull(outputSchema, "outputSchema");
    }
}
