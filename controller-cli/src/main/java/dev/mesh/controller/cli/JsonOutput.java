package dev.mesh.controller.cli;

import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mapper of the commands' JSON output built as trees. Apart from {@link JsonReport}, which {@code validate}
 * writes with a generator alone: a mapper's first use sets up most of databind, longer than the rest of
 * {@code validate}'s start.
 */
final class JsonOutput {

    /** Non-ASCII is escaped so that the document stays valid JSON whatever the console's encoding. */
    static final JsonMapper MAPPER = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private JsonOutput() {
    }
}
