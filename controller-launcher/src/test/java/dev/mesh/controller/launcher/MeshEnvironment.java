package dev.mesh.controller.launcher;

import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.PgIdentity;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.LocalRabbit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The environment the controller's manifest gives {@code serve}, for one test: the three databases
 * migrated on the local PostgreSQL, a virtual host of its own on the local RabbitMQ (the controller as
 * {@code guest}), the local NATS, and the credentials files and ports as the manifest writes them. Each
 * node named gets a broker user named like it (random, since broker users are global), permitted on the
 * virtual host, its password its name; {@link #close()} deletes the users and the virtual host.
 */
final class MeshEnvironment implements AutoCloseable {

    static final String NATS_URL = "nats://127.0.0.1:4222";

    private final String vhost;
    private final Map<String, String> nodes;
    private final Map<String, String> env = new HashMap<>();
    private final Map<Database, Endpoint> endpoints = new LinkedHashMap<>();

    private MeshEnvironment(String vhost, Map<String, String> nodes) {
        this.vhost = vhost;
        this.nodes = nodes;
    }

    /**
     * @param databases the test class's databases, migrated again here
     * @param dir where the credentials files go
     * @param nodes the nodes' names in the test; each gets a broker user {@code <name>-<random>}
     */
    static MeshEnvironment create(TestDatabases databases, Path dir, String... nodes) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> users = new LinkedHashMap<>();
        for (String node : nodes) {
            users.put(node, node + "-" + suffix);
        }
        MeshEnvironment mesh = new MeshEnvironment("mesh-it-" + suffix, users);
        LocalRabbit.get().addVhost(mesh.vhost);
        LocalRabbit.get().setPermissions(mesh.vhost, "guest", ".*", ".*", ".*");
        for (String user : users.values()) {
            LocalRabbit.get().addUser(user, user);
            LocalRabbit.get().setPermissions(mesh.vhost, user, ".*", ".*", ".*");
        }
        for (Database database : Database.values()) {
            Endpoint endpoint = databases.migrated(database);
            mesh.endpoints.put(database, endpoint);
            String name = database.name();
            mesh.env.put("MESH_STORE_" + name + "_FILE", write(dir, name.toLowerCase() + ".json", "{\"user\": \""
                    + endpoint.user() + "\", \"password\": \"" + password(endpoint) + "\", \"database\": \""
                    + endpoint.database() + "\"}"));
            mesh.env.put("MESH_STORE_" + name + "_PORT", endpoint.host() + ":" + endpoint.port());
        }
        mesh.env.put("MESH_BROKER_ADDRESS_FILE", write(dir, "broker.json", "{\"user\": \"guest\", \"password\": "
                + "\"guest\", \"vhost\": \"" + mesh.vhost + "\"}"));
        mesh.env.put("MESH_BROKER_ADDRESS_PORT", "127.0.0.1:5672");
        mesh.env.put("MESH_BUS_NATS_FILE", write(dir, "nats.json", "{\"url\": \"" + NATS_URL + "\"}"));
        // Each node's user a principal, as the operator or genesis makes it: only a known one's facts are taken.
        PgIdentity identity = new PgIdentity(mesh.endpoint(Database.IDENTITY).dataSource());
        users.values().forEach(identity::enroll);
        return mesh;
    }

    /** @return the environment {@code serve} reads */
    Map<String, String> env() {
        return Map.copyOf(env);
    }

    /** Sets a variable of the environment {@code serve} reads, e.g. another {@code MESH_BUS_NATS_FILE}. */
    void put(String variable, String value) {
        env.put(variable, value);
    }

    /** @return the environment, checked as {@code serve} checks it */
    Config.Serve config() {
        return Config.forServe(env);
    }

    /** @return the test's virtual host */
    String vhost() {
        return vhost;
    }

    /** @return the node's name in the mesh, which is also its broker user and password */
    String node(String name) {
        return nodes.get(name);
    }

    /** @return where that database is */
    Endpoint endpoint(Database database) {
        return endpoints.get(database);
    }

    /** Enrolls {@code principal} in the identity database and grants it every verb. */
    void grantEveryVerb(String principal) {
        PgIdentity identity = new PgIdentity(endpoint(Database.IDENTITY).dataSource());
        identity.enroll(principal);
        identity.grant(principal, Verbs.names().toArray(String[]::new));
    }

    /** A simulated host's or builder's broker settings on this virtual host. */
    dev.mesh.controller.simhost.BrokerSettings simhostBroker(String user) {
        return new dev.mesh.controller.simhost.BrokerSettings("127.0.0.1", 5672, vhost, user, user.equals("guest")
                ? "guest" : user);
    }

    @Override
    public void close() {
        for (String user : nodes.values()) {
            LocalRabbit.get().deleteUser(user);
        }
        LocalRabbit.get().deleteVhost(vhost);
    }

    /** The local server trusts loopback: any password does, and the controller's settings need one. */
    private static String password(Endpoint endpoint) {
        return endpoint.password().isEmpty() ? "trusted-on-loopback" : endpoint.password().reveal();
    }

    private static String write(Path dir, String name, String content) {
        try {
            Path file = dir.resolve(name);
            Files.writeString(file, content);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
