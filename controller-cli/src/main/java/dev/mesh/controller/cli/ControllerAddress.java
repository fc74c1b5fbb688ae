package dev.mesh.controller.cli;

import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the running controller is, and the bearer token it wants, as the client commands and
 * {@code mesh-controller mcp} find them.
 *
 * <p>The endpoint: {@code --url}, else {@code MESH_CONTROLLER_URL}, else the one line of
 * {@code <state>/url} that {@code serve --dev} writes, where the state directory is {@code --state},
 * else {@code MESH_CONTROLLER_STATE}, else {@code ./.mesh-dev}. The first of them that is set is
 * used; a later one is never a fallback for an earlier one that does not answer. A URL without a path
 * means {@code /mcp}. The token: {@code --token-file}, else {@code MESH_CONTROLLER_TOKEN_FILE}, else
 * {@code <state>/token}.
 *
 * @param endpoint the controller's MCP endpoint
 * @param source where the endpoint came from, e.g. {@code --url} or {@code .mesh-dev/url}
 * @param token the bearer token
 * @param consulted the places consulted before the endpoint was found, and why they gave none
 */
public record ControllerAddress(URI endpoint, String source, BearerToken token, List<String> consulted) {

    static final String URL_VARIABLE = "MESH_CONTROLLER_URL";
    static final String STATE_VARIABLE = "MESH_CONTROLLER_STATE";
    static final String TOKEN_VARIABLE = "MESH_CONTROLLER_TOKEN_FILE";
    static final Path DEFAULT_STATE = Path.of(".mesh-dev");
    /** The file of the state directory that holds the endpoint of the controller serving from it. */
    public static final String URL_FILE = "url";

    public ControllerAddress {
        consulted = List.copyOf(consulted);
    }

    /**
     * @param options the command line's {@code --url}, {@code --state} and {@code --token-file}
     * @param env the environment
     * @return the controller's address and token
     * @throws UnreachableException when no source gives an endpoint, naming each one consulted
     * @throws ConfigException when a source gives a value that is not a URL, or the token file is
     *     missing, unreadable, readable by others or not a token
     */
    static ControllerAddress find(ControllerOptions options, Map<String, String> env) {
        List<String> consulted = new ArrayList<>();
        State state = state(options, env);
        String url;
        String source;
        if (options.url != null) {
            url = options.url;
            source = "--url";
        } else if (isSet(env.get(URL_VARIABLE))) {
            consulted.add("--url: not given");
            url = env.get(URL_VARIABLE);
            source = URL_VARIABLE;
        } else {
            consulted.add("--url: not given");
            consulted.add(URL_VARIABLE + ": not set");
            source = state.file(URL_FILE);
            url = readUrl(state.directory().resolve(URL_FILE), source, consulted);
        }
        URI endpoint = endpoint(url, source);
        return new ControllerAddress(endpoint, source, token(options, env, state), consulted);
    }

    /**
     * @param failure why the endpoint did not answer as a controller
     * @return the failure to report: the places consulted, then the endpoint and the failure's message
     */
    UnreachableException unreachable(RuntimeException failure) {
        List<String> tried = new ArrayList<>(consulted);
        tried.add(endpoint + " (from " + source + "): " + failure.getMessage());
        return new UnreachableException(tried, failure);
    }

    /** The state directory and how it was chosen. */
    private record State(Path directory, String chosenBy) {

        /** @return how to name a file of the state directory: its path, and how the directory was chosen */
        String file(String name) {
            return directory.resolve(name) + (chosenBy.isEmpty() ? "" : " (" + chosenBy + ")");
        }
    }

    private static State state(ControllerOptions options, Map<String, String> env) {
        if (options.state != null) {
            return new State(options.state, "");
        }
        if (isSet(env.get(STATE_VARIABLE))) {
            return new State(Path.of(env.get(STATE_VARIABLE)), STATE_VARIABLE);
        }
        return new State(DEFAULT_STATE, "the default state directory: --state not given, " + STATE_VARIABLE
                + " not set");
    }

    private static String readUrl(Path file, String source, List<String> consulted) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                consulted.add(source + ": empty; the controller is starting or did not stop cleanly: wait, or "
                        + "restart it with mesh-controller serve --dev");
                throw new UnreachableException(consulted);
            }
            return text;
        } catch (NoSuchFileException e) {
            consulted.add(source + ": no such file, so no controller serves from that state directory; start one "
                    + "with mesh-controller serve --dev, or say where it is with --url or --state");
            throw new UnreachableException(consulted);
        } catch (IOException e) {
            consulted.add(source + ": cannot be read (" + e + ")");
            throw new UnreachableException(consulted);
        }
    }

    private static URI endpoint(String text, String source) {
        String url = text.strip();
        String needed = "an http:// or https:// URL with a host, and no query or fragment, is needed";
        if (!url.contains("://")) {
            throw notAUrl(url, source, needed);
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw notAUrl(url, source, e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!List.of("http", "https").contains(scheme) || uri.getHost() == null || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw notAUrl(url, source, needed);
        }
        String path = uri.getRawPath();
        return path == null || path.isEmpty() || path.equals("/") ? uri.resolve("/mcp") : uri;
    }

    private static ConfigException notAUrl(String url, String source, String why) {
        return new ConfigException(List.of(source + ": \"" + url + "\" is not the URL of a controller (" + why
                + "); give its MCP endpoint, e.g. http://127.0.0.1:7300/mcp"));
    }

    private static BearerToken token(ControllerOptions options, Map<String, String> env, State state) {
        if (options.tokenFile != null) {
            return readToken(options.tokenFile, "--token-file " + options.tokenFile);
        }
        if (isSet(env.get(TOKEN_VARIABLE))) {
            return readToken(Path.of(env.get(TOKEN_VARIABLE)), TOKEN_VARIABLE + "=" + env.get(TOKEN_VARIABLE));
        }
        return readToken(state.directory().resolve(BearerToken.FILE_NAME), state.directory()
                .resolve(BearerToken.FILE_NAME) + " (" + (state.chosenBy().isEmpty() ? "" : state.chosenBy() + "; ")
                + "--token-file not given, " + TOKEN_VARIABLE + " not set)");
    }

    /** Reads a token file as the controller does ({@link BearerToken#read(Path, String, java.util.function.Function)}). */
    private static BearerToken readToken(Path file, String source) {
        try {
            return BearerToken.read(file, source, problem -> switch (problem) {
                case MISSING -> "give the file that holds the controller's token with --token-file FILE (serve --dev "
                        + "writes it to <state>/token)";
                case SHARED -> "run chmod 600 " + file;
                case NOT_A_TOKEN -> "give the file serve --dev wrote as <state>/token";
                case UNREADABLE -> "";
            });
        } catch (McpException e) {
            throw new ConfigException(List.of(e.getMessage()));
        }
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }

    /**
     * Writes a running controller's endpoint to {@code <state>/url}, where {@link #find} reads it, through a
     * temporary file, so that a reader never sees half of it.
     *
     * @param directory the state directory
     * @param endpoint the running controller's endpoint
     * @throws CommandException when it cannot be written
     */
    public static void writeUrl(Path directory, URI endpoint) {
        Path file = directory.resolve(URL_FILE);
        Path temporary = directory.resolve(URL_FILE + ".new");
        try {
            Files.writeString(temporary, endpoint + "\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new CommandException("cannot write " + file + ", where clients find the controller: "
                    + e.getMessage(), e);
        }
    }
}
