package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Problem;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.base.ParserBase;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads bytes into a located {@link Json} tree with Jackson's streaming parser. Syntax errors and
 * duplicate keys become problems; nothing else escapes.
 */
final class JsonReader {

    /** Interned keys make the readers' key comparisons with literals an identity check. */
    private static final JsonFactory FACTORY =
            JsonFactory.builder().enable(TokenStreamFactory.Feature.INTERN_PROPERTY_NAMES).build();

    /**
     * Eight bytes as a long in the machine's order: the sign bits do not care about order, and a
     * big-endian {@code ByteBuffer} swapped every word (the check took 2 % of a parse).
     */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final String file;
    private final List<Problem> problems;
    /**
     * The members of the objects being read, innermost last: each object gathers its members
     * here and keeps an exact-size copy (see {@link Json.Members}).
     */
    private Json.Member[] stack = new Json.Member[32];
    private int top;

    private JsonReader(String file, List<Problem> problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * @return the document's root, or {@code null} when it is not one valid JSON document (the
     *     reason is then in {@code problems})
     */
    static Json read(byte[] bytes, String file, List<Problem> problems) {
        // Jackson counts columns in the units it reads. In pure ASCII bytes and characters coincide,
        // and reading the bytes is faster; anything else is read as characters, as editors count.
        if (ascii(bytes)) {
            try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), bytes)) {
                return new JsonReader(file, problems).document(parser);
            }
        }
        String text = decode(bytes, file, problems);
        if (text == null) {
            return null;
        }
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), text)) {
            return new JsonReader(file, problems).document(parser);
        }
    }

    /** Whether every byte is ASCII (no sign bit set), eight at a time; such bytes need no decoding. */
    private static boolean ascii(byte[] bytes) {
        long bits = 0;
        int i = 0;
        for (; i + Long.BYTES <= bytes.length; i += Long.BYTES) {
            bits |= (long) LONGS.get(bytes, i);
        }
        for (; i < bytes.length; i++) {
            bits |= bytes[i] & 0xFF;
        }
        return (bits & 0x8080808080808080L) == 0;
    }

    private Json document(JsonParser parser) {
        try {
            if (parser.nextToken() == null) {
                problems.add(Problem.error("json-syntax",
                        "the file is empty; a manifest is one JSON object: {\"module\": …, \"version\": …}",
                        new Location(file, "", 1, 1)));
                return null;
            }
            Json root = value(parser);
            if (parser.nextToken() != null) {
                problems.add(Problem.error("json-syntax",
                        "unexpected content after the end of the JSON document; a manifest is exactly one object, "
                                + "remove what follows its closing '}'", at(parser.currentTokenLocation())));
                return null;
            }
            return root;
        } catch (StreamConstraintsException e) {
            int depth = FACTORY.streamReadConstraints().getMaxNestingDepth();
            String what = parser.streamReadContext().getNestingDepth() >= depth
                    ? "the JSON nests deeper than " + depth + " levels" : "a value is too large to read";
            problems.add(Problem.error("json-syntax", what + "; a manifest is a few levels deep and small, so this "
                    + "is not a manifest", at(parser.currentLocation())));
            return null;
        } catch (JacksonException e) {
            // The pointer of the value the parser was reading says where in the structure it broke.
            String pointer = parser.streamReadContext().pathAsPointer().toString();
            problems.add(Problem.error("json-syntax", "not valid JSON: " + describe(e)
                    + "; fix the JSON syntax at this position",
                    at(e.getLocation() == null ? parser.currentLocation() : e.getLocation()).withPointer(pointer)));
            return null;
        }
    }

    /** UTF-8 to text; a malformed byte sequence is a {@code json-syntax} problem at its position. */
    private static String decode(byte[] bytes, String file, List<Problem> problems) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0) {
            // The fast decoder replaced something: find out whether the input really is malformed.
            CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
            ByteBuffer in = ByteBuffer.wrap(bytes);
            CoderResult result = strict.decode(in, CharBuffer.allocate(bytes.length), true);
            if (result.isError()) {
                String before = new String(bytes, 0, in.position(), StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
                int line = (int) before.chars().filter(c -> c == '\n').count() + 1;
                int column = before.length() - before.lastIndexOf('\n');
                problems.add(Problem.error("json-syntax", "the file is not UTF-8: byte " + in.position()
                        + " starts a malformed sequence; save the file as UTF-8", new Location(file, "", line, column)));
                return null;
            }
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private Location at(TokenStreamLocation location) {
        return new Location(file, "", line(location), column(location));
    }

    private Json value(JsonParser parser) {
        int line;
        int column;
        if (parser instanceof ParserBase base) {
            // Cheaper than currentTokenLocation(), which allocates. For value tokens Jackson 3.3's
            // getTokenColumnNr() is one more than the location's column (pinned by the golden and
            // property tests, which check positions against the text).
            line = Math.max(0, base.getTokenLineNr());
            column = Math.max(0, base.getTokenColumnNr() - 1);
        } else {
            TokenStreamLocation at = parser.currentTokenLocation();
            line = line(at);
            column = column(at);
        }
        JsonToken token = parser.currentToken();
        return switch (token) {
            case START_OBJECT -> object(parser, line, column);
            case START_ARRAY -> array(parser, line, column);
            case VALUE_STRING -> new Json.Str(parser.getString(), line, column);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new Json.Num(parser.getString(), line, column);
            case VALUE_TRUE -> new Json.Bool(true, line, column);
            case VALUE_FALSE -> new Json.Bool(false, line, column);
            case VALUE_NULL -> new Json.Null(line, column);
            default -> throw new IllegalStateException("unexpected token " + token + " at " + line + ":" + column);
        };
    }

    private Json object(JsonParser parser, int line, int column) {
        int start = top;
        // This object's keys once it has more than a manifest object has, so that a huge object
        // does not make the duplicate check quadratic.
        Map<String, Json.Member> keys = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            TokenStreamLocation keyAt = parser.currentTokenLocation();
            parser.nextToken();
            // Nested values use the stack above top and leave it as they found it.
            Json.Member member = new Json.Member(key, line(keyAt), column(keyAt), value(parser));
            Json.Member first = keys != null ? keys.get(key) : find(start, key);
            if (first != null) {
                duplicate(parser, member, first);
                continue;
            }
            push(member);
            if (keys != null) {
                keys.put(key, member);
            } else if (top - start > Json.Members.INDEXED) {
                keys = new HashMap<>();
                for (int i = start; i < top; i++) {
                    keys.put(stack[i].key(), stack[i]);
                }
            }
        }
        Json.Members members = new Json.Members(Arrays.copyOfRange(stack, start, top));
        top = start;
        return new Json.Obj(members, line, column);
    }

    /** The member of the current object, gathered from {@code start}, whose key is {@code key}; or null. */
    private Json.Member find(int start, String key) {
        int hash = key.hashCode();
        for (int i = start; i < top; i++) {
            String candidate = stack[i].key();
            if (candidate.hashCode() == hash && candidate.equals(key)) {
                return stack[i];
            }
        }
        return null;
    }

    private void push(Json.Member member) {
        if (top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
        }
        stack[top++] = member;
    }

    private void duplicate(JsonParser parser, Json.Member member, Json.Member first) {
        // The parser is still in the object, at this member: its path is the member's pointer.
        String pointer = parser.streamReadContext().pathAsPointer().toString();
        problems.add(Problem.error("duplicate-key",
                "the key \"" + member.key() + "\" appears twice in this object (first at line " + first.line()
                        + ", column " + first.column() + "); JSON readers disagree on which one wins, so "
                        + "remove one of them",
                new Location(file, pointer, member.line(), member.column()))
                .withRelated(List.of(new Location(file, pointer, first.line(), first.column()))));
    }

    private Json array(JsonParser parser, int line, int column) {
        // Manifest arrays are short: a run, a list of claims or mounts.
        List<Json> items = new ArrayList<>(4);
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(value(parser));
        }
        return new Json.Arr(items, line, column);
    }

    private static String describe(JacksonException e) {
        String message = e.getOriginalMessage();
        if (message == null) {
            return e.getClass().getSimpleName();
        }
        // Jackson appends a source description after a newline; the position is reported separately.
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static int line(TokenStreamLocation at) {
        return at == null ? 0 : Math.max(0, at.getLineNr());
    }

    private static int column(TokenStreamLocation at) {
        return at == null ? 0 : Math.max(0, at.getColumnNr());
    }
}
