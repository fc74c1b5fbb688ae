package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.ConfigException;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code serve} and {@code prepare} read from the environment (DESIGN.md section 11): for
 * each of the three store databases, {@code MESH_STORE_<NAME>_FILE} — a JSON file
 * {@code {"user","password","database"}} — and {@code MESH_STORE_<NAME>_PORT} — {@code host:port}.
 *
 * <p>Everything is checked before anything connects: {@link #from} reports every problem at once,
 * one line each naming the variable, the file and the fix. A password never appears in a message
 * or in {@code toString()} ({@link Endpoint} masks it). A credentials file that group or others may
 * read is no problem but a warning, once per file, naming it and {@code chmod 600 FILE}.
 *
 * @param inventory the inventory database
 * @param identity the identity database
 * @param licences the licences database
 * @param warnings one line per credentials file readable by others, for standard error
 */
record Config(Endpoint inventory, Endpoint identity, Endpoint licences, List<String> warnings) {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Set<String> CREDENTIAL_FIELDS = Set.of("user", "password", "database");
    private static final Set<PosixFilePermission> READABLE_BY_OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    Config {
        warnings = List.copyOf(warnings);
    }

    /**
     * @param database one of the three
     * @return where it is and how to log in
     */
    Endpoint endpoint(Database database) {
        return switch (database) {
            case INVENTORY -> inventory;
            case IDENTITY -> identity;
            case LICENCES -> licences;
        };
    }

    /**
     * Reads and checks the store settings.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @return the settings
     * @throws ConfigException with one line per problem, when any setting is missing or malformed
     */
    static Config from(Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        Map<Path, String> warnings = new LinkedHashMap<>();
        Endpoint inventory = endpoint(Database.INVENTORY, env, problems, warnings);
        Endpoint identity = endpoint(Database.IDENTITY, env, problems, warnings);
        Endpoint licences = endpoint(Database.LICENCES, env, problems, warnings);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new Config(inventory, identity, licences, List.copyOf(warnings.values()));
    }

    private static Endpoint endpoint(Database database, Map<String, String> env, List<String> problems,
            Map<Path, String> warnings) {
        String prefix = "MESH_STORE_" + database.name();
        String fileVariable = prefix + "_FILE";
        String portVariable = prefix + "_PORT";
        Address address = address(portVariable, env.get(portVariable), problems);
        JsonNode credentials = credentials(fileVariable, env.get(fileVariable), problems);
        if (credentials != null) {
            warnIfReadableByOthers(fileVariable, Path.of(env.get(fileVariable)), warnings);
        }
        if (address == null || credentials == null) {
            return null;
        }
        return new Endpoint(address.host(), address.port(), credentials.get("database").stringValue(),
                credentials.get("user").stringValue(), Secret.of(credentials.get("password").stringValue()));
    }

    private record Address(String host, int port) {
    }

    /** {@code host:port}, {@code [v6-address]:port} for IPv6. */
    private static Address address(String variable, String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            problems.add(variable + " is not set; set it to the database server's host:port, e.g. 127.0.0.1:5432");
            return null;
        }
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = colon < 0 ? -1 : port(value.substring(colon + 1));
        if (host.isEmpty() || host.contains(" ") || (host.contains(":") && !value.startsWith("[")) || port < 0) {
            problems.add(variable + "=" + value + " is not host:port; write e.g. 127.0.0.1:5432, db.mesh.internal:5432"
                    + " or [::1]:5432 (port 1-65535)");
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

    /** The credentials file's JSON, checked; {@code null} after adding a problem. Never quotes the file's content. */
    private static JsonNode credentials(String variable, String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            problems.add(variable + " is not set; set it to the path of a JSON file {\"user\", \"password\", "
                    + "\"database\"} readable by this process");
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
                    : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
                    + "; write {\"user\": \"…\", \"password\": \"…\", \"database\": \"…\"}");
            return null;
        }
        List<String> wrong = new ArrayList<>();
        if (json == null || !json.isObject()) {
            wrong.add("it is not a JSON object");
        } else {
            json.propertyNames().stream().filter(name -> !CREDENTIAL_FIELDS.contains(name)).sorted()
                    .forEach(name -> wrong.add("unknown field \"" + name + "\""));
            for (String field : List.of("user", "password", "database")) {
                JsonNode node = json.get(field);
                if (node == null) {
                    wrong.add("\"" + field + "\" is missing");
                } else if (!node.isString() || node.stringValue().isEmpty()) {
                    wrong.add("\"" + field + "\" must be a non-empty string");
                }
            }
        }
        if (!wrong.isEmpty()) {
            problems.add(variable + "=" + value + ": " + String.join(", ", wrong) + "; write {\"user\": \"…\", "
                    + "\"password\": \"…\", \"database\": \"…\"}");
            return null;
        }
        return json;
    }

    /** One warning per file, however many variables name it: the first names it. */
    private static void warnIfReadableByOthers(String variable, Path file, Map<Path, String> warnings) {
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

    private static String why(Path file, Exception e) {
        if (Files.isDirectory(file)) {
            return "it is a directory";
        }
        return switch (e) {
            case java.nio.file.NoSuchFileException missing -> "it does not exist";
            case java.nio.file.AccessDeniedException denied -> "permission denied";
            default -> e.getClass().getSimpleName();
        };
    }
}
