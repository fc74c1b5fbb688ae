package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parser's promise (DESIGN.md section 3, STYLE.md "Tests"): any input gives a manifest or
 * located problems with documented codes, never another exception; every pointer names a place
 * that exists in the document, and line and column are where that place is written.
 */
class ParserProperties {

    /** The codes docs/manifest-rules.md documents, without the ones only resolution reports. */
    static final Set<String> PARSE_CODES = documentedCodes();

    private static final List<String> ROOT_KEYS = List.of("$schema", "module", "version", "slug", "claims", "accesses",
            "own-secrets", "secrets-owner", "prepares", "tools", "resources", "build");
    private static final String FILE = "<generated>";

    // --- (a) any bytes, any text --------------------------------------------------------------

    @Property
    void parse_arbitraryBytes_givesManifestOrLocatedProblems(@ForAll("bytes") byte[] bytes) {
        wellFormed(outcome(bytes));
    }

    @Property
    void parse_arbitraryString_givesManifestOrLocatedProblems(@ForAll String text) {
        wellFormed(outcome(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Property
    void parse_jsonLikeText_givesManifestOrLocatedProblems(@ForAll("jsonLikeText") String text) {
        wellFormed(outcome(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 300)
    void parse_jsonInAnyUnicodeEncoding_givesManifestOrLocatedProblems(@ForAll("manifestLike") Value json,
            @ForAll("encodings") Charset encoding) {
        wellFormed(outcome(Writer.write(json, true).text().getBytes(encoding)));
    }

    @Property(tries = 50)
    void parse_deeplyNestedJson_givesProblemsNotStackOverflow(@ForAll @IntRange(min = 1, max = 5000) int depth,
            @ForAll boolean objects) {
        String open = objects ? "{\"a\":" : "[";
        String close = objects ? "}" : "]";
        String text = open.repeat(depth) + "1" + close.repeat(depth);
        List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
        wellFormed(problems);
        assertThat(problems).isNotEmpty();
    }

    // --- (b) JSON shaped like a manifest, with noise --------------------------------------------

    @Property(tries = 300)
    void parse_arbitraryJson_givesManifestOrProblemsAtExistingPointers(@ForAll("manifestLike") Value json,
            @ForAll boolean pretty) {
        String text = Writer.write(json, pretty).text();
        List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
        wellFormed(problems);
        pointersExist(problems, json, text);
    }

    @Property(tries = 300)
    void parse_arbitraryJson_locatesEveryProblemWhereItsValueIsWritten(@ForAll("manifestLike") Value json,
            @ForAll boolean pretty) {
        Written written = Writer.write(json, pretty);
        List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
        wellFormed(problems);
        problems.forEach(problem -> written.assertLocated(problem));
    }

    @Property(tries = 600)
    void parse_arbitraryJson_quotesNoMissingValueAsNullInMessages(@ForAll("manifestLike") Value json) {
        String text = Writer.write(json, false).text();
        List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
        // Messages quote what the document says; a quoted "null" it does not say is a missing value printed.
        if (!text.contains("\"null\"")) {
            assertThat(problems).allSatisfy(problem -> assertThat(problem.message()).as("%s", problem)
                    .doesNotContain("\"null\""));
        }
    }

    // --- (c) valid manifests, mutated -------------------------------------------------------------

    @Property(tries = 300)
    void parse_mutatedValidManifest_givesManifestOrProblemsAtExistingPointers(@ForAll("validManifest") Value valid,
            @ForAll("mutations") List<Mutation> mutations, @ForAll boolean pretty) {
        Value mutated = Mutation.applyAll(valid, mutations);
        String text = Writer.write(mutated, pretty).text();
        List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));
        wellFormed(problems);
        pointersExist(problems, mutated, text);
    }

    @Property(tries = 300)
    void parse_mutatedValidManifest_locatesEveryProblemWhereItsValueIsWritten(@ForAll("validManifest") Value valid,
            @ForAll("mutations") List<Mutation> mutations, @ForAll boolean pretty) {
        Written written = Writer.write(Mutation.applyAll(valid, mutations), pretty);
        List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
        wellFormed(problems);
        problems.forEach(problem -> written.assertLocated(problem));
    }

    @Property(tries = 300)
    void parse_truncatedValidManifest_reportsOnlyJsonSyntax(@ForAll("validManifest") Value valid,
            @ForAll boolean pretty, @ForAll @IntRange(min = 0, max = 100_000) int cut) {
        byte[] bytes = Writer.write(valid, pretty).text().getBytes(StandardCharsets.UTF_8);
        // Any strict prefix that ends before the closing brace is incomplete JSON.
        byte[] prefix = java.util.Arrays.copyOf(bytes, cut % bytes.length);
        List<Problem> problems = outcome(prefix);
        wellFormed(problems);
        assertThat(problems).extracting(Problem::code).containsExactly("json-syntax");
    }

    @Property(tries = 300)
    void parse_rootKeyRenamedByOneCharacter_suggestsTheOriginalKey(@ForAll("validManifest") Value valid,
            @ForAll @IntRange(min = 0, max = 10_000) int which, @ForAll @IntRange(min = 0, max = 10_000) int how) {
        Obj root = (Obj) valid;
        Member member = root.members().get(which % root.members().size());
        String renamed = Mutation.renameByOne(member.key(), how);
        List<Member> members = new ArrayList<>(root.members());
        members.set(members.indexOf(member), new Member(renamed, member.value()));
        String text = Writer.write(new Obj(members), true).text();

        List<Problem> problems = outcome(text.getBytes(StandardCharsets.UTF_8));

        wellFormed(problems);
        assertThat(problems).filteredOn(p -> p.code().equals("unknown-field"))
                .filteredOn(p -> p.location().pointer().equals(Writer.child("", renamed)))
                .singleElement()
                .extracting(Problem::hint)
                .isEqualTo("did you mean \"" + member.key() + "\"?");
    }

    // --- checks ------------------------------------------------------------------------------------

    /** The problems of parsing {@code bytes}: empty when a manifest came back. Anything else thrown fails. */
    static List<Problem> outcome(byte[] bytes) {
        try {
            Manifest manifest = Manifest.parse(bytes, FILE);
            assertThat(manifest).isNotNull();
            return List.of();
        } catch (ManifestException e) {
            assertThat(e.problems()).isNotEmpty();
            return e.problems();
        }
    }

    static void wellFormed(List<Problem> problems) {
        assertThat(problems).as("problems in document order")
                .isSortedAccordingTo(java.util.Comparator.comparingInt((Problem p) -> p.location().line())
                        .thenComparingInt(p -> p.location().column()));
        for (Problem problem : problems) {
            assertThat(problem.code()).as("code of %s", problem).isIn(PARSE_CODES);
            assertThat(problem.message()).as("message of %s", problem).isNotBlank();
            assertThat(problem.severity()).isNotNull();
            Stream.concat(Stream.of(problem.location()), problem.related().stream()).forEach(location -> {
                assertThat(location.file()).as("file of %s", problem).isEqualTo(FILE);
                assertThat(location.pointer().isEmpty() || location.pointer().startsWith("/"))
                        .as("pointer of %s is \"\" or starts with \"/\"", problem).isTrue();
                assertThat(location.line()).as("line of %s", problem).isNotNegative();
                assertThat(location.column()).as("column of %s", problem).isNotNegative();
            });
        }
    }

    /**
     * Each pointer resolves in the document as an independent reader (Jackson databind) sees it.
     * Jackson keeps the last of duplicate keys and the manifest parser the first (as documented), so
     * a document with duplicate keys is resolved first-wins on the generated tree instead.
     */
    static void pointersExist(List<Problem> problems, Value document, String text) {
        JsonNode jackson = hasDuplicateKeys(document) ? null : JsonMapper.shared().readTree(text);
        for (Problem problem : problems) {
            assertThat(problem.code()).as("generated JSON is valid: %s", problem).isNotEqualTo("json-syntax");
            if (problem.code().equals("duplicate-key")) {
                continue;
            }
            String pointer = problem.location().pointer();
            assertThat(exists(jackson, document, pointer)).as("pointer of %s resolves", problem).isTrue();
            if (problem.code().equals("missing-field")) {
                boolean object = jackson == null ? resolve(document, pointer) instanceof Obj : jackson.at(pointer).isObject();
                assertThat(object).as("missing-field points at the object that lacks it: %s", problem).isTrue();
            }
            problem.related().forEach(related -> assertThat(exists(jackson, document, related.pointer()))
                    .as("related pointer %s of %s resolves", related.pointer(), problem).isTrue());
        }
    }

    private static boolean exists(JsonNode jackson, Value document, String pointer) {
        return jackson == null ? resolve(document, pointer) != null : !jackson.at(pointer).isMissingNode();
    }

    private static boolean hasDuplicateKeys(Value value) {
        return switch (value) {
            case Obj obj -> obj.members().stream().map(Member::key).distinct().count() < obj.members().size()
                    || obj.members().stream().anyMatch(m -> hasDuplicateKeys(m.value()));
            case Arr arr -> arr.items().stream().anyMatch(ParserProperties::hasDuplicateKeys);
            default -> false;
        };
    }

    /** RFC 6901 on the generated tree, the first of duplicate keys winning; {@code null} when absent. */
    private static Value resolve(Value root, String pointer) {
        if (pointer.isEmpty()) {
            return root;
        }
        Value value = root;
        for (String raw : pointer.substring(1).split("/", -1)) {
            String token = raw.replace("~1", "/").replace("~0", "~");
            value = switch (value) {
                case Obj obj -> obj.members().stream().filter(m -> m.key().equals(token)).map(Member::value)
                        .findFirst().orElse(null);
                case Arr arr -> token.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(token) < arr.items().size()
                        ? arr.items().get(Integer.parseInt(token)) : null;
                default -> null;
            };
            if (value == null) {
                return null;
            }
        }
        return value;
    }

    private static Set<String> documentedCodes() {
        Path rules = Stream.of(Path.of("..", "docs", "manifest-rules.md"), Path.of("docs", "manifest-rules.md"))
                .filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IllegalStateException("docs/manifest-rules.md not found from "
                        + Path.of("").toAbsolutePath() + "; run the tests from the module or the repository root"));
        Set<String> codes = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| ([a-z][a-z-]+) \\| (.*) \\|$").matcher(read(rules));
        while (row.find()) {
            if (!row.group(2).startsWith("(resolution)")) {
                codes.add(row.group(1));
            }
        }
        if (codes.size() < 10) {
            throw new IllegalStateException("found only " + codes + " in the problem-code table of " + rules);
        }
        return codes;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // --- generators ----------------------------------------------------------------------------------

    @Provide
    Arbitrary<byte[]> bytes() {
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> tail = Arbitraries.bytes().array(byte[].class).ofMaxSize(8);
        Arbitrary<byte[]> prefix = Arbitraries.of(new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE},
                new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF}, new byte[] {0, 0, 0}, new byte[] {0});
        Arbitrary<byte[]> prefixed = Combinators.combine(prefix, jsonLikeText().map(
                t -> t.getBytes(StandardCharsets.UTF_8)), tail).as((p, body, rest) -> concat(p, body, rest));
        return Arbitraries.frequencyOf(List.of(Tuple.of(1, any), Tuple.of(2, prefixed)));
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Provide
    Arbitrary<String> jsonLikeText() {
        Arbitrary<String> piece = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"", "\\", "\\u00e9", "\\ud800", "\n",
                " ", "0", "-1", "1e999", "1.5", "true", "false", "null", "\"module\"", "\"version\"", "\"resources\"",
                "\"type\"", "\"run\"", "\"env\"", "\"${\"", "\"${dir:x}\"", "\"mesh\"", "é", "\u0000", "//", "/*", "NaN",
                "\"module\":\"m\",\"version\":\"1\"");
        return piece.list().ofMaxSize(60).map(pieces -> String.join("", pieces));
    }

    @Provide
    Arbitrary<Charset> encodings() {
        return Arbitraries.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE,
                StandardCharsets.UTF_16, Charset.forName("UTF-32BE"), Charset.forName("UTF-32LE"));
    }

    @Provide
    Arbitrary<Value> manifestLike() {
        return ManifestShapes.root();
    }

    @Provide
    Arbitrary<Value> validManifest() {
        return Arbitraries.of(validManifests());
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Integer> seed = Arbitraries.integers().between(0, 100_000);
        return Combinators.combine(Arbitraries.of(Mutation.Kind.class), seed, seed).as(Mutation::new)
                .list().ofMinSize(1).ofMaxSize(3);
    }

    /**
     * The valid manifests: the shared corpus (corpus/valid) when present, and this class's own
     * (properties/valid). Files that do not parse are left out; at least one must.
     */
    static List<Value> validManifests() {
        List<Value> manifests = new ArrayList<>();
        for (String dir : List.of("corpus/valid", "properties/valid")) {
            URL url = ParserProperties.class.getClassLoader().getResource(dir);
            if (url == null) {
                continue;
            }
            try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    byte[] bytes = Files.readAllBytes(file);
                    if (outcome(bytes).isEmpty()) {
                        manifests.add(Value.from(JsonMapper.shared().readTree(bytes)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        if (manifests.isEmpty()) {
            throw new IllegalStateException("no valid manifest under corpus/valid or properties/valid");
        }
        return manifests;
    }

    // --- a JSON tree that can hold duplicate keys, and a writer that remembers positions -------------

    /** A JSON value as generated: objects keep every member, duplicates included, in order. */
    sealed interface Value permits Obj, Arr, Str, Num, Bool, Null {

        static Value from(JsonNode node) {
            if (node.isObject()) {
                return new Obj(node.properties().stream().map(e -> new Member(e.getKey(), from(e.getValue()))).toList());
            } else if (node.isArray()) {
                return new Arr(node.values().stream().map(Value::from).toList());
            } else if (node.isString()) {
                return new Str(node.stringValue());
            } else if (node.isNumber()) {
                return new Num(node.toString());
            } else if (node.isBoolean()) {
                return new Bool(node.booleanValue());
            }
            return new Null();
        }
    }

    record Member(String key, Value value) {
    }

    record Obj(List<Member> members) implements Value {
    }

    record Arr(List<Value> items) implements Value {
    }

    record Str(String value) implements Value {
    }

    record Num(String text) implements Value {
    }

    record Bool(boolean value) implements Value {
    }

    record Null() implements Value {
    }

    /** Where each value (and each member's key) starts, by pointer; several when keys repeat. */
    record Written(String text, Map<String, List<Position>> values, Map<String, List<Position>> keys,
            Map<String, List<Boolean>> escaped) {

        /** Asserts that a problem's location, and its related locations, are where the JSON text writes them. */
        void assertLocated(Problem problem) {
            locate(problem, problem.location());
            problem.related().forEach(related -> locate(problem, related));
        }

        private void locate(Problem problem, Location location) {
            String pointer = location.pointer();
            Position at = new Position(location.line(), location.column());
            List<Position> value = values.getOrDefault(pointer, List.of());
            List<Position> key = keys.getOrDefault(pointer, List.of());
            String code = problem.code();
            if (code.startsWith("template-") && !code.equals("template-not-allowed")) {
                // The column of the "${" inside the string; exact when no escape sequence precedes it.
                assertThat(value).as("template %s is in a string at %s", problem, pointer).isNotEmpty();
                assertThat(at.line()).as("line of %s", problem).isEqualTo(value.getFirst().line());
                String line = text.lines().toList().get(at.line() - 1);
                if (!escaped.get(pointer).getFirst()) {
                    assertThat(line.substring(Math.min(line.length(), at.column() - 1)))
                            .as("%s points at a \"${\" in line %s", problem, line).startsWith("${");
                }
            } else if (code.equals("unknown-field") || code.equals("duplicate-key")) {
                assertThat(key).as("%s is where its key is written", problem).contains(at);
            } else if (code.equals("invalid-format") && !key.isEmpty() && key.contains(at)) {
                return; // a malformed secret or env name is located at its key
            } else {
                assertThat(value).as("%s is where its value is written", problem).contains(at);
            }
        }
    }

    record Position(int line, int column) {
    }

    /** Writes a {@link Value} as JSON, compact or one member per line, remembering positions. */
    static final class Writer {

        private final StringBuilder out = new StringBuilder();
        private final boolean pretty;
        private final Map<String, List<Position>> values = new HashMap<>();
        private final Map<String, List<Position>> keys = new HashMap<>();
        private final Map<String, List<Boolean>> escaped = new HashMap<>();
        private int line = 1;
        private int lineStart;

        private Writer(boolean pretty) {
            this.pretty = pretty;
        }

        static Written write(Value value, boolean pretty) {
            Writer writer = new Writer(pretty);
            writer.value(value, "", 0);
            return new Written(writer.out.toString(), writer.values, writer.keys, writer.escaped);
        }

        /** RFC 6901, written here independently of the code under test. */
        static String child(String pointer, String token) {
            return pointer + "/" + token.replace("~", "~0").replace("/", "~1");
        }

        private void value(Value value, String pointer, int indent) {
            values.computeIfAbsent(pointer, p -> new ArrayList<>()).add(position());
            switch (value) {
                case Obj obj -> {
                    out.append('{');
                    for (int i = 0; i < obj.members().size(); i++) {
                        Member member = obj.members().get(i);
                        separator(i, indent + 1);
                        String child = child(pointer, member.key());
                        keys.computeIfAbsent(child, p -> new ArrayList<>()).add(position());
                        string(member.key());
                        out.append(pretty ? ": " : ":");
                        value(member.value(), child, indent + 1);
                    }
                    close(obj.members().isEmpty(), indent, '}');
                }
                case Arr arr -> {
                    out.append('[');
                    for (int i = 0; i < arr.items().size(); i++) {
                        separator(i, indent + 1);
                        value(arr.items().get(i), pointer + "/" + i, indent + 1);
                    }
                    close(arr.items().isEmpty(), indent, ']');
                }
                case Str str -> escaped.computeIfAbsent(pointer, p -> new ArrayList<>()).add(string(str.value()));
                case Num num -> out.append(num.text());
                case Bool bool -> out.append(bool.value());
                case Null n -> out.append("null");
            }
        }

        private void separator(int index, int indent) {
            if (index > 0) {
                out.append(',');
            }
            if (pretty) {
                newline(indent);
            }
        }

        private void close(boolean empty, int indent, char bracket) {
            if (pretty && !empty) {
                newline(indent);
            }
            out.append(bracket);
        }

        private void newline(int indent) {
            out.append('\n');
            line++;
            lineStart = out.length();
            out.append("  ".repeat(indent));
        }

        /** @return whether an escape sequence was needed */
        private boolean string(String s) {
            boolean escapes = false;
            out.append('"');
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                    escapes = true;
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                    escapes = true;
                } else {
                    out.append(c);
                }
            }
            out.append('"');
            return escapes;
        }

        private Position position() {
            return new Position(line, out.length() - lineStart + 1);
        }
    }

    /** One random change to a valid manifest; {@code target} and {@code choice} pick where and how. */
    record Mutation(Kind kind, int target, int choice) {

        enum Kind { DELETE_FIELD, RENAME_KEY, RETYPE_VALUE, INSERT_DOLLAR_BRACE, DUPLICATE_ITEM, CHANGE_SCALAR }

        private static final String CHARACTERS = "abcdefghijklmnopqrstuvwxyzAEMZ0189-_.$";

        static Value applyAll(Value root, List<Mutation> mutations) {
            Value value = root;
            for (Mutation mutation : mutations) {
                value = mutation.apply(value);
            }
            return value;
        }

        Value apply(Value root) {
            List<List<Integer>> candidates = paths(root, List.of()).stream().filter(p -> applies(at(root, p), p))
                    .toList();
            if (candidates.isEmpty()) {
                return root;
            }
            return with(root, candidates.get(target % candidates.size()), this::change);
        }

        private boolean applies(Value value, List<Integer> path) {
            return switch (kind) {
                case DELETE_FIELD, RENAME_KEY -> value instanceof Obj o && !o.members().isEmpty();
                case RETYPE_VALUE -> !path.isEmpty();
                case INSERT_DOLLAR_BRACE -> value instanceof Str;
                case DUPLICATE_ITEM -> value instanceof Arr a && !a.items().isEmpty();
                case CHANGE_SCALAR -> value instanceof Str || value instanceof Num || value instanceof Bool;
            };
        }

        private Value change(Value value) {
            return switch (kind) {
                case DELETE_FIELD -> {
                    List<Member> members = new ArrayList<>(((Obj) value).members());
                    members.remove(choice % members.size());
                    yield new Obj(members);
                }
                case RENAME_KEY -> {
                    List<Member> members = new ArrayList<>(((Obj) value).members());
                    int i = choice % members.size();
                    members.set(i, new Member(renameByOne(members.get(i).key(), choice / 7), members.get(i).value()));
                    yield new Obj(members);
                }
                case RETYPE_VALUE -> {
                    List<Value> others = Stream.<Value>of(new Str("mesh"), new Num("42"), new Bool(true), new Null(),
                            new Obj(List.of(new Member("module", new Str("m")))), new Arr(List.of(value)))
                            .filter(other -> other.getClass() != value.getClass()).toList();
                    yield others.get(choice % others.size());
                }
                case INSERT_DOLLAR_BRACE -> {
                    String s = ((Str) value).value();
                    int at = choice % (s.length() + 1);
                    yield new Str(s.substring(0, at) + "${" + s.substring(at));
                }
                case DUPLICATE_ITEM -> {
                    List<Value> items = new ArrayList<>(((Arr) value).items());
                    int i = choice % items.size();
                    items.add(i + 1, items.get(i));
                    yield new Arr(items);
                }
                case CHANGE_SCALAR -> switch (value) {
                    case Bool bool -> new Bool(!bool.value());
                    case Num num -> new Num(choice % 2 == 0 ? "-" + num.text() : num.text() + "0");
                    case Str str -> new Str(renameByOne(str.value(), choice));
                    default -> value;
                };
            };
        }

        /** A string one edit away: one character substituted, inserted or deleted. */
        static String renameByOne(String s, int how) {
            int op = s.isEmpty() ? 1 : how % 3;
            int at = (how / 3) % (s.length() + (op == 1 ? 1 : 0));
            char c = CHARACTERS.charAt((how / 7) % CHARACTERS.length());
            return switch (op) {
                case 0 -> {
                    char other = c != s.charAt(at) ? c : CHARACTERS.charAt(((how / 7) + 1) % CHARACTERS.length());
                    yield s.substring(0, at) + other + s.substring(at + 1);
                }
                case 1 -> s.substring(0, at) + c + s.substring(at);
                default -> s.substring(0, at) + s.substring(at + 1);
            };
        }

        private static List<List<Integer>> paths(Value value, List<Integer> path) {
            List<List<Integer>> all = new ArrayList<>();
            all.add(path);
            List<Value> children = children(value);
            for (int i = 0; i < children.size(); i++) {
                List<Integer> child = new ArrayList<>(path);
                child.add(i);
                all.addAll(paths(children.get(i), child));
            }
            return all;
        }

        private static List<Value> children(Value value) {
            return switch (value) {
                case Obj obj -> obj.members().stream().map(Member::value).toList();
                case Arr arr -> arr.items();
                default -> List.of();
            };
        }

        private static Value at(Value root, List<Integer> path) {
            Value value = root;
            for (int i : path) {
                value = children(value).get(i);
            }
            return value;
        }

        private static Value with(Value value, List<Integer> path, UnaryOperator<Value> change) {
            if (path.isEmpty()) {
                return change.apply(value);
            }
            int i = path.getFirst();
            List<Integer> rest = path.subList(1, path.size());
            return switch (value) {
                case Obj obj -> {
                    List<Member> members = new ArrayList<>(obj.members());
                    members.set(i, new Member(members.get(i).key(), with(members.get(i).value(), rest, change)));
                    yield new Obj(members);
                }
                case Arr arr -> {
                    List<Value> items = new ArrayList<>(arr.items());
                    items.set(i, with(items.get(i), rest, change));
                    yield new Arr(items);
                }
                default -> throw new IllegalArgumentException("no child " + i + " in " + value);
            };
        }
    }

    /**
     * JSON shaped like a manifest: the real fields with mostly plausible values drawn from small
     * vocabularies (so names refer to each other), with some noise in keys, types and values, so
     * that the parser reaches its deepest checks.
     */
    static final class ManifestShapes {

        private static final Map<String, List<String>> RESOURCE_KEYS = Map.of(
                "user", List.of("id", "type", "name", "shell", "home"),
                "directory", List.of("id", "type", "mode", "place", "owner"),
                "process", List.of("id", "type", "name", "artifact", "run", "user", "env", "replaces"),
                "container", List.of("id", "type", "name", "image", "user", "env", "mounts", "network", "run"));
        private static final List<String> NOISE_KEYS = List.of("modul", "Type", "mdoe", "resource", "", "a/b", "~x",
                "env ", "é", "na\"me", "0");
        private static final List<String> WORDS = List.of("mesh", "node", "read", "write", "user", "directory",
                "process", "container", "bundle", "module", "root", "data", "app", "0700", "java", "debian-12", "1.0.0",
                "./bin/app", "/var/lib/app", "", "Mesh", "proces", "${dir:data}", "a b", "é✓");
        private static final List<String> TEMPLATE_PIECES = List.of("/srv/", "${dir:data}", "${dir:cache}", "/x",
                "${secret:token}", "${secret:nope}", "${seat:db:5432}", "${seat:db:0}", "${seat:Db:1}", "${node:name}",
                "${node:nam}", "${module:slug}", "${foo:x}", "${", "$${", "}", "${}", "${:x}", "${dir:a:b}", "${dir:}",
                "${dir:${dir:x}}", "x", "é", "\"", "\\", "$", " ", ":");

        private ManifestShapes() {
        }

        static Arbitrary<Value> root() {
            return Arbitraries.frequencyOf(List.of(Tuple.of(12, object(ROOT_KEYS)), Tuple.of(1, any(2))));
        }

        private static Arbitrary<Value> object(List<String> keys) {
            List<Arbitrary<Member>> members = keys.stream()
                    .map(key -> valueFor(key).map(value -> new Member(key, value)).injectNull(0.15)).toList();
            Arbitrary<List<Member>> known = Combinators.combine(members)
                    .as(list -> list.stream().filter(java.util.Objects::nonNull).toList());
            Arbitrary<List<Member>> extra = Arbitraries.frequencyOf(List.of(
                    Tuple.of(8, Arbitraries.just(List.<Member>of())),
                    Tuple.of(1, Combinators.combine(key(), any(1)).as(Member::new).list().ofMinSize(1).ofMaxSize(2))));
            Arbitrary<Integer> duplicate = Arbitraries.frequencyOf(List.of(Tuple.of(15, Arbitraries.just(-1)),
                    Tuple.of(1, Arbitraries.integers().between(0, 100))));
            return Combinators.combine(known, extra, duplicate).as((k, e, d) -> {
                List<Member> all = new ArrayList<>(k);
                all.addAll(e);
                if (d >= 0 && !all.isEmpty()) {
                    all.add(all.get(d % all.size()));
                }
                return new Obj(all);
            });
        }

        /** A resource of each type, its {@code type} mostly set to match its fields. */
        private static Arbitrary<Value> resource() {
            return Arbitraries.oneOf(new TreeSet<>(RESOURCE_KEYS.keySet()).stream().map(type -> object(
                    RESOURCE_KEYS.get(type)).map(o -> (Value) new Obj(((Obj) o).members().stream()
                    .map(m -> m.key().equals("type") && !(m.value() instanceof Str) ? m : m.key().equals("type")
                            ? new Member("type", new Str(type)) : m).toList()))).toList());
        }

        private static Arbitrary<Value> valueFor(String key) {
            return Arbitraries.frequencyOf(List.of(Tuple.of(12, shaped(key)), Tuple.of(1, any(1))));
        }

        private static Arbitrary<Value> shaped(String key) {
            return switch (key) {
                case "module", "slug" -> words("app", "mesh-store", "App", "1app", "a".repeat(64), "${module:name}", "");
                case "version" -> words("1.0.0", "4.2.0+mesh.1", "", "-1", "v1 beta", "1".repeat(65));
                case "claims" -> array(object(List.of("name", "scope")));
                case "name" -> words("app", "app-user", "root", "db", "mesh-store", "Bad", "_x", "", "a.b");
                case "scope" -> words("mesh", "node", "Mesh", "nod", "cluster");
                case "accesses" -> array(object(List.of("path", "mode")));
                case "path" -> template();
                case "mode" -> words("read", "write", "0700", "0750", "rw", "777", "08", "Read");
                case "own-secrets" -> keyed(List.of("token", "key", "Bad_Name", "k~/"), template());
                case "secrets-owner", "owner", "user" -> words("app", "root", "app-user", "nobody", "Root", "");
                case "prepares" -> Arbitraries.frequencyOf(List.of(Tuple.of(4, Arbitraries.of(true, false)
                        .map(Bool::new)), Tuple.of(1, words("true"))));
                case "tools", "replaces" -> array(words("status", "plan", "app", "Bad Tool", "legacy.app-1", ""));
                case "resources" -> array(resource());
                case "id" -> words("data", "secrets", "app", "cache", "Data", "");
                case "type" -> words("user", "directory", "process", "container", "dir", "usr");
                case "shell", "home", "source", "target" -> words("/bin/sh", "/home/app", "relative", "", "${dir:data}");
                case "place" -> words("mesh", "module", "node");
                case "artifact" -> words("app", "tool", "App", "nope");
                case "run" -> array(template());
                case "env" -> keyed(List.of("PATH", "APP_HOME", "_X", "lower", "1BAD", ""), template());
                case "image", "network" -> words("rabbitmq:3.13", "", "host", "${node:name}");
                case "mounts" -> array(object(List.of("source", "target", "mode")));
                case "build" -> object(List.of("artifacts"));
                case "artifacts" -> array(object(List.of("name", "kind", "language", "system", "from", "binary")));
                case "kind" -> words("bundle", "jar", "Bundle");
                case "language" -> words("java", "c++", "Java", "");
                case "system" -> words("debian-12", "Debian 12", "");
                case "from" -> words("app", "tools/helper", "/abs", "../up", "a//b", ".", "");
                case "binary" -> words("app", "bin/app", ".", "..", "", "a+b");
                default -> Arbitraries.oneOf(List.of(words(WORDS.toArray(String[]::new)), template()));
            };
        }

        private static Arbitrary<Value> words(String... words) {
            return Arbitraries.frequencyOf(List.of(Tuple.of(6, Arbitraries.of(words)), Tuple.of(1, text())))
                    .map(Str::new);
        }

        private static Arbitrary<Value> template() {
            return Arbitraries.of(TEMPLATE_PIECES).list().ofMaxSize(4).map(p -> new Str(String.join("", p)));
        }

        private static Arbitrary<Value> array(Arbitrary<Value> item) {
            return item.list().ofMaxSize(4).map(Arr::new);
        }

        private static Arbitrary<Value> keyed(List<String> keys, Arbitrary<Value> values) {
            return Combinators.combine(Arbitraries.of(keys), values).as(Member::new).list().ofMaxSize(4)
                    .uniqueElements(Member::key).map(Obj::new);
        }

        private static Arbitrary<String> key() {
            List<String> known = new ArrayList<>(ROOT_KEYS);
            RESOURCE_KEYS.values().forEach(known::addAll);
            known.addAll(NOISE_KEYS);
            return Arbitraries.frequencyOf(List.of(Tuple.of(3, Arbitraries.of(known)), Tuple.of(1, text())));
        }

        private static Arbitrary<String> text() {
            return Arbitraries.strings().withChars("abz-_./~${}: é✓\"\\\n\t").ofMaxLength(12);
        }

        private static Arbitrary<Value> any(int depth) {
            Arbitrary<Value> scalar = Arbitraries.frequencyOf(List.of(
                    Tuple.of(3, Arbitraries.oneOf(List.of(text(), Arbitraries.of(WORDS))).map(Str::new)),
                    Tuple.of(1, Arbitraries.of("0", "-1", "42", "1.5", "1e3", "-0.0", "12345678901234567890")
                            .map(Num::new)),
                    Tuple.of(1, Arbitraries.of(true, false).map(Bool::new)),
                    Tuple.of(1, Arbitraries.just(new Null()))));
            if (depth == 0) {
                return scalar;
            }
            Arbitrary<Value> array = any(depth - 1).list().ofMaxSize(3).map(Arr::new);
            Arbitrary<Value> object = Combinators.combine(key(), any(depth - 1)).as(Member::new).list().ofMaxSize(3)
                    .map(Obj::new);
            return Arbitraries.frequencyOf(List.of(Tuple.of(3, scalar), Tuple.of(1, array), Tuple.of(1, object)));
        }
    }
}
