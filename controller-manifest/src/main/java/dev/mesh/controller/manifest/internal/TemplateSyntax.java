package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Reference.Kind;
import dev.mesh.controller.manifest.Reference;
import dev.mesh.controller.manifest.Segment;
import dev.mesh.controller.manifest.Suggestions;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The template grammar of docs/design.md section 4, parsed into segments. Problems point at the
 * column of the offending {@code ${} inside the string.
 */
public final class TemplateSyntax {

    private static final Form PORT = Form.of("1-9", "0-9", 1, 5);
    private static final Form ARGUMENT = Form.of("A-Za-z0-9._-", "A-Za-z0-9._-", 1, Integer.MAX_VALUE);
    /** The arguments of an old-form {@code $<kind:…>}: argument characters and the colons between them. */
    private static final Form ANGLE_ARGUMENTS = Form.of("A-Za-z0-9._-", "A-Za-z0-9._:-", 1, Integer.MAX_VALUE);
    private static final Kind[] KIND_VALUES = Kind.values();
    private static final Reference.NodeFactName[] NODE_FACT_VALUES = Reference.NodeFactName.values();
    private static final Reference.ModuleFactName[] MODULE_FACT_VALUES = Reference.ModuleFactName.values();
    private static final List<String> KINDS = Arrays.stream(KIND_VALUES).map(Kind::token).toList();
    private static final List<String> NODE_FACTS =
            Arrays.stream(Reference.NodeFactName.values()).map(Reference.NodeFactName::token).toList();
    private static final List<String> MODULE_FACTS =
            Arrays.stream(Reference.ModuleFactName.values()).map(Reference.ModuleFactName::token).toList();

    // One scanner reads every template of a document (Fields keeps it): the fields below are those
    // of the template being scanned, and the segment list is reused. A scanner and a list per
    // template were a quarter of the allocation of template scanning.
    private String text;
    private Location at;
    private Set<Kind> allowed;
    private String field;
    private final List<Problem> problems;
    private final List<Problem> warnings;
    private final List<Segment> segments = new ArrayList<>(8);

    /**
     * @param problems where the errors of every template scanned are added
     * @param warnings where its warnings are added
     */
    TemplateSyntax(List<Problem> problems, List<Problem> warnings) {
        this.problems = problems;
        this.warnings = warnings;
    }

    /**
     * Parses a template outside a manifest. Warnings are not reported: they do not make a template
     * invalid.
     *
     * @throws ManifestException with every error of the text
     */
    public static Template parse(String text, Location at, Set<Kind> allowed) {
        List<Problem> problems = new ArrayList<>();
        Template template = scan(text, at, allowed, "template", problems);
        if (!problems.isEmpty()) {
            throw new ManifestException(problems);
        }
        return template;
    }

    /**
     * Parses a template, adding its problems to {@code problems}.
     *
     * @param at the location of the JSON string: its column is that of the opening quote
     * @param field how messages name the field, e.g. {@code "own-secrets value"}
     * @return the template; meaningful only when no problem was added
     */
    static Template scan(String text, Location at, Set<Kind> allowed, String field, List<Problem> problems) {
        return new TemplateSyntax(problems, new ArrayList<>()).scan(text, at, allowed, field);
    }

    /**
     * Parses a template, adding its problems to this scanner's problems. Not thread-safe: one
     * scanner serves one document.
     *
     * @param at the location of the JSON string: its column is that of the opening quote
     * @param field how messages name the field, e.g. {@code "own-secrets value"}
     * @return the template; meaningful only when no problem was added
     */
    Template scan(String text, Location at, Set<Kind> allowed, String field) {
        int dollar = text.indexOf('$');
        if (dollar < 0) {
            return new Template(text, text.isEmpty() ? List.of() : List.of(new Segment.Literal(text)), at);
        }
        this.text = text;
        this.at = at;
        this.allowed = allowed;
        this.field = field;
        return scan(dollar);
    }

    /** Scans from the first {@code $}, at {@code dollar}. */
    private Template scan(int dollar) {
        int last = text.length() - 1;
        if (dollar == 0 && charAt(1) == '{' && text.charAt(last) == '}' && text.indexOf('}', 2) == last) {
            // The whole template is one reference, as most are: no literal, no list to grow.
            Reference only = wellFormed(0, last);
            only = only != null ? only : reference(text.substring(2, last), 0);
            return new Template(text, only == null ? List.of() : List.of(only), at);
        }
        segments.clear();
        // Literal text is cut out of the template; a builder is needed only once "$${" is unescaped.
        StringBuilder escaped = null;
        int literalFrom = 0;
        int i = 0;
        while (dollar >= 0) {
            if (charAt(dollar + 1) == '$' && charAt(dollar + 2) == '{') {
                escaped = escaped == null ? new StringBuilder(text.length()) : escaped;
                escaped.append(text, literalFrom, dollar).append("${");
                literalFrom = dollar + 3;
                i = literalFrom;
            } else if (charAt(dollar + 1) == '{') {
                int close = text.indexOf('}', dollar + 2);
                if (close < 0) {
                    problem("template-syntax", dollar, "unterminated reference: the \"${\" at column " + (dollar + 1)
                            + " of \"" + text + "\" has no closing \"}\"; close it, or write \"$${\" for a literal \"${\"");
                    break;
                }
                literal(escaped, literalFrom, dollar, segments);
                escaped = null;
                Reference reference = wellFormed(dollar, close);
                reference = reference != null ? reference : reference(text.substring(dollar + 2, close), dollar);
                if (reference != null) {
                    segments.add(reference);
                }
                literalFrom = close + 1;
                i = literalFrom;
            } else {
                if (charAt(dollar + 1) == '<') {
                    angle(dollar);
                }
                i = dollar + 1;
            }
            dollar = text.indexOf('$', i);
        }
        literal(escaped, literalFrom, text.length(), segments);
        return new Template(text, immutable(segments), at);
    }

    /** The segments as the immutable list the template keeps, so that it need not copy them again. */
    private static List<Segment> immutable(List<Segment> segments) {
        return switch (segments.size()) {
            case 0 -> List.of();
            case 1 -> List.of(segments.get(0));
            case 2 -> List.of(segments.get(0), segments.get(1));
            case 3 -> List.of(segments.get(0), segments.get(1), segments.get(2));
            default -> List.copyOf(segments);
        };
    }

    /** Adds the literal text before {@code to}: what {@code escaped} holds, then the text from {@code from}. */
    private void literal(StringBuilder escaped, int from, int to, List<Segment> segments) {
        String literal = escaped == null ? text.substring(from, to) : escaped.append(text, from, to).toString();
        if (!literal.isEmpty()) {
            segments.add(new Segment.Literal(literal));
        }
    }

    /**
     * The reference written at {@code text[dollar, close]} when it is well formed and allowed here,
     * read in place; {@code null} otherwise, and then {@link #reference} says what is wrong.
     */
    private Reference wellFormed(int dollar, int close) {
        int start = dollar + 2;
        int colon = text.indexOf(':', start);
        if (colon < 0 || colon > close) {
            return null;
        }
        Kind kind = kind(text, start, colon);
        if (kind == null || !allowed.contains(kind)) {
            return null;
        }
        int second = text.indexOf(':', colon + 1);
        boolean twoArguments = second >= 0 && second < close;
        // A seat name is checked once, as a name: every name is also a valid argument.
        Form first = kind == Kind.SEAT ? Patterns.NAME : ARGUMENT;
        if (twoArguments != (kind == Kind.SEAT) || !first.matches(text, colon + 1, twoArguments ? second : close)) {
            return null;
        }
        int column = dollar + 1;
        return switch (kind) {
            case DIR -> new Reference.Dir(text.substring(colon + 1, close), column);
            case SECRET -> new Reference.Secret(text.substring(colon + 1, close), column);
            case SEAT -> {
                int port = port(second + 1, close);
                yield port > 0 ? new Reference.Seat(text.substring(colon + 1, second), port, column) : null;
            }
            case NODE -> {
                for (Reference.NodeFactName fact : NODE_FACT_VALUES) {
                    if (is(fact.token(), colon + 1, close)) {
                        yield new Reference.NodeFact(fact, column);
                    }
                }
                yield null;
            }
            case MODULE -> {
                for (Reference.ModuleFactName fact : MODULE_FACT_VALUES) {
                    if (is(fact.token(), colon + 1, close)) {
                        yield new Reference.ModuleFact(fact, column);
                    }
                }
                yield null;
            }
        };
    }

    /**
     * A reference written in the old form {@code $<kind:arg…>} at {@code dollar}: literal text, as the
     * grammar reads it, but most likely meant as {@code ${kind:arg…}}, so a warning that says so. Only
     * the known kinds with arguments of the reference form count, so that other text with
     * {@code $<} (a shell's, a regular expression's) passes unremarked. A warning, not an error: the
     * grammar has no escape for {@code $<}, and any text must read back as itself ({@link
     * Template#escape}).
     */
    private void angle(int dollar) {
        int close = text.indexOf('>', dollar + 2);
        int colon = text.indexOf(':', dollar + 2);
        if (close < 0 || colon < 0 || colon > close || kind(text, dollar + 2, colon) == null
                || !ANGLE_ARGUMENTS.matches(text, colon + 1, close)) {
            return;
        }
        String written = text.substring(dollar, close + 1);
        String meant = "${" + text.substring(dollar + 2, close) + "}";
        Problem warning = Problem.warning("template-angle-reference", "\"" + written + "\" is literal text, not a "
                + "reference: references are written with braces; write \"" + meant + "\" for the reference, or "
                + "leave it if the text is meant", locate(dollar));
        warnings.add(warning.withHint("did you mean \"" + meant + "\"?"));
    }

    /** The port written at {@code text[from, to)}: 1–65535 without leading zeros, or -1. */
    private int port(int from, int to) {
        if (!PORT.matches(text, from, to)) {
            return -1;
        }
        int port = 0;
        for (int i = from; i < to; i++) {
            port = port * 10 + text.charAt(i) - '0';
        }
        return port <= 65535 ? port : -1;
    }

    private boolean is(String token, int from, int to) {
        return token.length() == to - from && text.startsWith(token, from);
    }

    private Reference reference(String body, int index) {
        if (body.isEmpty()) {
            return problem("template-syntax", index, "empty reference \"${}\"; write ${kind:argument}, e.g. ${dir:data},"
                    + " or \"$${\" for a literal \"${\"");
        }
        if (body.indexOf('$') >= 0 || body.indexOf('{') >= 0) {
            return problem("template-syntax", index, "\"" + written(body) + "\" has a reference inside a reference; "
                    + "references do not nest: split it, or write \"$${\" for a literal \"${\"");
        }
        int colon = body.indexOf(':');
        if (colon == 0) {
            return problem("template-syntax", index, "the reference \"" + written(body) + "\" has no kind; write "
                    + "${kind:argument} with kind one of " + String.join(", ", KINDS));
        }
        Kind kind = kind(body, 0, colon < 0 ? body.length() : colon);
        if (kind == null) {
            String kindToken = colon < 0 ? body : body.substring(0, colon);
            Problem problem = Problem.error("template-unknown-kind", "unknown reference kind \"" + kindToken + "\" in \""
                    + written(body) + "\"; the kinds are " + String.join(", ", KINDS), locate(index));
            problems.add(Suggestions.hint(kindToken, KINDS).map(problem::withHint).orElse(problem));
            return null;
        }
        List<String> arguments = colon < 0 ? List.of() : split(body.substring(colon + 1));
        int arity = kind == Kind.SEAT ? 2 : 1;
        if (arguments.size() != arity) {
            return problem("template-arity", index, "\"" + written(body) + "\" has " + arguments.size() + " argument"
                    + (arguments.size() == 1 ? "" : "s") + " but ${" + kind.token() + ":…} takes " + arity + ": write "
                    + form(kind));
        }
        for (int i = 0; i < arity; i++) {
            String argument = arguments.get(i);
            if (!ARGUMENT.matches(argument)) {
                return problem("template-syntax", index, "the reference \"" + written(body) + "\" has "
                        + (argument.isEmpty() ? "an empty argument" : "the argument \"" + argument + "\"")
                        + "; arguments are letters, digits, '.', '_' and '-' (references do not nest): write " + form(kind));
            }
        }
        if (!allowed.contains(kind)) {
            return problem("template-kind-not-allowed", index, "${" + kind.token() + ":…} is not allowed in " + field
                    + "s; this field allows " + allowed.stream().map(Kind::token).collect(Collectors.joining(", ")));
        }
        int column = index + 1;
        String argument = arguments.getFirst();
        return switch (kind) {
            case DIR -> new Reference.Dir(argument, column);
            case SECRET -> new Reference.Secret(argument, column);
            case SEAT -> seat(argument, arguments.get(1), body, index);
            case NODE -> switch (argument) {
                case "name" -> new Reference.NodeFact(Reference.NodeFactName.NAME, column);
                case "address" -> new Reference.NodeFact(Reference.NodeFactName.ADDRESS, column);
                case "system" -> new Reference.NodeFact(Reference.NodeFactName.SYSTEM, column);
                default -> unknownFact(argument, NODE_FACTS, body, index);
            };
            case MODULE -> switch (argument) {
                case "name" -> new Reference.ModuleFact(Reference.ModuleFactName.NAME, column);
                case "version" -> new Reference.ModuleFact(Reference.ModuleFactName.VERSION, column);
                case "slug" -> new Reference.ModuleFact(Reference.ModuleFactName.SLUG, column);
                default -> unknownFact(argument, MODULE_FACTS, body, index);
            };
        };
    }

    /** The kind named by {@code text[from, to)}, compared in place. */
    private static Kind kind(String text, int from, int to) {
        if (to <= from) {
            return null;
        }
        // The first letter tells the kinds apart but for seat and secret.
        Kind kind = switch (text.charAt(from)) {
            case 'd' -> Kind.DIR;
            case 'n' -> Kind.NODE;
            case 'm' -> Kind.MODULE;
            case 's' -> to - from == Kind.SEAT.token().length() ? Kind.SEAT : Kind.SECRET;
            default -> null;
        };
        return kind != null && kind.token().length() == to - from && text.startsWith(kind.token(), from) ? kind : null;
    }

    /** The character at {@code index}, or 0 past the end. */
    private char charAt(int index) {
        return index < text.length() ? text.charAt(index) : 0;
    }

    private Reference seat(String seat, String port, String body, int index) {
        if (!Patterns.NAME.matches(seat)) {
            return problem("template-syntax", index, "the seat name \"" + seat + "\" in \"" + written(body)
                    + "\" is not a seat name: lower-case letters, digits and '-', starting with a letter");
        }
        int number = PORT.matches(port) ? Integer.parseInt(port) : -1;
        if (number < 1 || number > 65535) {
            return problem("template-port", index, "the port \"" + port + "\" in \"" + written(body)
                    + "\" is not a port; write a whole number from 1 to 65535, without leading zeros");
        }
        return new Reference.Seat(seat, number, index + 1);
    }

    private Reference unknownFact(String fact, List<String> facts, String body, int index) {
        Problem problem = Problem.error("template-unknown-fact", "unknown fact \"" + fact + "\" in \"" + written(body)
                + "\"; the facts are " + String.join(", ", facts), locate(index));
        problems.add(Suggestions.hint(fact, facts).map(problem::withHint).orElse(problem));
        return null;
    }

    /** Splits at every ':', keeping empty parts, without String.split's array and list. */
    private static List<String> split(String body) {
        int first = body.indexOf(':');
        if (first < 0) {
            return List.of(body);
        }
        int second = body.indexOf(':', first + 1);
        if (second < 0) {
            return List.of(body.substring(0, first), body.substring(first + 1));
        }
        int third = body.indexOf(':', second + 1);
        if (third < 0) {
            return List.of(body.substring(0, first), body.substring(first + 1, second), body.substring(second + 1));
        }
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int colon = first; colon >= 0; colon = body.indexOf(':', from)) {
            parts.add(body.substring(from, colon));
            from = colon + 1;
        }
        parts.add(body.substring(from));
        return parts;
    }

    /** The reference as written, for messages. */
    private static String written(String body) {
        return "${" + body + "}";
    }

    private static String form(Kind kind) {
        return switch (kind) {
            case DIR -> "${dir:ID}";
            case SEAT -> "${seat:SEAT:PORT}";
            case SECRET -> "${secret:NAME}";
            case NODE -> "${node:name|address|system}";
            case MODULE -> "${module:name|version|slug}";
        };
    }

    private Reference problem(String code, int index, String message) {
        problems.add(Problem.error(code, message, locate(index)));
        return null;
    }

    /** The file position of the {@code $} at {@code index}: the opening quote's column plus one, plus the index. */
    Location locate(int index) {
        return new Location(at.file(), at.pointer(), at.line(), at.column() + 1 + index);
    }
}
