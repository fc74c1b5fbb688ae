package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads one message of {@code mesh.nodes.<node>.facts} (DESIGN.md section 8) into {@link Facts}, or says
 * why it is dropped. Unknown fields are ignored. Thread-safe.
 */
final class FactsReader {

    /** What became of one message. */
    sealed interface Read {
        /** @param facts what the host reported */
        record Accepted(Facts facts) implements Read {
        }

        /** @param reason why the message is dropped */
        record Dropped(FactsIn.Drop reason) implements Read {
        }
    }

    private static final String SUFFIX = ".facts";

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final String subjectStart;

    /** @param subjectPrefix put before {@code mesh.nodes.}, {@code ""} in production */
    FactsReader(String subjectPrefix) {
        this.subjectStart = subjectPrefix + "mesh.nodes.";
    }

    /** @return the subject to subscribe to: every node's facts */
    String subscription() {
        return subjectStart + "*" + SUFFIX;
    }

    /**
     * @param subject the message's subject
     * @param body its body, UTF-8 JSON
     * @return the facts, or why the message is dropped; never throws
     */
    Read read(String subject, byte[] body) {
        Facts facts;
        try {
            facts = facts(mapper.readTree(body));
        } catch (JacksonException | DateTimeException | IllegalArgumentException e) {
            // The body is not JSON, lacks a field, or breaks a value's rule: each is a message we cannot read.
            return new Read.Dropped(FactsIn.Drop.UNREADABLE);
        }
        String node = subject.substring(subjectStart.length(), subject.length() - SUFFIX.length());
        if (!facts.node().name().equals(node)) {
            return new Read.Dropped(FactsIn.Drop.NODE_MISMATCH);
        }
        return new Read.Accepted(facts);
    }

    private static Facts facts(JsonNode tree) {
        if (!tree.isObject()) {
            throw new IllegalArgumentException("facts are a JSON object");
        }
        JsonNode revision = tree.path("revision");
        List<ProcessState> processes = new ArrayList<>();
        JsonNode listed = tree.path("processes");
        if (!listed.isArray()) {
            throw new IllegalArgumentException("processes are a JSON array");
        }
        for (JsonNode process : listed) {
            JsonNode checks = process.path("checks");
            if (!checks.isIntegralNumber() || !checks.canConvertToInt()) {
                throw new IllegalArgumentException("checks is a whole number");
            }
            processes.add(new ProcessState(text(process, "name"), ProcessState.State.of(text(process, "state")),
                    Instant.parse(text(process, "since")), checks.intValue()));
        }
        return new Facts(new Node(text(tree, "node"), text(tree, "address"), text(tree, "system")),
                revision.isNull() ? "" : text(tree, "revision"), processes, Instant.parse(text(tree, "at")));
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.path(field);
        if (!value.isString() || value.stringValue().isEmpty()) {
            throw new IllegalArgumentException(field + " is a non-empty string");
        }
        return value.stringValue();
    }
}
