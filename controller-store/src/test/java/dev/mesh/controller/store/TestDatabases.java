package dev.mesh.controller.store;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;

import dev.mesh.controller.core.Secret;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Databases for one integration test class on the real PostgreSQL server: each named
 * {@code mesh_test_<random>_<database>}, created empty or migrated on demand, and dropped by
 * {@link #close()}. The server is {@code 127.0.0.1:5432} as {@code postgres} with trust
 * authentication, unless {@code MESH_TEST_PG_HOST}, {@code MESH_TEST_PG_PORT},
 * {@code MESH_TEST_PG_USER} and {@code MESH_TEST_PG_PASSWORD} say otherwise. When the server
 * cannot be reached, {@link #connect()} fails the test class with the command that starts it.
 * Registered as an extension ({@link #perClass()}), it connects before the class's first test and
 * drops its databases after the last. Published in the store's test jar for the launcher's
 * integration tests.
 *
 * <p>A migrated database is a copy of a template migrated once per JVM and database kind
 * ({@code mesh_test_tpl_<random>_<database>}, dropped when the JVM exits): {@code CREATE DATABASE …
 * TEMPLATE} takes a fraction of what Flyway's start and the migrations take, some 190 times a run. The
 * copy is what the migrations make, their history included.
 */
public final class TestDatabases implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    /** Starts the machine's PostgreSQL cluster (Debian's tools). */
    public static final String START = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

    /** The migrated templates of this JVM, by database, made on first use. */
    private static final Map<Database, String> TEMPLATES = new EnumMap<>(Database.class);
    private static final String TEMPLATE_PREFIX = "mesh_test_tpl_" + HexFormat.of().formatHex(
            new SecureRandom().generateSeed(4));

    /** The server's admin login; set when connected ({@link #connect} or {@link #beforeAll}). */
    private Endpoint admin;
    private final String prefix;
    private final Set<Database> created = EnumSet.noneOf(Database.class);

    private TestDatabases(Endpoint admin) {
        this.admin = admin;
        byte[] random = new byte[5];
        new SecureRandom().nextBytes(random);
        this.prefix = "mesh_test_" + HexFormat.of().formatHex(random);
    }

    /**
     * Databases for the test class that registers them, connected before its first test and
     * dropped after its last:
     * <pre>{@code @RegisterExtension static final TestDatabases databases = TestDatabases.perClass();}</pre>
     *
     * @return databases not connected yet
     */
    public static TestDatabases perClass() {
        return new TestDatabases(null);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        admin = connect().admin;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** @return databases on the server the environment names, or the default one */
    static TestDatabases connect() {
        return connect(System.getenv());
    }

    /**
     * @param env where to read {@code MESH_TEST_PG_*} from
     * @return databases on that server
     * @throws IllegalStateException when the server cannot be reached, saying how to start it
     */
    static TestDatabases connect(Map<String, String> env) {
        String host = env.getOrDefault("MESH_TEST_PG_HOST", "127.0.0.1");
        int port = Integer.parseInt(env.getOrDefault("MESH_TEST_PG_PORT", "5432"));
        String user = env.getOrDefault("MESH_TEST_PG_USER", "postgres");
        Endpoint admin = new Endpoint(host, port, "postgres", user, Secret.of(env.getOrDefault("MESH_TEST_PG_PASSWORD", "")));
        try (Connection connection = admin.dataSource().getConnection()) {
            if (!connection.isValid(10)) {
                throw new SQLException("the new connection is not valid");
            }
            return new TestDatabases(admin);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL is not reachable at " + admin.address() + " (" + e.getMessage()
                    + "). Start it with: " + START + " — or point MESH_TEST_PG_HOST, MESH_TEST_PG_PORT and "
                    + "MESH_TEST_PG_USER (MESH_TEST_PG_PASSWORD) at a server where that role may create databases.", e);
        }
    }

    /** @return where that database of this test class is (whether it exists yet or not) */
    public Endpoint endpoint(Database database) {
        return admin.withDatabase(prefix + "_" + database.label());
    }

    /**
     * Drops that database if it exists and creates it again, empty.
     *
     * @return where it is
     */
    public Endpoint empty(Database database) {
        Endpoint endpoint = endpoint(database);
        onServer(db -> {
            drop(db, endpoint.database());
            db.createDatabase(name(endpoint.database())).execute();
        });
        created.add(database);
        return endpoint;
    }

    /**
     * Drops that database if it exists, creates it again and applies the store's migrations.
     *
     * @return where it is
     */
    public Endpoint migrated(Database database) {
        String template = template(database);
        Endpoint endpoint = endpoint(database);
        onServer(db -> {
            drop(db, endpoint.database());
            endSessions(db, template); // a copy needs its template without sessions
            db.execute("create database {0} template {1}", name(endpoint.database()), name(template));
        });
        created.add(database);
        return endpoint;
    }

    /** This JVM's migrated template of that database, made (and its dropping at exit arranged) on first use. */
    private String template(Database database) {
        synchronized (TEMPLATES) {
            String template = TEMPLATES.get(database);
            if (template == null) {
                template = TEMPLATE_PREFIX + "_" + database.label();
                String made = template;
                onServer(db -> {
                    drop(db, made);
                    db.createDatabase(name(made)).execute();
                });
                Migrations.of(database, admin.withDatabase(template).dataSource()).migrate();
                if (TEMPLATES.isEmpty()) {
                    Endpoint server = admin;
                    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> dropTemplates(server)));
                }
                TEMPLATES.put(database, template);
            }
            return template;
        }
    }

    private static void dropTemplates(Endpoint server) {
        synchronized (TEMPLATES) {
            try {
                DSLContext db = DSL.using(server.dataSource(), SQLDialect.POSTGRES);
                TEMPLATES.values().forEach(template -> drop(db, template));
            } catch (DataAccessException e) {
                System.err.println("TestDatabases: the templates " + TEMPLATES.values() + " were not dropped: "
                        + e.getMessage());
            }
        }
    }

    /** Drops that database if it exists, ending the sessions on it, as an operator might by mistake. */
    public void drop(Database database) {
        onServer(db -> drop(db, endpoint(database).database()));
    }

    /**
     * Ends a server process's session, as an operator or a dead network would, and waits (up to
     * 5 s) until the process is gone and so has released its locks.
     *
     * @return whether the process ended within that time
     */
    public boolean terminate(int pid) {
        boolean[] ended = new boolean[1];
        onServer(db -> ended[0] = db.select(function("pg_terminate_backend", Boolean.class, val(pid), val(5000L)))
                .fetchSingle().value1());
        return ended[0];
    }

    /** Drops every database this instance created. */
    @Override
    public void close() {
        if (admin == null || created.isEmpty()) {
            return; // never connected (the failure that stopped it is the one to report), or nothing to drop
        }
        onServer(db -> created.forEach(database -> drop(db, endpoint(database).database())));
        created.clear();
    }

    private static void drop(DSLContext db, String database) {
        // A connection left open by a failed test would make DROP DATABASE fail.
        endSessions(db, database);
        db.dropDatabaseIfExists(name(database)).execute();
    }

    private static void endSessions(DSLContext db, String database) {
        db.select(function("pg_terminate_backend", Boolean.class, field(name("pid"))))
                .from(table(name("pg_stat_activity")))
                .where(field(name("datname"), String.class).eq(database))
                .fetch();
    }

    private void onServer(Consumer<DSLContext> work) {
        try {
            work.accept(DSL.using(admin.dataSource(), SQLDialect.POSTGRES));
        } catch (DataAccessException e) {
            throw new IllegalStateException("PostgreSQL at " + admin.address() + " failed: " + e.getMessage()
                    + ". If it stopped, start it with: " + START, e);
        }
    }
}
