package dev.mesh.controller.launcher;

import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.PgIdentity;
import dev.mesh.controller.store.TestDatabases;
import dev.mesh.controller.testing.LocalRabbit;
import dev.mesh.controller.testing.ServeEnvironment;
import dev.mesh.controller.testing.TestVhost;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The environment the controller's manifest gives {@code serve}, for one test: the three databases
 * migrated on the local PostgreSQL, a virtual host of its own on the local RabbitMQ (the controller as
 * {@code guest}), the local NATS, and the credentials files and ports as the manifest writes them. Each
 * node named gets a broker user named like it (random, since broker users are global), permitted on the
 * virtual host, its password its name; {@link #close()} deletes the users and the virtual host.
 */
final class MeshEnvironment implements AutoCloseable {

    static final String NATS_URL = "nats://127.0.0.1:4222";

    private final TestVhost vhost;
    private final Map<String, String> nodes;
    private final Map<String, String> env = new HashMap<>();
    private final Map<Database, Endpoint> endpoints = new LinkedHashMap<>();

    private MeshEnvironment(TestVhost vhost, Map<String, String> nodes) {
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
        MeshEnvironment mesh = new MeshEnvironment(TestVhost.create("mesh-it"), users);
        users.values().forEach(mesh.vhost::addUser);
        ServeEnvironment serve = stores(ServeEnvironment.in(dir), databases, mesh.endpoints::put);
        serve.broker("127.0.0.1", 5672, mesh.vhost.name(), LocalRabbit.USER, LocalRabbit.PASSWORD).nats(NATS_URL);
        mesh.env.putAll(serve.variables());
        // Each node's user a principal, as the operator or genesis makes it: only a known one's facts are taken.
        PgIdentity identity = new PgIdentity(mesh.endpoint(Database.IDENTITY).dataSource());
        users.values().forEach(identity::enroll);
        return mesh;
    }

    /**
     * Migrates the test class's three databases again and names them in {@code serve}'s environment.
     *
     * @param each told each database's endpoint
     * @return {@code serve}
     */
    static ServeEnvironment stores(ServeEnvironment serve, TestDatabases databases,
            BiConsumer<Database, Endpoint> each) {
        for (Database database : Database.values()) {
            Endpoint endpoint = databases.migrated(database);
            each.accept(database, endpoint);
            serve.database(database.name(), endpoint.host(), endpoint.port(), endpoint.user(),
                    endpoint.password().reveal(), endpoint.database());
        }
        return serve;
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
        return vhost.name();
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
        return new dev.mesh.controller.simhost.BrokerSettings("127.0.0.1", 5672, vhost.name(), user,
                user.equals(LocalRabbit.USER) ? LocalRabbit.PASSWORD : user);
    }

    /** Deletes the nodes' users and the virtual host. */
    @Override
    public void close() {
        vhost.close();
    }
}
