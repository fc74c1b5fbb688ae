package dev.mesh.controller.bus;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads one message of {@code mesh.nodes.<node>.facts} (docs/design.md section 8) into {@link Facts}, or says
 * why it is dropped. Unknown fields are ignored. Nothing a store would refuse gets through, so that one message
 * never holds the facts of others: the node's name — the subject's, checked before the body is read —
 * is held to the inventory's grammar ({@link #NODE_NAME}), the address and the system to the inventory's lengths,
 * no string may hold a NUL character (PostgreSQL's text refuses it), and an {@code at} more than {@link #AHEAD}
 * ahead of the controller's clock is dropped (a fact "from the future" would make every genuine one older, and keep
 * a stopped node from turning silent). Thread-safe.
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

    /** A node's name: 1 to 63 letters, digits, {@code -} and {@code _}, starting with a letter or digit. */
    static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");
    /** How far ahead of the controller's clock a fact's {@code at} may be: hosts' clocks drift. */
    static final Duration AHEAD = Duration.ofSeconds(30);
    /** The inventory's bounds on an address and a system (its columns). */
    static final int ADDRESS_MAX = 255;
    static final int SYSTEM_MAX = 64;

    private static final String SUFFIX = ".facts";

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final String subjectStart;
    private final Clock clock;

    /**
     * @param subjectPrefix put before {@code mesh.nodes.}, {@code ""} in production
     * @param clock the controller's clock, which a fact's {@code at} may be at most {@link #AHEAD} ahead of
     */
    FactsReader(String subjectPrefix, Clock clock) {
        this.subjectStart = subjectPrefix + "mesh.nodes.";
        this.clock = clock;
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
        String node = subject.substring(subjectStart.length(), subject.length() - SUFFIX.length());
        if (!NODE_NAME.matcher(node).matches()) {
            return new Read.Dropped(FactsIn.Drop.BAD_NAME);
        }
        Facts facts;
        try {
            facts = facts(mapper.readTree(body));
        } catch (JacksonException | DateTimeException | IllegalArgumentException e) {
            // The body is not JSON, lacks a field, or breaks a value's rule: each is a message we cannot read.
            return new Read.Dropped(FactsIn.Drop.UNREADABLE);
        }
        if (!facts.node().name().equals(node)) {
            return new Read.Dropped(FactsIn.Drop.NODE_MISMATCH);
        }
        if (facts.node().address().length() > ADDRESS_MAX || facts.node().system().length() > SYSTEM_MAX) {
            return new Read.Dropped(FactsIn.Drop.UNREADABLE);
        }
        if (facts.at().isAfter(clock.instant().plus(AHEAD))) {
            return new Read.Dropped(FactsIn.Drop.FUTURE);
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
        if (value.stringValue().indexOf('\0') >= 0) {
            throw new IllegalArgumentException(field + " holds a NUL character, which the inventory cannot hold");
        }
        return value.stringValue();
    }
}
