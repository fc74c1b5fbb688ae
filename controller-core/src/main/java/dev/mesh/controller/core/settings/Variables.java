package dev.mesh.controller.core.settings;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The environment as the settings of each part read it, one variable at a time: each problem becomes a line
 * naming the variable, the file and the fix, collected until {@link #check} throws them all at
 * once; each credentials file that group or others may read draws one warning. No line quotes a
 * file's content, so no secret reaches one.
 *
 * <p>Not thread-safe: one instance per reading.
 */
public final class Variables {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Set<PosixFilePermission> READABLE_BY_OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    private final Map<String, String> env;
    private final List<String> problems = new ArrayList<>();
    private final Map<Path, String> warnings = new LinkedHashMap<>();

    public Variables(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    /** A {@code host:port} as a variable gives it. */
    public record Address(String host, int port) {

        /** @return {@code host:port}, {@code [v6-address]:port} for IPv6 */
        public String text() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * What a {@code host:port} variable names, for its lines.
     *
     * @param what whose address it is, e.g. {@code the database server's}
     * @param port the usual port, for the examples
     * @param name a host name, for the examples
     */
    public record Server(String what, int port, String name) {
    }

    /**
     * What a JSON file must hold: string fields, not empty.
     *
     * @param required the fields it must have
     * @param optional the fields it may have
     * @param secrets the fields whose value is secret: a file holding one draws the mode warning
     * @param example how to write it, for the lines
     */
    public record Shape(List<String> required, List<String> optional, Set<String> secrets, String example) {

        public Shape {
            required = List.copyOf(required);
            optional = List.copyOf(optional);
            secrets = Set.copyOf(secrets);
        }

        /** @return the fields, e.g. {@code {"url", "user"?}} */
        public String fields() {
            List<String> fields = new ArrayList<>();
            required.forEach(field -> fields.add("\"" + field + "\""));
            optional.forEach(field -> fields.add("\"" + field + "\"?"));
            return "{" + String.join(", ", fields) + "}";
        }
    }

    /** @return the variable's value, or {@code null} when it is not set or blank */
    public String value(String variable) {
        String value = env.get(variable);
        return value == null || value.isBlank() ? null : value;
    }

    /** @return whether the variable is set to something not blank */
    public boolean isSet(String variable) {
        return value(variable) != null;
    }

    /** Adds a problem line. */
    public void problem(String line) {
        problems.add(line);
    }

    /**
     * @param settings makes the settings from what was read; called only when nothing was wrong
     * @return the settings
     * @throws ConfigException with every problem found, one line each
     */
    public <T> T check(Supplier<T> settings) {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return settings.get();
    }

    /** @return one line per credentials file others may read, in the order they were read */
    public List<String> warnings() {
        return List.copyOf(warnings.values());
    }

    /** {@code host:port}, {@code [v6-address]:port} for IPv6; {@code null} after adding a problem. */
    public Address address(String variable, Server server) {
        String value = value(variable);
        if (value == null) {
            problems.add(variable + " is not set; set it to " + server.what() + " host:port, e.g. 127.0.0.1:"
                    + server.port());
            return null;
        }
        Address address = parse(value);
        if (address == null) {
            problems.add(variable + "=" + value + " is not host:port; write e.g. 127.0.0.1:" + server.port() + ", "
                    + server.name() + ":" + server.port() + " or [::1]:" + server.port() + " (port 1-65535)");
        }
        return address;
    }

    /**
     * One {@code host:port} as {@link #address} reads it, or several separated by commas: the members of a
     * cluster, any of which will do, in the order to try them. Each once.
     *
     * @return the addresses, at least one; {@code null} after adding a problem
     */
    public List<Address> addresses(String variable, Server server) {
        String value = value(variable);
        if (value == null || !value.contains(",")) {
            Address one = address(variable, server);
            return one == null ? null : List.of(one);
        }
        List<Address> addresses = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            Address address = parse(part.strip());
            if (address == null || addresses.contains(address)) {
                problems.add(variable + "=" + value + " has \"" + part.strip() + "\", which is " + (address == null
                        ? "not host:port" : "named twice") + "; write host:port, or several separated by commas, "
                        + "e.g. " + member(server, 1) + "," + member(server, 2) + " (port 1-65535)");
                return null;
            }
            addresses.add(address);
        }
        return List.copyOf(addresses);
    }

    /** @return the example's {@code n}th member: {@code broker-1.mesh.internal:5671} for {@code broker.mesh.internal} */
    private static String member(Server server, int n) {
        int dot = server.name().indexOf('.');
        String name = dot < 0 ? server.name() + "-" + n : server.name().substring(0, dot) + "-" + n
                + server.name().substring(dot);
        return name + ":" + server.port();
    }

    /** @return {@code value} as {@code host:port} or {@code [v6-address]:port}, or {@code null} */
    private static Address parse(String value) {
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = colon < 0 ? -1 : port(value.substring(colon + 1));
        if (host.isEmpty() || host.contains(" ") || (host.contains(":") && !value.startsWith("[")) || port < 0) {
            return null;
        }
        return new Address(host, port);
    }

    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(Character::isDigit)
                || text.startsWith("0")) {
            return -1;
        }
        int port = Integer.parseInt(text);
        return port <= 65_535 ? port : -1;
    }

    /**
     * The JSON file a variable names, checked against its shape and then by {@code rules} (which
     * sees a JSON object with the shape's fields and says what else is wrong, without values);
     * {@code null} after adding one problem line for the file.
     */
    public JsonNode file(String variable, Shape shape, Function<JsonNode, List<String>> rules) {
        String value = value(variable);
        if (value == null) {
            problems.add(variable + " is not set; set it to the path of a JSON file " + shape.fields()
                    + " readable by this process");
            return null;
        }
        Path file = Path.of(value);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException | SecurityException e) {
            problems.add(variable + "=" + value + ": cannot read the file (" + why(file, e) + "); check the path and "
                    + "that this process may read it");
            return null;
        }
        JsonNode json;
        try {
            json = MAPPER.readTree(bytes);
        } catch (JacksonException e) {
            // Jackson's message may quote the content, which holds the password: only the position is kept.
            TokenStreamLocation at = e.getLocation();
            problems.add(variable + "=" + value + ": not valid JSON" + (at == null || at.getLineNr() < 1 ? ""
                    : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + "; write " + shape.example());
            return null;
        }
        List<String> wrong = shape(json, shape);
        if (wrong.isEmpty()) {
            wrong.addAll(rules.apply(json));
        }
        if (!wrong.isEmpty()) {
            problems.add(variable + "=" + value + ": " + String.join(", ", wrong) + "; write " + shape.example());
            return null;
        }
        if (shape.secrets().stream().anyMatch(json::has)) {
            warnIfReadableByOthers(variable, file);
        }
        return json;
    }

    private static List<String> shape(JsonNode json, Shape shape) {
        List<String> wrong = new ArrayList<>();
        if (json == null || !json.isObject()) {
            wrong.add("it is not a JSON object");
            return wrong;
        }
        json.propertyNames().stream().filter(name -> !shape.required().contains(name)
                && !shape.optional().contains(name)).sorted().forEach(name -> wrong.add("unknown field \"" + name + "\""));
        for (String field : shape.required()) {
            if (json.get(field) == null) {
                wrong.add("\"" + field + "\" is missing");
            }
        }
        for (String field : json.propertyNames()) {
            JsonNode node = json.get(field);
            boolean known = shape.required().contains(field) || shape.optional().contains(field);
            if (known && (!node.isString() || node.stringValue().isEmpty())) {
                wrong.add("\"" + field + "\" must be a non-empty string");
            }
        }
        return wrong;
    }

    /** One warning per file, however many variables name it: the first names it. */
    private void warnIfReadableByOthers(String variable, Path file) {
        Path key = file.toAbsolutePath().normalize();
        if (warnings.containsKey(key)) {
            return;
        }
        Set<PosixFilePermission> mode;
        try {
            mode = Files.getPosixFilePermissions(file);
        } catch (IOException | UnsupportedOperationException e) {
            // Read a moment ago, so it exists; no mode to tell (not a POSIX file system) is no warning.
            return;
        }
        if (mode.stream().anyMatch(READABLE_BY_OTHERS::contains)) {
            warnings.put(key, variable + "=" + file + ": the credentials file has mode "
                    + PosixFilePermissions.toString(mode) + ", so other users of this machine may read its password; "
                    + "run chmod 600 " + file);
        }
    }

    /** Why a file could not be read, in a few words. */
    public static String why(Path file, Exception e) {
        if (Files.isDirectory(file)) {
            return "it is a directory";
        }
        return switch (e) {
            case NoSuchFileException missing -> "it does not exist";
            case AccessDeniedException denied -> "permission denied";
            default -> e.getClass().getSimpleName();
        };
    }
}
