package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Reference;
import dev.mesh.controller.manifest.Reference.Kind;
import dev.mesh.controller.manifest.Segment;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The template grammar of DESIGN.md section 4, parsed into segments. Problems point at the
 * column of the offending {@code ${} inside the string.
 */
public final class TemplateSyntax {

    private static final Pattern PORT = Pattern.compile("[1-9][0-9]{0,4}");
    private static final Pattern ARGUMENT = Pattern.compile("[A-Za-z0-9._-]+");
    private static final List<String> KINDS = Arrays.stream(Kind.values()).map(Kind::token).toList();
    private static final List<String> NODE_FACTS =
            Arrays.stream(Reference.NodeFactName.values()).map(Reference.NodeFactName::token).toList();
    private static final List<String> MODULE_FACTS =
            Arrays.stream(Reference.ModuleFactName.values()).map(Reference.ModuleFactName::token).toList();

    private final String text;
    private final Location at;
    private final Set<Kind> allowed;
    private final String field;
    private final List<Problem> problems;

    private TemplateSyntax(String text, Location at, Set<Kind> allowed, String field, List<Problem> problems) {
        this.text = text;
        this.at = at;
        this.allowed = allowed;
        this.field = field;
        this.problems = problems;
    }

    /**
     * Parses a template outside a manifest.
     *
     * @throws ManifestException with every problem of the text
     */
    public static Template parse(String text, Location at, Set<Kind> allowed) {
        List<Problem> problems = new ArrayList<>();
        Template template = scan(text, at, allowed, "this template", problems);
        if (!problems.isEmpty()) {
            throw new ManifestException(problems);
        }
        return template;
    }

    /**
     * Parses a template, adding its problems to {@code problems}.
     *
     * @param at the location of the JSON string: its column is that of the opening quote
     * @param field how messages name the field, e.g. {@code "own-secrets values"}
     * @return the template; meaningful only when no problem was added
     */
    static Template scan(String text, Location at, Set<Kind> allowed, String field, List<Problem> problems) {
        return new TemplateSyntax(text, at, allowed, field, problems).scan();
    }

    private Template scan() {
        List<Segment> segments = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (c == '$' && text.startsWith("${", i)) {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    problem("template-syntax", i, "unterminated reference: the \"${\" at column " + (i + 1)
                            + " of \"" + text + "\" has no closing \"}\"; close it, or write \"$${\" for a literal \"${\"");
                    break;
                }
                flush(literal, segments);
                Reference reference = reference(text.substring(i + 2, close), i);
                if (reference != null) {
                    segments.add(reference);
                }
                i = close + 1;
            } else {
                literal.append(c);
                i++;
            }
        }
        flush(literal, segments);
        return new Template(text, segments, at);
    }

    private static void flush(StringBuilder literal, List<Segment> segments) {
        if (!literal.isEmpty()) {
            segments.add(new Segment.Literal(literal.toString()));
            literal.setLength(0);
        }
    }

    private Reference reference(String body, int index) {
        String written = "${" + body + "}";
        if (body.isEmpty()) {
            return problem("template-syntax", index, "empty reference \"${}\"; write ${kind:argument}, e.g. ${dir:data},"
                    + " or \"$${\" for a literal \"${\"");
        }
        if (body.contains("$") || body.contains("{")) {
            return problem("template-syntax", index, "\"" + written + "\" has a reference inside a reference; "
                    + "references do not nest: split it, or write \"$${\" for a literal \"${\"");
        }
        String[] parts = body.split(":", -1);
        String kindToken = parts[0];
        if (kindToken.isEmpty()) {
            return problem("template-syntax", index, "the reference \"" + written + "\" has no kind; write "
                    + "${kind:argument} with kind one of " + String.join(", ", KINDS));
        }
        Kind kind = KINDS.contains(kindToken) ? Kind.valueOf(kindToken.toUpperCase(java.util.Locale.ROOT)) : null;
        if (kind == null) {
            Problem problem = Problem.error("template-unknown-kind", "unknown reference kind \"" + kindToken + "\" in \""
                    + written + "\"; the kinds are " + String.join(", ", KINDS), locate(index));
            problems.add(Suggestions.hint(kindToken, KINDS).map(problem::withHint).orElse(problem));
            return null;
        }
        List<String> arguments = List.of(parts).subList(1, parts.length);
        int arity = kind == Kind.SEAT ? 2 : 1;
        if (arguments.size() != arity) {
            return problem("template-arity", index, "\"" + written + "\" has " + arguments.size() + " argument"
                    + (arguments.size() == 1 ? "" : "s") + " but ${" + kind.token() + ":…} takes " + arity + ": write "
                    + form(kind));
        }
        for (String argument : arguments) {
            if (!ARGUMENT.matcher(argument).matches()) {
                return problem("template-syntax", index, "the reference \"" + written + "\" has "
                        + (argument.isEmpty() ? "an empty argument" : "the argument \"" + argument + "\"")
                        + "; arguments are letters, digits, '.', '_' and '-' (references do not nest): write " + form(kind));
            }
        }
        if (!allowed.contains(kind)) {
            return problem("template-kind-not-allowed", index, "${" + kind.token() + ":…} is not allowed in " + field
                    + "; this field allows " + allowed.stream().map(Kind::token).collect(Collectors.joining(", ")));
        }
        int column = index + 1;
        return switch (kind) {
            case DIR -> new Reference.Dir(arguments.get(0), column);
            case SECRET -> new Reference.Secret(arguments.get(0), column);
            case SEAT -> seat(arguments.get(0), arguments.get(1), written, index);
            case NODE -> fact(arguments.get(0), NODE_FACTS, written, index) ? new Reference.NodeFact(
                    Reference.NodeFactName.valueOf(arguments.get(0).toUpperCase(java.util.Locale.ROOT)), column) : null;
            case MODULE -> fact(arguments.get(0), MODULE_FACTS, written, index) ? new Reference.ModuleFact(
                    Reference.ModuleFactName.valueOf(arguments.get(0).toUpperCase(java.util.Locale.ROOT)), column) : null;
        };
    }

    private Reference seat(String seat, String port, String written, int index) {
        if (!Patterns.NAME.matcher(seat).matches()) {
            return problem("template-syntax", index, "the seat name \"" + seat + "\" in \"" + written
                    + "\" is not a seat name: lower-case letters, digits and '-', starting with a letter");
        }
        int number = PORT.matcher(port).matches() ? Integer.parseInt(port) : -1;
        if (number < 1 || number > 65535) {
            return problem("template-port", index, "the port \"" + port + "\" in \"" + written
                    + "\" is not a port; write a whole number from 1 to 65535, without leading zeros");
        }
        return new Reference.Seat(seat, number, index + 1);
    }

    private boolean fact(String fact, List<String> facts, String written, int index) {
        if (facts.contains(fact)) {
            return true;
        }
        Problem problem = Problem.error("template-unknown-fact", "unknown fact \"" + fact + "\" in \"" + written
                + "\"; the facts are " + String.join(", ", facts), locate(index));
        problems.add(Suggestions.hint(fact, facts).map(problem::withHint).orElse(problem));
        return false;
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
