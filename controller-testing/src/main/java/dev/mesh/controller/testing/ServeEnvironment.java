package dev.mesh.controller.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * The environment a host gives {@code serve} from the controller's manifest (docs/design.md section 11):
 * for each dependency a credentials file, mode 0600, named by {@code MESH_<ROLE>_FILE},
 * and its address by {@code MESH_<ROLE>_PORT}. The launcher's process and in-process tests and the system
 * tests' meshes write it here, once, as the manifest's variables name it.
 *
 * <p>Not thread-safe: one test builds one.
 */
public final class ServeEnvironment {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The local server trusts loopback: any password does, and the controller's settings need one. */
    private static final String TRUSTED = "trusted-on-loopback";

    private final Path dir;
    private final Map<String, String> variables = new LinkedHashMap<>();

    private ServeEnvironment(Path dir) {
        this.dir = dir;
    }

    /**
     * @param dir where the credentials files go (a test's temporary directory)
     * @return an empty environment writing its files there
     */
    public static ServeEnvironment in(Path dir) {
        return new ServeEnvironment(dir);
    }

    /**
     * A store's database: {@code MESH_STORE_<ROLE>_FILE} and {@code _PORT}.
     *
     * @param role the store's role as the variables spell it, e.g. {@code INVENTORY}
     * @param password the role's password; empty on a loopback server that trusts it
     * @return this
     */
    public ServeEnvironment database(String role, String host, int port, String user, String password,
            String database) {
        return database(role, host + ":" + port, user, password, database);
    }

    /**
     * A store's database on a primary with standbys: {@code MESH_STORE_<ROLE>_PORT} names them all, as docs/cli.md
     * tells an operator to ({@code 127.0.0.1:5441,127.0.0.1:5442}).
     *
     * @param role the store's role as the variables spell it, e.g. {@code INVENTORY}
     * @param servers the servers' {@code host:port}, separated by commas
     * @param password the role's password; empty on a loopback server that trusts it
     * @return this
     */
    public ServeEnvironment database(String role, String servers, String user, String password, String database) {
        String name = role.toUpperCase(Locale.ROOT);
        put("MESH_STORE_" + name, name.toLowerCase(Locale.ROOT) + ".json", Map.of("user", user, "password",
                password.isEmpty() ? TRUSTED : password, "database", database), servers);
        return this;
    }

    /**
     * The broker: {@code MESH_BROKER_ADDRESS_FILE} and {@code _PORT}, plain AMQP.
     *
     * @return this
     */
    public ServeEnvironment broker(String host, int port, String vhost, String user, String password) {
        return broker(host + ":" + port, vhost, user, password);
    }

    /**
     * The broker as a cluster: {@code MESH_BROKER_ADDRESS_PORT} names its members, as docs/cli.md tells an operator
     * to ({@code 127.0.0.1:5681,127.0.0.1:5682,127.0.0.1:5683}), plain AMQP.
     *
     * @param members the members' {@code host:port}, separated by commas
     * @return this
     */
    public ServeEnvironment broker(String members, String vhost, String user, String password) {
        put("MESH_BROKER_ADDRESS", "broker-" + vhost + ".json", Map.of("user", user, "password", password, "vhost",
                vhost), members);
        return this;
    }

    /**
     * The broker's management API, through which the controller sets what each node's user may do:
     * {@code MESH_BROKER_MANAGEMENT_FILE} and {@code _PORT}.
     *
     * @return this
     */
    public ServeEnvironment management(String host, int port, String user, String password) {
        put("MESH_BROKER_MANAGEMENT", "management.json", Map.of("user", user, "password", password),
                host + ":" + port);
        return this;
    }

    /**
     * The bus's NATS: {@code MESH_BUS_NATS_FILE}.
     *
     * @return this
     */
    public ServeEnvironment nats(String url) {
        variables.put("MESH_BUS_NATS_FILE", write("nats.json", Map.of("url", url)).toString());
        return this;
    }

    /** @return the variables written so far */
    public Map<String, String> variables() {
        return Map.copyOf(variables);
    }

    private void put(String prefix, String file, Map<String, String> credentials, String address) {
        variables.put(prefix + "_FILE", write(file, credentials).toString());
        variables.put(prefix + "_PORT", address);
    }

    private Path write(String name, Map<String, String> content) {
        try {
            Path file = dir.resolve(name);
            Files.writeString(file, JSON.writeValueAsString(new TreeMap<>(content)));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(name), e);
        }
    }
}
